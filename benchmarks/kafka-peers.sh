#!/usr/bin/env bash
# Weir over Kafka side by side with Kafka Streams 4.4, on the same broker, topic and data (issue 20):
#   benchmarks/kafka-peers.sh
# 1. starts the test broker (scripts/test-kafka.sh start; left running, it may be shared);
# 2. writes EVENTS demo payments once (./weir demo --payments EVENTS: 10 s tumbling windows, 5 s out-of-orderness,
#    a few far-too-late and 3 malformed lines; its results.csv is the local reference) and produces them to a new
#    topic T of PARTITIONS partitions keyed by card, then one far-future record per partition (PaymentsProducer), so
#    that every partition's last windows close in an engine whose watermark is per partition;
# 3. throughput, RUNS times per engine, each on a fresh output topic O and a fresh group: a read_committed watcher of
#    O (OutputWatch) is started, then the job; events/s = records of T / (last committed row's arrival - job start),
#    the job's JVM start included; the watcher stops QUIET_MS after the last row, then the job is stopped (SIGTERM).
#    Kafka Streams: KafkaStreamsWindows (exactly_once_v2, commit COMMIT_MS, THREADS stream threads). Weir:
#    run_weir_kafka below, once `weir run --kafka` exists; until then its column says "not built";
# 4. latency, per engine, on fresh topics: the job is started and, once running, LatencyProbe offers RATE records/s
#    for PROBE_SECONDS (event time = wall clock at produce; PROBE_WINDOW_MS tumbling, PROBE_OOO_MS out-of-orderness)
#    and reports, per result row, arrival in O (read_committed) minus window_end + out-of-orderness: p50/p99/max;
# 5. checks that each run's rows equal the local reference (weir demo's results.csv without its version column;
#    Weir's watermark over the whole file and the per-partition ones close the same windows with this data), prints
#    the table, and exits 1 if any run's rows differ.
# Topics and groups get a random suffix; the script deletes the topics it created and those Weir created for it
# (O-rejected, G-weir-checkpoints), not Kafka Streams' internal ones (APP-...-changelog), unless KEEP_TOPICS=1. Two cores: the broker, the job, the producer and the
# watcher share them; see the note printed at the end.
# RUNS=0 runs only the latency probe.
# Settings (environment): EVENTS PARTITIONS RUNS COMMIT_MS THREADS QUIET_MS RATE PROBE_SECONDS PROBE_WARMUP
# PROBE_KEYS PROBE_WINDOW_MS PROBE_OOO_MS ENGINES ("streams weir") WORK STREAMS_JAVA_OPTS MVN_FLAGS KEEP_TOPICS.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"

events=${EVENTS:-1000000}
partitions=${PARTITIONS:-6}
runs=${RUNS:-3}
commit_ms=${COMMIT_MS:-100}
threads=${THREADS:-1}
quiet_ms=${QUIET_MS:-10000}
rate=${RATE:-20000}
probe_seconds=${PROBE_SECONDS:-90}
probe_warmup=${PROBE_WARMUP:-30} # measured: a freshly started Kafka Streams job needed ~20 s to settle on 2 loaded cores
probe_keys=${PROBE_KEYS:-1000}
probe_window_ms=${PROBE_WINDOW_MS:-1000}
probe_ooo_ms=${PROBE_OOO_MS:-200}
engines=${ENGINES:-streams weir}
work=${WORK:-${TMPDIR:-/tmp}/weir-kafka-peers}
bootstrap=127.0.0.1:${WEIR_KAFKA_PORT:-39092}
window_ms=10000 # weir demo's job
ooo_ms=5000
java_cmd=java
[ -n "${JAVA_HOME:-}" ] && java_cmd="$JAVA_HOME/bin/java"
streams_opts=${STREAMS_JAVA_OPTS:--Xms256m -Xmx1g}
log() { echo "kafka-peers: $*" >&2; }

peers_jar=peers/target/weir-peers.jar
if [ ! -f "$peers_jar" ] || [ ! -d peers/target/lib ] || [ -n "$(find pom.xml peers/pom.xml peers/src -newer "$peers_jar" -type f -print -quit)" ]; then
  log "building the peers module (mvn -Ppeers install, tests skipped) ..."
  # shellcheck disable=SC2086
  mvn -B -q ${MVN_FLAGS:-} -Ppeers -DskipTests install -pl peers -am >&2
fi
./weir --version > /dev/null # builds the CLI if missing or stale, outside the timed runs
cp="$peers_jar:peers/target/lib/*"
peer() { "$java_cmd" -cp "$cp" "$@" 2> >(grep -v '^SLF4J' >&2); }

scripts/test-kafka.sh start

