#!/usr/bin/env bash
# An A/B of the figures a restructure must not regress, in one session: the benchmarks jar of an earlier
# commit (A) against this tree's (B), interleaved round by round (A, B, A, B, ...) so that a slow stretch
# of this virtual machine hits both alike. Each round is one JMH fork per figure; the table printed at the
# end gives, per figure, the mean of the rounds' scores and their range, and B/A.
#   benchmarks/run-ab.sh BASE_JAR [ROUNDS]   (build BASE_JAR with mvn -DskipTests install at the old commit)
# About 8 minutes a round on 2 cores; run it with nothing else busy.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
base_jar=$(realpath "$1")
rounds=${2:-3}
cd "$here"
mvn -B -q -DskipTests install -pl benchmarks -am
new_jar=benchmarks/target/benchmarks.jar
out=benchmarks/results/ab
rm -rf "$out"
mkdir -p "$out"
figures=(
  "end-to-end|EndToEndBenchmark -p window=tumbling,sliding,session -p layout=FUSED -p output=journal,listener -wi 2 -i 5 -w 2 -r 2"
  "journal|JournalScanBenchmark|JournalAppendBenchmark -wi 3 -i 5 -w 1 -r 1 -prof gc"
  "stages|StageBenchmark -wi 3 -i 5 -w 1 -r 1 -prof gc"
)
for round in $(seq 1 "$rounds"); do
  for side in A B; do
    jar=$([ "$side" = A ] && echo "$base_jar" || echo "$new_jar")
    for figure in "${figures[@]}"; do
      name=${figure%%|*}
      args=${figure#*|}
      pattern=${args%% -*}
      rest=${args#"$pattern"}
      echo "== round $round $side $name" >&2
      # shellcheck disable=SC2086
      java -jar "$jar" "$pattern" -f 1 $rest -rf json -rff "$out/$side-$name-$round.json" > "$out/$side-$name-$round.txt"
    done
  done
done
python3 benchmarks/ab-table.py "$out" | tee "$out/table.md"
