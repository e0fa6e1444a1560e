#!/usr/bin/env bash
# Write one upgrade fixture set with the code of this tree: cli/src/test/fixtures/SET/ (see its README.md).
# SET is the date of the format change it records, e.g. 2026-12-02 (a second set of one day takes a suffix:
# 2026-12-02-columns); an existing set is refused, never rewritten. CASE... writes only those cases (default: all).
# Runs FixtureSetWriter (a test-scope program in cli) through Maven; needs the test PostgreSQL server
# (scripts/test-postgres.sh) for the delivery case. Takes a few minutes: each pipeline is brought mid-way by a
# following weir run in its own JVM.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ $# -lt 1 ] || [[ ! "$1" =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}[a-z0-9-]*$ ]]; then
  echo "usage: scripts/write-fixtures.sh SET [CASE...]   (SET: YYYY-MM-DD of the format change, e.g. 2026-12-02)" >&2
  exit 2
fi
if [ -e "$here/cli/src/test/fixtures/$1" ]; then
  echo "write-fixtures: cli/src/test/fixtures/$1 exists: old sets are never rewritten; name a new one" >&2
  exit 2
fi
mvn_cmd=mvn
command -v mvn >/dev/null 2>&1 || mvn_cmd="$here/mvnw"
cd "$here"
WEIR_WRITE_FIXTURES="$1" WEIR_WRITE_FIXTURE_CASES="${*:2}" WEIR_REQUIRE_POSTGRES=1 "$mvn_cmd" -B -pl cli -am test -Dtest=FixtureSetWriter \
  -Dsurefire.failIfNoSpecifiedTests=false