mkdir -p "$work"
demo="$work/demo-$events"
if [ ! -f "$demo/payments.csv" ] || [ ! -f "$demo/results.csv" ]; then
  log "writing $events demo payments (./weir demo) into $demo ..."
  ./weir demo --payments "$events" --dir "$demo" > "$work/demo.log" 2>&1 || { cat "$work/demo.log" >&2; exit 1; }
fi
# canonical < ROWS : the rows (header and Weir's trailing version column dropped) sorted bytewise, "<rows> <sha256>"
canonical() {
  { grep -v '^window_start,' || true; } | awk -F, -v OFS=, 'NF == 8 { NF = 7 } { print }' | LC_ALL=C sort > "$work/.canonical"
  echo "$(wc -l < "$work/.canonical") $(sha256sum < "$work/.canonical" | cut -c1-16)"
}
reference=$(canonical < "$demo/results.csv")

suffix="$(date +%s)-$RANDOM"
created="$work/.topics-$suffix" # the topics this run created (topic runs in subshells too)
topic() { peer dev.weir.peers.KafkaTopics "$bootstrap" create "$1" "$2"; echo "$1" >> "$created"; }
cleanup() {
  local status=$?
  for pid in $(jobs -p); do kill -TERM "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if [ "${KEEP_TOPICS:-0}" != 1 ] && [ -s "$created" ]; then
    # shellcheck disable=SC2046
    peer dev.weir.peers.KafkaTopics "$bootstrap" delete $(cat "$created") || log "could not delete $(tr '\n' ' ' < "$created")"
  fi
  rm -f "$created"
  exit $status
}
trap cleanup EXIT

input="kp-in-$suffix"
topic "$input" "$partitions"
log "producing $demo/payments.csv to $input ($partitions partitions) ..."
produced=$(peer dev.weir.peers.PaymentsProducer "$bootstrap" "$input" "$demo/payments.csv")
log "$produced"
records=$(echo "$produced" | sed -n 's/^produced \([0-9]*\) records.*/\1/p')
records=$((records + partitions)) # and the far-future record of each partition

# run_streams NAME IN OUT WINDOW_MS OOO_MS LOG : starts the Kafka Streams job in the background (pid in $job)
run_streams() {
  # shellcheck disable=SC2086
  "$java_cmd" $streams_opts -cp "$cp" dev.weir.peers.KafkaStreamsWindows "$bootstrap" "$2" "$3" "$4" "$5" \
    --commit-interval "$commit_ms" --threads "$threads" --application-id "kp-$1-$suffix" --state-dir "$work/state-$1" > "$6" 2>&1 &
  job=$!
}

# ---------------------------------------------------------------------------------------------------------------
# WEIR OVER KAFKA: the one place that runs `weir run --kafka` (being built on main; flags as in I20-design.md).
# run_weir NAME IN OUT WINDOW_MS OOO_MS LOG : starts one Weir instance in the background (pid in $job), like
# run_streams. Returns 1 (and the table says "not built") while the CLI has no --kafka.
# ---------------------------------------------------------------------------------------------------------------
weir_has_kafka() { ./weir run --help 2>/dev/null | grep -q -- '--kafka'; }
run_weir() {
  weir_has_kafka || return 1
  rm -rf "$work/journal-$1"
  printf '%s\n' "$3-rejected" "kp-$1-$suffix-weir-checkpoints" >> "$created" # Weir creates these two
  ./weir run --kafka "$bootstrap" --topic "$2" --group "kp-$1-$suffix" --output-topic "$3" --journal "$work/journal-$1" \
    --instance 1 --commit-interval "${commit_ms}ms" --window "tumbling:${4}ms" --out-of-orderness "${5}ms" --late drop > "$6" 2>&1 &
  job=$!
}

# stop_job : SIGTERM to the job started last, and wait for it
stop_job() { kill -TERM "$job" 2>/dev/null || true; wait "$job" 2>/dev/null || true; }

# throughput ENGINE RUN : one timed run; prints "events/s startup_s rows_ok"
throughput() {
  local name="$1-t$2" out="kp-out-$1-t$2-$suffix"
  [ "$1" != weir ] || weir_has_kafka || return 1
  topic "$out" "$partitions"
  # the java process itself in the background (not a function's subshell), so that $! is the one to stop
  "$java_cmd" -cp "$cp" dev.weir.peers.OutputWatch "$bootstrap" "$out" "$quiet_ms" 1800000 "$work/$name.rows" \
    > "$work/$name.watch" 2> "$work/$name.watch.log" &
  local watcher=$!
  sleep 1 # the watcher is assigned before the job starts (it reads O from the beginning either way)
  local start
  start=$(date +%s%3N)
  "run_$1" "$name" "$input" "$out" "$window_ms" "$ooo_ms" "$work/$name.log" || { kill -TERM "$watcher"; wait "$watcher" || true; return 1; }
  wait "$watcher"
  stop_job
  local rows first last
  read -r rows first last < <(sed 's/[a-z_]*=//g' "$work/$name.watch")
  local got
  got=$(canonical < "$work/$name.rows")
  [ "$got" = "$reference" ] || log "$1 run $2: rows $got differ from the local reference $reference (see $work/$name.rows)"
  awk -v n="$records" -v s="$start" -v f="$first" -v l="$last" -v ok="$([ "$got" = "$reference" ] && echo same || echo DIFFERENT)" -v r="$rows" \
    'BEGIN { printf "%.0f %.1f %.1f %s %d\n", n / ((l - s) / 1000), (f - s) / 1000, (l - s) / 1000, ok, r }'
}

