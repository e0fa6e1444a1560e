#!/usr/bin/env bash
# Issue 18's pre-touching lever, A/B: RUNS (default 3) LatencyBenchmark runs of INLINE at 100 k/s and 1 M/s with
# the journal's pretoucher off and on (-p pretouch=none,on; the order alternates between runs), then the median of
# each percentile per histogram over the runs (plot-latency.py --csv); then AppendStalls without and with it.
# Usage: benchmarks/pretouch-ab.sh [JOURNAL_PARENT]   (default the JVM's temporary directory, ext4 here; /dev/shm
# for tmpfs). Histograms and logs go to $OUT (default /tmp/weir-pretouch-ab). Build first: mvn -B -q -o install -DskipTests.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${RUNS:-3}"
out="${OUT:-/tmp/weir-pretouch-ab}"
parent="${1:-}"
jar="$here/benchmarks/target/benchmarks.jar"
tmp=()
[ -n "$parent" ] && tmp=("-Djava.io.tmpdir=$parent")
mkdir -p "$out"
for run in $(seq "$runs"); do
  order=none,on
  [ $((run % 2)) -eq 0 ] && order=on,none
  java -jar "$jar" LatencyBenchmark -p rate=100000,1000000 -p layout=INLINE -p pretouch="$order" \
    -jvmArgsAppend "-Dweir.latency.dir=$out/run$run ${tmp[*]}" > "$out/run$run.log" 2>&1
  grep -E "^rate|applied:|appended:" "$out/run$run.log"
done
python3 - "$here" "$out" "$runs" <<'PY'
import collections, csv, glob, statistics, subprocess, sys
here, out, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
rows = collections.defaultdict(list)
for r in range(1, runs + 1):
    files = sorted(glob.glob(f"{out}/run{r}/*.hgrm"))
    text = subprocess.run(["python3", f"{here}/benchmarks/plot-latency.py", "--csv"] + files, capture_output=True, text=True, check=True).stdout
    for row in csv.DictReader(text.splitlines()):
        rows[row["label"]].append(row)
cols = ["p50", "p99", "p99.9", "p99.99", "max"]
print("median of", runs, "runs, µs:", ", ".join(cols))
for label, rs in sorted(rows.items()):
    print(f"{label},", ",".join(f"{statistics.median(float(x[c]) for x in rs):.1f}" for c in cols))
PY
for mode in none pretouch; do
  # shellcheck disable=SC2046
  java -Dchronicle.analytics.disable=true -Dchronicle.announcer.disable=true --add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-exports=java.base/sun.nio.ch=ALL-UNNAMED \
    --add-exports=java.base/jdk.internal.ref=ALL-UNNAMED --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED \
    --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED \
    --add-exports=java.base/jdk.internal.misc=ALL-UNNAMED --add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED \
    -cp "$jar" dev.weir.bench.AppendStalls "${parent:-/tmp}" "$mode" | tail -1
done
