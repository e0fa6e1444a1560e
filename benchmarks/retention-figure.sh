#!/usr/bin/env bash
# The retention figures of issue 19: the cost of a `weir retain` step, and the time to open a journal whose
# history spans 100 roll cycles, before and after retention, with and without the dictionary snapshot.
#
#   benchmarks/retention-figure.sh [JAR_DIR]    (JAR_DIR holds weir.jar and weir.jvmopts; default cli/target)
#
# Environment: RUNS (default 3; medians printed), CYCLES (default 100), EVENTS per cycle (default 20000),
# KEYS (default 10000), WORK (default /tmp/weir-retention-figure; the journal is built there once and copied
# for each run).
#
# The journal is minutely. Each cycle is one `weir ingest` of EVENTS lines whose clock is pinned to that
# cycle's minute with the test clock (-Dweir.clock.origin=<minute> -Dweir.clock.scale=1e-9: the clock stays
# within a millisecond of the origin), so cycle c holds exactly the events of ingest c. The default pipeline
# then runs once over everything (clock pinned after the last cycle), so the floor is the last event and
# `weir retain --keep 2m` at the end of cycle CYCLES+0.5 removes cycles 0..CYCLES-3 and keeps 2.
#
# The step is measured whole (JVM start included) and in parts, by difference between variants on fresh copies:
#   dry run            JVM start, open, floor (checkpoints), cycle listing; nothing written
#   delete             dry run + history base scan of the removed events + deleting the cycle files
#   delete, base done  the same on a copy whose history base was already moved on (a step killed after writing
#                      it): dry run + deleting only
#   archive (rename)   dry run + base scan + moving the files to an archive on the same file system
# so: base scan = delete - delete(base done); deletion = delete(base done) - dry run; move = archive - delete(base done).
# A move to another file system copies each file (Chronicle cycle files are sparse: 80 MiB apparent each for a
# minutely cycle) and is not measured here.
#
# Opening: `weir inspect J` and `weir replay` of the last 1,000 events, on the whole journal and on the retained
# one (2 cycles + history base), each with and without dictionaries.snapshot.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jars="${1:-$here/cli/target}"
runs="${RUNS:-3}"
cycles="${CYCLES:-100}"
events="${EVENTS:-20000}"
keys="${KEYS:-10000}"
work="${WORK:-/tmp/weir-retention-figure}"
mkdir -p "$work"
java_opts=$(cat "$jars/weir.jvmopts")
t0=$(( ($(date +%s) / 60 - 24 * 60) * 60000 )) # a minute a day ago: every cycle ended long before any real now
pinned() { echo "-Dweir.clock.origin=$1 -Dweir.clock.scale=0.000000001"; }
# shellcheck disable=SC2086
weir_at() { local at="$1"; shift; java $java_opts $(pinned "$at") -jar "$jars/weir.jar" "$@"; }

base="$work/base-$cycles-$events"
if [ ! -f "$base/done" ]; then
  rm -rf "$base"; mkdir -p "$base"
  for c in $(seq 0 $((cycles - 1))); do
    awk -v c="$c" -v n="$events" -v k="$keys" 'BEGIN { srand(c + 1); print "event_id,event_time,key,value";
      for (i = c * n; i < (c + 1) * n; i++) printf "%d,%d,k%d,%d\n", i, 1700000000000 + int(i / 25), int(rand() * k), int(rand() * 1000) }' \
      > "$work/part.csv"
    weir_at $((t0 + c * 60000 + 1000)) ingest --input "$work/part.csv" --journal "$base/J" --roll-cycle minutely > /dev/null
  done
  weir_at $((t0 + cycles * 60000 + 1000)) run --journal "$base/J" --window tumbling:1s --results "$base/r.csv" > /dev/null
  echo "$t0" > "$base/done"