# latency ENGINE : the latency probe against a freshly started job; prints the probe's summary line
latency() {
  local name="$1-latency" in="kp-lin-$1-$suffix" out="kp-lout-$1-$suffix"
  [ "$1" != weir ] || weir_has_kafka || return 1
  topic "$in" "$partitions"
  topic "$out" "$partitions"
  "run_$1" "$name" "$in" "$out" "$probe_window_ms" "$probe_ooo_ms" "$work/$name.log" || return 1
  sleep 5 # Kafka Streams prints "state RUNNING"; the probe's warm-up covers the rest
  for _ in $(seq 120); do grep -q 'state RUNNING' "$work/$name.log" && break; [ "$1" != streams ] && break; sleep 0.5; done
  peer dev.weir.peers.LatencyProbe "$bootstrap" "$in" "$out" --rate "$rate" --seconds "$probe_seconds" \
    --warmup-seconds "$probe_warmup" --keys "$probe_keys" --window-ms "$probe_window_ms" --ooo-ms "$probe_ooo_ms" \
    --rows-file "$work/$name.csv" > "$work/$name.out" || true
  stop_job
  cat "$work/$name.out" >&2
  grep '^latency:' "$work/$name.out" || echo "latency: failed (see $work/$name.log)"
}

log "$records records in $input; reference rows $reference; $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
log "job: tumbling ${window_ms} ms, out-of-orderness ${ooo_ms} ms, commit ${commit_ms} ms, $threads stream thread(s) (Kafka Streams)"
failed=0
declare -A rate_of=() startup_of=() total_of=() rows_of=() latency_of=()
for engine in $engines; do
  for run in $(seq 1 "$runs"); do
    if result=$(throughput "$engine" "$run"); then
      read -r eps startup total same rows <<< "$result"
      log "$engine run $run: $eps events/s (first row after $startup s, last after $total s), $rows rows, rows vs the reference: $same"
      [ "$same" = same ] || failed=1
      rate_of[$engine]+=" $eps"
      startup_of[$engine]+=" $startup"
      total_of[$engine]+=" $total"
      rows_of[$engine]="$rows ($same)"
    else
      log "$engine: not built (weir run has no --kafka yet)"
      break
    fi
  done
  latency_of[$engine]=$(latency "$engine" || echo "latency: not built")
done

median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{ a[NR] = $1 } END { if (NR == 0) print "-"; else print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
echo
echo "| engine (one instance, $partitions partitions) | events/s, start to last result | first result s | last result s | rows | latency p50 / p99 / max ms at $rate/s |"
echo "|---|---|---|---|---|---|"
for engine in $engines; do
  label="Kafka Streams 4.4, exactly_once_v2, $threads thread(s), commit ${commit_ms} ms"
  [ "$engine" = weir ] && label="\`weir run --kafka\`, commit ${commit_ms} ms"
  lat=$(echo "${latency_of[$engine]:-}" | sed -n 's/.*p50=\([0-9]*\) p90=[0-9]* p99=\([0-9]*\) p99.9=[0-9]* max=\([0-9]*\).*/\1 \/ \2 \/ \3/p')
  echo "| $label | $(echo "${rate_of[$engine]:-}" | median) | $(echo "${startup_of[$engine]:-}" | median) | $(echo "${total_of[$engine]:-}" | median) | ${rows_of[$engine]:--} | ${lat:-not built} |"
done
echo
echo "(median of $runs runs; $records records: $events demo payments + malformed lines + one far-future record per partition;"\
  "tumbling ${window_ms} ms, out-of-orderness ${ooo_ms} ms; latency: $rate records/s offered for ${probe_seconds} s, $probe_keys keys,"\
  "tumbling ${probe_window_ms} ms, out-of-orderness ${probe_ooo_ms} ms, first ${probe_warmup} s not counted;"\
  "$(nproc) cores shared by the broker, the job, the producer and the watcher; load average at the end $(cut -d' ' -f1-3 /proc/loadavg);"\
  "command: benchmarks/kafka-peers.sh)"
if [ "$failed" -ne 0 ]; then
  log "FAILED: some run's rows differ from weir demo's local results (see above)"
  exit 1
fi
