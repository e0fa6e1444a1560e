#!/usr/bin/env bash
# Whole-process A/B of the output-heavy jobs of issue 18: `weir replay` tumbling 1 s and 60 s of a journal,
# and the export after a resume (a `weir run` with nothing left to process), each with two CLI jars, runs
# alternating, RUNS times (default 3). Prints one line per run: job, jar, wall s, user s, sys s, max RSS.
#
# Usage: benchmarks/output-ab.sh BEFORE.jar AFTER.jar JOURNAL RUN_JOURNAL [RUNS]
#   JOURNAL      an ingested journal (10 M events, 10 k keys, 10 k events per second of event time give
#                6.3 M results at tumbling 1 s), only read.
#   RUN_JOURNAL  a copy of it on which `weir run --window tumbling:1s --out-of-orderness 1s` has completed
#                once (its output journal holds the 6.3 M results); each run here only exports them.
# The JVM flags come from cli/target/weir.jvmopts. Outputs go to a temporary directory, compared across jars.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
before="$1"; after="$2"; journal="$3"; run_journal="$4"; runs="${5:-3}"
opts="$(cat "$here/cli/target/weir.jvmopts")"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
job() # name jar args...
{
  local name="$1" tag="$2" jar="$3"; shift 3
  # shellcheck disable=SC2086
  /usr/bin/time -f "$name $tag %e s wall %U s user %S s sys %M KB" java $opts ${WEIR_JAVA_OPTS:-} -jar "$jar" "$@" 2>&1 >/dev/null | tail -1
}
for i in $(seq "$runs"); do
  for tag in before after; do
    jar="$before"; [ "$tag" = after ] && jar="$after"
    job replay-1s "$tag" "$jar" replay --journal "$journal" --window tumbling:1s --out-of-orderness 1s --results "$out/r1-$tag.csv"
    job replay-60s "$tag" "$jar" replay --journal "$journal" --window tumbling:60s --out-of-orderness 1s --results "$out/r60-$tag.csv"
    job export "$tag" "$jar" run --journal "$run_journal" --window tumbling:1s --out-of-orderness 1s --results "$out/e-$tag.csv"
  done
done
for f in r1 r60 e; do
  cmp -s "$out/$f-before.csv" "$out/$f-after.csv" && echo "$f: same bytes ($(wc -l < "$out/$f-after.csv") lines)" || echo "$f: FILES DIFFER"
done
