#!/usr/bin/env bash
# The `weir ingest` figure of issue 18: wall clock (JVM start included) and CPU time of `weir ingest` of
# 4 M lines, default columns (10 k keys) and a six-column payments CSV, RUNS runs each (default 3).
# Usage: benchmarks/ingest-figure.sh [JAR_DIR]   (JAR_DIR holds weir.jar and weir.jvmopts; default cli/target,
# so a saved copy of an older build can be measured against the current one, back to back).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jars="${1:-$here/cli/target}"
runs="${RUNS:-3}"
lines="${LINES:-4000000}"
work="${WORK:-/tmp/weir-ingest-figure}"
mkdir -p "$work"
[ -f "$work/default.csv" ] || python3 "$here/benchmarks/ingest-csv.py" default "$lines" "$work/default.csv"
[ -f "$work/payments.csv" ] || python3 "$here/benchmarks/ingest-csv.py" payments "$lines" "$work/payments.csv"
for kind in default payments; do
  cols=()
  [ "$kind" = payments ] && cols=(--columns "card:string,merchant:string,country:string,amount:decimal(2),channel:string")
  for run in $(seq "$runs"); do
    rm -rf "$work/journal" "$work/$kind.csv.rejected.csv"
    # shellcheck disable=SC2046
    /usr/bin/time -f "$kind run $run: %e s wall, %U s user, %S s sys, %M KB" \
      java $(cat "$jars/weir.jvmopts") -jar "$jars/weir.jar" ingest --input "$work/$kind.csv" --journal "$work/journal" "${cols[@]}" >/dev/null
  done
done
rm -rf "$work/journal"
