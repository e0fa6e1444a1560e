#!/usr/bin/env bash
# Whole-process A/B of the sliding target of issue 18: `weir replay --window sliding:10s/2s` of a journal with
# two CLI jars, runs alternating, RUNS times (default 3), then the medians. With REFERENCE=1 (the default) it
# also times `--window tumbling:2s` and `tumbling:10s` with the AFTER jar: tumbling 2 s is one update per event
# on (key, 2 s) state, so it is the floor of a sliding aggregator by 2 s panes before the panes are combined
# (10 M events at 10 k events/s of event time: 4.3 M results at 2 s, 5.0 M at sliding 10 s / 2 s).
#
# Usage: benchmarks/sliding-ab.sh BEFORE.jar AFTER.jar JOURNAL [RUNS]
#   JOURNAL  an ingested journal, only read. Build it like benchmarks/open-journal.sh says, at 10 events per ms:
#     awk -v N=10000000 'BEGIN { srand(42); print "event_id,event_time,key,value"; for (i=0;i<N;i++)
#       printf "%d,%.0f,k%d,%d\n", i, 1700000000000 + int(i/10), int(rand()*10000), int(rand()*1000) }' > e.csv
#     ./weir ingest --input e.csv --journal J
# Prints one line per run (job, jar, wall s, user s, sys s, max RSS), the median wall time per job and jar, and
# whether both jars wrote the same results file. The JVM flags come from cli/target/weir.jvmopts.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
before="$1"; after="$2"; journal="$3"; runs="${4:-3}"
opts="$(cat "$here/cli/target/weir.jvmopts")"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
job() # name tag jar window
{
  local name="$1" tag="$2" jar="$3" window="$4"
  # shellcheck disable=SC2086
  /usr/bin/time -f "$name $tag %e s wall %U s user %S s sys %M KB" java $opts ${WEIR_JAVA_OPTS:-} -jar "$jar" \
    replay --journal "$journal" --window "$window" --out-of-orderness 1s --results "$out/$name-$tag.csv" 2>&1 >/dev/null \
    | tail -1 | tee -a "$out/times"
}
for _ in $(seq "$runs"); do
  job sliding before "$before" sliding:10s/2s
  job sliding after "$after" sliding:10s/2s
  if [ "${REFERENCE:-1}" = 1 ]; then
    job tumbling-2s after "$after" tumbling:2s
    job tumbling-10s after "$after" tumbling:10s
  fi
done
echo "medians (wall s, user s):"
for key in $(awk '{ print $1 "/" $2 }' "$out/times" | sort -u); do
  rows="$(awk -v k="$key" '$1 "/" $2 == k' "$out/times")"
  n="$(echo "$rows" | wc -l)"
  wall="$(echo "$rows" | awk '{ print $3 }' | sort -n | sed -n "$(( (n + 1) / 2 ))p")"
  user="$(echo "$rows" | awk '{ print $6 }' | sort -n | sed -n "$(( (n + 1) / 2 ))p")"
  echo "  ${key/\// } $wall s wall, $user s user ($n runs)"
done
cmp -s "$out/sliding-before.csv" "$out/sliding-after.csv" \
  && echo "sliding: same bytes ($(wc -l < "$out/sliding-after.csv") lines)" || echo "sliding: FILES DIFFER"
