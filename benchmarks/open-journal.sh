#!/usr/bin/env bash
# Whole-process time of opening a journal (issue 18): `weir replay` of its last 1,000 events, `weir inspect`,
# and `weir --help` (JVM start and class loading only), each run RUNS times (default 3), median printed.
#
#   benchmarks/open-journal.sh JOURNAL [RUNS]
#
# Wall-clock and CPU time (user+sys: less sensitive to a busy machine) of the whole process are printed.
# WEIR is the command measured (default: the repository's ./weir); e.g. for an A/B against a saved jar:
#   WEIR="java $(cat cli/target/weir.jvmopts) -jar /tmp/weir-before.jar" benchmarks/open-journal.sh J
# Build the journal once, e.g. 10 M events over 10 k keys:
#   awk -v N=10000000 'BEGIN { srand(42); print "event_id,event_time,key,value"; for (i=0;i<N;i++)
#     printf "%d,%.0f,k%d,%d\n", i, 1700000000000 + int(i/25), int(rand()*10000), int(rand()*1000) }' > e.csv
#   ./weir ingest --input e.csv --journal J
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
journal="$1"
runs="${2:-3}"
weir="${WEIR:-$here/weir}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

last="$($weir inspect "$journal" | sed -n 's/^offsets .*last event \([0-9]*\).*/\1/p')"
from=$((last - 999)) # one roll cycle: the last 1,000 events have consecutive offsets

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
measure() {
  local name="$1"; shift
  local walls=() cpus=()
  for _ in $(seq "$runs"); do
    /usr/bin/time -f '%e %U %S' -o "$out/time" "$@" >/dev/null 2>&1
    read -r wall user sys < "$out/time"
    walls+=("$wall")
    cpus+=("$(echo "$user + $sys" | bc)")
  done
  printf '%-34s wall median %.2f s (runs: %s); CPU (user+sys) median %.2f s\n' "$name" \
    "$(printf '%s\n' "${walls[@]}" | median)" "${walls[*]}" "$(printf '%s\n' "${cpus[@]}" | median)"
}

# shellcheck disable=SC2086
measure "weir --help" $weir --help
# shellcheck disable=SC2086
measure "weir inspect" $weir inspect "$journal"
# shellcheck disable=SC2086
measure "weir replay (last 1,000 events)" $weir replay --journal "$journal" --from "$from" --window tumbling:1s --results "$out/r.csv"
