#!/usr/bin/env bash
# The `weir ingest` figure of issue 18: wall clock (JVM start included) and CPU time of `weir ingest` of
# 4 M lines, default columns (10 k keys) and a six-column payments CSV, RUNS runs each (default 3), and
# the same for a one-line file of each (the fixed cost: JVM start, opening the journal, the rejected file).
# The in-process rate is lines / (median wall - median one-line wall).
# Usage: benchmarks/ingest-figure.sh [JAR_DIR]   (JAR_DIR holds weir.jar and weir.jvmopts; default cli/target,
# so a saved copy of an older build can be measured against the current one, back to back).
# Files (generated once by benchmarks/ingest-csv.py) and journals are in $WORK (default /tmp/weir-ingest-figure).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jars="${1:-$here/cli/target}"
runs="${RUNS:-3}"
lines="${LINES:-4000000}"
work="${WORK:-/tmp/weir-ingest-figure}"
mkdir -p "$work"
for kind in default payments; do
  [ -f "$work/$kind.csv" ] || python3 "$here/benchmarks/ingest-csv.py" "$kind" "$lines" "$work/$kind.csv"
  [ -f "$work/$kind-1.csv" ] || python3 "$here/benchmarks/ingest-csv.py" "$kind" 1 "$work/$kind-1.csv"
done
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for kind in default payments; do
  cols=()
  [ "$kind" = payments ] && cols=(--columns "card:string,merchant:string,country:string,amount:decimal(2),channel:string")
  for file in "$kind-1" "$kind"; do
    : > "$work/times"
    for run in $(seq "$runs"); do
      rm -rf "$work/journal" "$work/$file.csv.rejected.csv"
      # shellcheck disable=SC2046
      /usr/bin/time -o "$work/time" -f "%e %U %S %M" \
        java $(cat "$jars/weir.jvmopts") -jar "$jars/weir.jar" ingest --input "$work/$file.csv" --journal "$work/journal" "${cols[@]}" >/dev/null
      read -r wall user sys kb < "$work/time"
      echo "$file run $run: $wall s wall, $user s user, $sys s sys, $kb KB"
      echo "$wall" >> "$work/times"
    done
    m=$(median < "$work/times")
    echo "$file median: $m s"
    if [ "$file" = "$kind-1" ]; then fixed=$m; else
      awk -v n="$lines" -v w="$m" -v f="$fixed" 'BEGIN {printf "%s: %.2f M lines/s with JVM start, %.2f M lines/s in process (%.2f s - %.2f s fixed)\n", "'"$kind"'", n/w/1e6, n/(w-f)/1e6, w, f}'
    fi
  done
done
rm -rf "$work/journal" "$work/times" "$work/time"
