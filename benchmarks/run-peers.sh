#!/usr/bin/env bash
# Weir side by side with Apache Flink 1.20 on the same job, in one run (issue 18):
#   benchmarks/run-peers.sh            # both shapes, 3 runs each, Flink at parallelism 1 and 2
# 1. writes the events CSV once (PeerCsv: 4 M lines, 10 k keys, 400 s of event time, up to 99 ms out of order,
#    1 in 20 up to 399 ms, 1 in 500 a further 1-3 s late); the same file for both engines;
# 2. for each job shape (tumbling 1 s: output-heavy; tumbling 60 s: aggregation-heavy), RUNS rounds of, back to
#    back: `./weir run --input F --window tumbling:W --out-of-orderness D --late side ...` and the same job in Flink
#    (FlinkWindowJob, its own JVM, local environment, for each parallelism in PARALLELISM), each timed as a whole
#    process (JVM start included) with /usr/bin/time;
# 3. checks that every run of both gives the same rows (results and late events, each sorted into one canonical
#    text form); a mismatch fails the script;
# 4. prints, per shape, the median wall time of each, the ratio Flink / Weir, and the rows.
# Builds what is missing or stale: ./weir builds the CLI; the peers module (Flink) with mvn -Ppeers (MVN_FLAGS are
# added, e.g. MVN_FLAGS=-o). Settings (environment): EVENTS KEYS SECONDS_OF_EVENT_TIME SEED OOO_MS LATE=side|drop RUNS PARALLELISM
# SHAPES (window lengths in ms) WORK (scratch directory; the CSV is kept there between runs) FLINK_JAVA_OPTS.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"

events=${EVENTS:-4000000}
keys=${KEYS:-10000}
seconds=${SECONDS_OF_EVENT_TIME:-400}
seed=${SEED:-42}
ooo_ms=${OOO_MS:-200}
late=${LATE:-side}
runs=${RUNS:-3}
parallelism=${PARALLELISM:-1 2}
shapes=${SHAPES:-1000 60000}
work=${WORK:-${TMPDIR:-/tmp}/weir-peers}
java_cmd=java
[ -n "${JAVA_HOME:-}" ] && java_cmd="$JAVA_HOME/bin/java"

# The JVM options Flink 1.20's distribution gives every JVM on Java 17 (env.java.opts.all in its config.yaml),
# default heap (a local environment sizes its MiniCluster from it, as a user's `java -cp ... MyJob` would).
flink_opts=${FLINK_JAVA_OPTS:---add-exports=java.base/sun.net.util=ALL-UNNAMED --add-exports=java.rmi/sun.rmi.registry=ALL-UNNAMED \
--add-exports=jdk.compiler/com.sun.tools.javac.api=ALL-UNNAMED --add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED \
--add-exports=jdk.compiler/com.sun.tools.javac.parser=ALL-UNNAMED --add-exports=jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED \
--add-exports=jdk.compiler/com.sun.tools.javac.util=ALL-UNNAMED --add-exports=java.security.jgss/sun.security.krb5=ALL-UNNAMED \
--add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.net=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED \
--add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED \
--add-opens=java.base/java.text=ALL-UNNAMED --add-opens=java.base/java.time=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED \
--add-opens=java.base/java.util.concurrent=ALL-UNNAMED --add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED \
--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED}

peers_jar=peers/target/weir-peers.jar
if [ ! -f "$peers_jar" ] || [ ! -d peers/target/lib ] || [ -n "$(find pom.xml peers/pom.xml peers/src -newer "$peers_jar" -type f -print -quit)" ]; then
  echo "run-peers: building the peers module (mvn -Ppeers install, tests skipped) ..." >&2
  # shellcheck disable=SC2086
  mvn -B -q ${MVN_FLAGS:-} -Ppeers -DskipTests install -pl peers -am >&2
fi
./weir --version > /dev/null # builds the CLI if missing or stale, outside the timed runs
flink_cp="$peers_jar:peers/target/lib/*"

mkdir -p "$work"
csv="$work/events-$events-$keys-$seconds-$seed.csv"
if [ ! -f "$csv" ]; then
  echo "run-peers: writing $csv ..." >&2
  "$java_cmd" -cp "$flink_cp" dev.weir.peers.PeerCsv "$csv.tmp" "$events" "$keys" "$seconds" "$seed"
  mv "$csv.tmp" "$csv"
fi

# canonical < ROWS : the rows (headers skipped) sorted bytewise, as "<rows> <sha256 prefix>"
canonical() {
  { grep -v -e '^window_start,' -e '^event_id,' || true; } | LC_ALL=C sort > "$work/.canonical"
  echo "$(wc -l < "$work/.canonical") $(sha256sum < "$work/.canonical" | cut -c1-16)"
}

# parts DIR : the contents of the part files Flink's FileSink wrote under DIR
parts() { [ -d "$1" ] || return 0; find "$1" -type f -name 'part-*' -print0 2>/dev/null | xargs -0 -r cat; }

# timed LOG CMD... : runs CMD, its output in LOG; prints its wall time in seconds and max RSS in KB
timed() {
  local log=$1
  shift
  /usr/bin/time -f '%e %M' -o "$work/.time" "$@" > "$log" 2>&1 || { echo "run-peers: failed: $* (see $log)" >&2; cat "$log" >&2; exit 1; }
  cat "$work/.time"
}

