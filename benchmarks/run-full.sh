#!/usr/bin/env bash
# The full benchmark run behind BENCHMARKS.md: every figure, on this machine, in one go (about 40 minutes
# on 2 cores; run it with nothing else busy). JMH's text and JSON output, the latency histograms and the
# percentile plot go to benchmarks/results/. Extra arguments are passed to every JMH run (e.g. -f 3).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
mvn -B -q -DskipTests install
out=benchmarks/results
rm -rf "$out"
mkdir -p "$out/latency"
jar=benchmarks/target/benchmarks.jar
opts="$(cat benchmarks/target/classes/weir.jvmopts)"

jmh() {
  local name=$1
  shift
  echo "== $name: $*" >&2
  java -jar "$jar" "$@" -rf json -rff "$out/$name.json" "${EXTRA[@]}" | tee "$out/$name.txt"
}
EXTRA=("$@")

# throughput end to end, every layout, durable output journal or listener only
jmh end-to-end EndToEndBenchmark -p layout=FUSED,STAGED,INLINE -f 2 -wi 2 -i 5 -w 2 -r 2 -prof gc
# wait strategies of the consumer thread(s), FUSED and STAGED
jmh wait-strategies EndToEndBenchmark -p window=tumbling -p output=journal -p layout=FUSED,STAGED \
    -p wait=yielding,busyspin,sleeping,blocking -f 1 -wi 2 -i 5 -w 2 -r 2
# the naive baseline, NEXMark-shaped queries, the raw journal
jmh baseline-nexmark-journal 'BaselineBenchmark|NexmarkBenchmark|JournalScanBenchmark|JournalAppendBenchmark' \
    -f 2 -wi 2 -i 5 -w 2 -r 2 -prof gc
# each stage alone: allocation per operation
jmh stages StageBenchmark -f 1 -wi 3 -i 5 -w 1 -r 2 -prof gc
# latency under offered load (histograms written to $out/latency)
jmh latency LatencyBenchmark -jvmArgsAppend "-Dweir.latency.dir=$here/$out/latency"
jmh latency-default-idle LatencyBenchmark -p layout=INLINE -p idle=backoff -jvmArgsAppend "-Dweir.latency.dir=$here/$out/latency"
# the same with the journal on tmpfs (no page-cache writeback stalls on the mmap'd journal files)
if [ -d /dev/shm ]; then
  mkdir -p "$out/latency-tmpfs"
  jmh latency-tmpfs LatencyBenchmark -p layout=INLINE -jvmArgsAppend "-Dweir.latency.dir=$here/$out/latency-tmpfs -Djava.io.tmpdir=/dev/shm"
fi
# recovery after a crash, checkpoint pauses
jmh recovery RecoveryBenchmark
# the as-of join: end to end with 0, 1 and 2 joins, the join alone, restoring a 1,000,000-row table
jmh joins EndToEndBenchmark -p columns=tables -p joins=0,1,2 -p window=tumbling,sliding -p layout=FUSED -p output=journal \
    -f 1 -wi 2 -i 3 -w 2 -r 2 -prof gc
jmh join-stage JoinBenchmark -f 1 -wi 2 -i 3 -w 2 -r 2 -prof gc
jmh join-recovery JoinRecoveryBenchmark -f 1 -wi 2 -i 3
# named aggregates: today's value, one named sum, the seven-aggregate candle
jmh named-aggregates NamedAggregatesBenchmark -f 1 -wi 3 -i 5 -w 2 -r 2 -prof gc
jmh named-aggregate-stages NamedAggregateStageBenchmark -f 1 -wi 3 -i 5 -w 1 -r 1 -prof gc
# the PostgreSQL sink, when a server is up (scripts/test-postgres.sh starts the tests' one)
if "$here/scripts/test-postgres.sh"; then
  jmh postgres-delivery PostgresDeliveryBenchmark
fi
# state size of a million open windows
# shellcheck disable=SC2086
java $opts -cp "$jar" dev.weir.bench.StateSize | tee "$out/state-size.txt"
# shellcheck disable=SC2086
java $opts -cp "$jar" dev.weir.bench.StateSize 1000000 candle | tee -a "$out/state-size.txt"
# shellcheck disable=SC2086
java $opts -cp "$jar" dev.weir.bench.SlotSize | tee "$out/slot-size.txt"
# shellcheck disable=SC2086
java $opts -cp "$jar" dev.weir.bench.JoinStateSize | tee "$out/join-state-size.txt"

python3 benchmarks/plot-latency.py -o "$out/latency.svg" --title "Weir latency (INLINE, journal on ext4), coordinated-omission corrected" \
  --unit µs --log-y $(for f in "$out"/latency/*INLINE*yielding-{applied,result,appended}.hgrm; do
    echo "$(basename "$f" .hgrm)=$f"; done) > /dev/null
python3 benchmarks/plot-latency.py -o "$out/latency-tmpfs.svg" --title "Weir latency (INLINE, journal on tmpfs), coordinated-omission corrected" \
  --unit µs --log-y $(for f in "$out"/latency-tmpfs/*-{applied,result,appended}.hgrm; do
    echo "$(basename "$f" .hgrm)=$f"; done) > /dev/null
python3 benchmarks/plot-latency.py --csv $(for f in "$out"/latency*/*.hgrm; do
    echo "$(basename "$(dirname "$f")")/$(basename "$f" .hgrm)=$f"; done) | tee "$out/latency.csv"
echo "results in $out" >&2
