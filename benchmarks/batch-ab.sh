#!/usr/bin/env bash
# The issue-34 targets table in one sitting: two CLI builds (BEFORE and AFTER, each a directory holding weir.jar
# and weir.jvmopts, e.g. a saved copy of an older cli/target), whole processes, runs alternating (before, after,
# before, ...), RUNS times each (default 3), then the medians. Each build ingests into a journal of its own, so a
# build that writes batched documents is measured reading them:
#   ingest     `weir ingest` of 4 M lines, default columns (10 k keys): lines / (wall - wall of a one-line file)
#   replay-1s  `weir replay --window tumbling:1s`  of 10 M events (output-heavy: 6.3 M results)
#   replay-60s `weir replay --window tumbling:60s` of the same (aggregation-heavy)
#   sliding    `weir replay --window sliding:10s/2s` of the same
#   export     the CSV export of the 6.3 M tumbling-1 s results after a resume (a `weir run` with nothing left)
# and checks that both builds wrote the same bytes for every job.
# Usage: benchmarks/batch-ab.sh BEFORE_DIR AFTER_DIR [RUNS]     (WORK: scratch directory, default /tmp/weir-batch-ab)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
before="$(realpath "$1")"; after="$(realpath "$2")"; runs="${3:-3}"
work="${WORK:-/tmp/weir-batch-ab}"
mkdir -p "$work"
[ -f "$work/ingest.csv" ] || python3 "$here/benchmarks/ingest-csv.py" default 4000000 "$work/ingest.csv"
[ -f "$work/ingest-1.csv" ] || python3 "$here/benchmarks/ingest-csv.py" default 1 "$work/ingest-1.csv"
[ -f "$work/events.csv" ] || awk -v N=10000000 'BEGIN { srand(42); print "event_id,event_time,key,value"; for (i=0;i<N;i++)
  printf "%d,%.0f,k%d,%d\n", i, 1700000000000 + int(i/10), int(rand()*10000), int(rand()*1000) }' > "$work/events.csv"
: > "$work/times"
weir() # tag name args...: one timed whole process, its wall seconds appended to $work/times
{
  local tag="$1" name="$2" dir; shift 2
  dir="$before"; [ "$tag" = after ] && dir="$after"
  # shellcheck disable=SC2046
  /usr/bin/time -o "$work/time" -f "%e %U %S %M" java $(cat "$dir/weir.jvmopts") -jar "$dir/weir.jar" "$@" >/dev/null 2>"$work/stderr" \
    || { cat "$work/stderr" >&2; exit 1; }
  read -r wall user sys kb < "$work/time"
  echo "$name $tag: $wall s wall, $user s user, $sys s sys, $kb KB"
  echo "$name $tag $wall" >> "$work/times"
}
for tag in before after; do # each build's journals, once
  rm -rf "$work/j-$tag" "$work/run-$tag" "$work/events.csv.rejected.csv"
  weir "$tag" setup-ingest ingest --input "$work/events.csv" --journal "$work/j-$tag"
  cp -r "$work/j-$tag" "$work/run-$tag"
  weir "$tag" setup-run run --journal "$work/run-$tag" --window tumbling:1s --out-of-orderness 1s --results "$work/setup-$tag.csv"
done
for _ in $(seq "$runs"); do
  for tag in before after; do
    for file in ingest-1 ingest; do
      rm -rf "$work/ij-$tag" "$work/$file.csv.rejected.csv"
      weir "$tag" "$file" ingest --input "$work/$file.csv" --journal "$work/ij-$tag"
    done
    weir "$tag" replay-1s replay --journal "$work/j-$tag" --window tumbling:1s --out-of-orderness 1s --results "$work/r1-$tag.csv"
    weir "$tag" replay-60s replay --journal "$work/j-$tag" --window tumbling:60s --out-of-orderness 1s --results "$work/r60-$tag.csv"
    weir "$tag" sliding replay --journal "$work/j-$tag" --window sliding:10s/2s --out-of-orderness 1s --results "$work/s-$tag.csv"
    weir "$tag" export run --journal "$work/run-$tag" --window tumbling:1s --out-of-orderness 1s --results "$work/e-$tag.csv"
  done
done
for f in r1 r60 s e; do
  cmp -s "$work/$f-before.csv" "$work/$f-after.csv" && echo "$f: same bytes ($(wc -l < "$work/$f-after.csv") lines)" || echo "$f: FILES DIFFER"
done
python3 - "$work/times" "$work/r1-after.csv" "$work/e-after.csv" <<'EOF'
import statistics, sys
times = {}
for line in open(sys.argv[1]):
    name, tag, wall = line.split()
    times.setdefault((name, tag), []).append(float(wall))
rows = sum(1 for _ in open(sys.argv[3])) - 1
events = 10_000_000
med = {k: statistics.median(v) for k, v in times.items()}
print("| figure | before | after | after / before |")
print("|---|---|---|---|")
def rate(name, tag):
    if name == "ingest":
        return 4_000_000 / (med[(name, tag)] - med[("ingest-1", tag)])
    if name == "export":
        return rows / med[(name, tag)]
    return events / med[(name, tag)]
labels = {"ingest": "ingest, 4 M lines (in process, lines/s)", "replay-1s": "replay tumbling 1 s (events/s)",
          "replay-60s": "replay tumbling 60 s (events/s)", "sliding": "replay sliding 10 s / 2 s (events/s)",
          "export": "CSV export of %d results (rows/s, whole process)" % rows}
for name in ("ingest", "replay-1s", "replay-60s", "sliding", "export"):
    b, a = rate(name, "before"), rate(name, "after")
    print("| %s | %.2f M (%.2f s) | %.2f M (%.2f s) | %.2fx |" % (labels[name], b / 1e6, med[(name, "before")],
          a / 1e6, med[(name, "after")], a / b))
EOF