fi
t0=$(cat "$base/done")
now=$((t0 + cycles * 60000 + 30000))
last="$(java $java_opts -jar "$jars/weir.jar" inspect "$base/J" | sed -n 's/^offsets .*last event \([0-9]*\).*/\1/p')"
from=$((last - 999)) # the last 1,000 events are in the last cycle, at consecutive offsets

TIMEFORMAT='%R %U %S'
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
fresh() { rm -rf "$work/run" "$work/archive"; mkdir -p "$work/run"; cp -a --sparse=always "$base/J" "$work/run/J"; }
# measure NAME PREPARE COMMAND...: PREPARE runs before each run, untimed
measure() {
  local name="$1" prepare="$2"; shift 2
  local walls=() cpus=()
  for _ in $(seq "$runs"); do
    $prepare
    { time "$@" > "$work/out" 2>&1; } 2> "$work/time" # bash's time: wall, and user and sys of the children
    read -r wall user sys < "$work/time"
    walls+=("$wall"); cpus+=("$(echo "$user + $sys" | bc)")
  done
  printf '| %-44s | %6.2f | %6.2f | %s |\n' "$name" "$(printf '%s\n' "${walls[@]}" | median)" \
    "$(printf '%s\n' "${cpus[@]}" | median)" "${walls[*]}"
}
base_done() { fresh; weir_at "$now" retain --journal "$work/run/J" --keep 2m --archive "$work/not-a-dir/x" > /dev/null 2>&1 || true; }
retained() { fresh; weir_at "$now" retain --journal "$work/run/J" --keep 2m > /dev/null; }
retained_no_snapshot() { retained; rm -f "$work/run/J/dictionaries.snapshot"; }
whole_no_snapshot() { fresh; rm -f "$work/run/J/dictionaries.snapshot"; }
: > "$work/not-a-dir"

echo "journal: $cycles minutely cycles x $events events ($((cycles * events)) events, $keys keys), $(du -sh "$base/J" | cut -f1) on disk"
echo "| step (median of $runs) | wall s | CPU s | walls |"
echo "|---|---|---|---|"
measure "weir --help (JVM start)" true java $java_opts -jar "$jars/weir.jar" --help
measure "retain --dry-run" fresh weir_at "$now" retain --journal "$work/run/J" --keep 2m --dry-run
measure "retain: delete $((cycles - 2)) cycles" fresh weir_at "$now" retain --journal "$work/run/J" --keep 2m
measure "retain: delete, base already moved on" base_done weir_at "$now" retain --journal "$work/run/J" --keep 2m
measure "retain: archive (rename, same fs)" fresh weir_at "$now" retain --journal "$work/run/J" --keep 2m --archive "$work/archive"
retained; grep -E '^(removed|nothing removed)' "$work/out" || tail -1 "$work/out"
weir_at "$now" retain --journal "$work/run/J" --keep 2m | tail -1
echo "after retention: $(du -sh "$work/run/J" | cut -f1) on disk, history.base $(stat -c %s "$work/run/J/history.base") bytes"
echo
echo "| open (median of $runs) | wall s | CPU s | walls |"
echo "|---|---|---|---|"
replay() { java $java_opts -jar "$jars/weir.jar" replay --journal "$work/run/J" --from "$from" --window tumbling:1s --results "$work/r.csv"; }
inspect() { java $java_opts -jar "$jars/weir.jar" inspect "$work/run/J"; }
measure "inspect: $cycles cycles, snapshot" fresh inspect
measure "inspect: $cycles cycles, no snapshot" whole_no_snapshot inspect
measure "inspect: 2 cycles + base, snapshot" retained inspect
measure "inspect: 2 cycles + base, no snapshot" retained_no_snapshot inspect
measure "replay last 1,000: $cycles cycles, snapshot" fresh replay
measure "replay last 1,000: $cycles cycles, no snapshot" whole_no_snapshot replay
measure "replay last 1,000: 2 cycles + base, snapshot" retained replay
measure "replay last 1,000: 2 cycles + base, no snapshot" retained_no_snapshot replay
rm -rf "$work/run" "$work/archive"