median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

flink_version=$(find peers/target/lib -name 'flink-streaming-java-*.jar' -printf '%f' | sed 's/^flink-streaming-java-//; s/\.jar$//')
echo "run-peers: $(wc -l < "$csv") lines ($events events, $keys keys, $seconds s of event time), out-of-orderness ${ooo_ms} ms, late $late," \
  "$runs runs; Flink $flink_version at parallelism ${parallelism// /, }; $(nproc) cores, $("$java_cmd" -version 2>&1 | head -1)," \
  "load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
echo "run-peers: Weir's JVM flags (cli/target/weir.jvmopts): $(cat cli/target/weir.jvmopts) ${WEIR_JAVA_OPTS:-}" >&2
echo "run-peers: Flink's JVM flags: $flink_opts" >&2
failed=0
table="| job | Weir s |$(for p in $parallelism; do printf ' Flink p=%s s |' "$p"; done) Flink / Weir (p=${parallelism// /, p=}) | result rows | late rows |"
table+=$'\n'"|---|---|$(for p in $parallelism; do printf -- '---|'; done)---|---|---|"
for window_ms in $shapes; do
  window="tumbling:${window_ms}ms"
  [ $((window_ms % 1000)) -eq 0 ] && window="tumbling:$((window_ms / 1000))s"
  weir_times=""
  declare -A flink_times=()
  expected=""
  expected_late=""
  for run in $(seq 1 "$runs"); do
    out="$work/$window_ms-weir"
    rm -rf "$out" && mkdir -p "$out"
    late_args=()
    [ "$late" = side ] && late_args=(--late-output "$out/late.csv")
    read -r secs rss < <(timed "$out/log" ./weir run --input "$csv" --window "$window" --out-of-orderness "${ooo_ms}ms" \
      --late "$late" "${late_args[@]}" --results "$out/results.csv")
    weir_times+=" $secs"
    rows=$(canonical < "$out/results.csv")
    late_rows="0 -"
    [ "$late" = side ] && late_rows=$(canonical < "$out/late.csv")
    echo "  $window run $run: weir $secs s, ${rss} KB, rows $rows, late $late_rows; $(grep -oE '^events/s +[0-9,]+' "$out/log" | tr -s ' ' || true)" >&2
    if [ -z "$expected" ]; then expected=$rows; expected_late=$late_rows; fi
    if [ "$rows" != "$expected" ] || [ "$late_rows" != "$expected_late" ]; then
      echo "run-peers: MISMATCH: weir run $run gives $rows / $late_rows, expected $expected / $expected_late" >&2
      failed=1
    fi
    for p in $parallelism; do
      out="$work/$window_ms-flink-$p"
      rm -rf "$out" && mkdir -p "$out"
      late_dir=-
      [ "$late" = side ] && late_dir="$out/late"
      # shellcheck disable=SC2086
      read -r secs rss < <(timed "$out/log" "$java_cmd" $flink_opts -cp "$flink_cp" dev.weir.peers.FlinkWindowJob \
        "$csv" "$out/results" "$late_dir" "$window_ms" "$ooo_ms" "$p")
      flink_times[$p]+=" $secs"
      if [ -n "$(find "$out" -name '.*inprogress*' -print -quit)" ]; then
        echo "run-peers: Flink left unfinished part files in $out" >&2
        failed=1
      fi
      rows=$(parts "$out/results" | canonical)
      late_rows="0 -"
      [ "$late" = side ] && late_rows=$(parts "$out/late" | canonical)
      echo "  $window run $run: flink p=$p $secs s, ${rss} KB, rows $rows, late $late_rows; $(grep 'net runtime' "$out/log" || true)" >&2
      if [ "$rows" != "$expected" ] || [ "$late_rows" != "$expected_late" ]; then
        echo "run-peers: MISMATCH: flink p=$p run $run gives $rows / $late_rows, Weir gives $expected / $expected_late" >&2
        failed=1
      fi
    done
  done
  weir_median=$(echo "$weir_times" | median)
  line="| \`weir run\`, $window ($events events) | $weir_median |"
  ratios=""
  for p in $parallelism; do
    m=$(echo "${flink_times[$p]}" | median)
    line+=" $m |"
    ratios+="$(awk -v f="$m" -v w="$weir_median" 'BEGIN { printf "%.2f×", f / w }') / "
  done
  line+=" ${ratios% / } | ${expected%% *} | ${expected_late%% *} |"
  table+=$'\n'"$line"
  echo "  $window: weir${weir_times}; $(for p in $parallelism; do printf 'flink p=%s%s; ' "$p" "${flink_times[$p]}"; done)" >&2
  unset flink_times
done
echo
echo "$table"
echo
echo "(median of $runs runs each, wall time of the whole process, JVM start included; Flink $flink_version;"\
  "load average at the end $(cut -d' ' -f1-3 /proc/loadavg); command: benchmarks/run-peers.sh)"
if [ "$failed" -ne 0 ]; then
  echo "run-peers: FAILED: the engines' rows differ (see above)" >&2
  exit 1
fi
echo "run-peers: same rows from both engines in every run" >&2
