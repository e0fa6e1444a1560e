#!/usr/bin/env bash
# The adoption proof of docs/java-api.md's "Using Weir from Maven": builds and tests scripts/adopter, a service
# team's Maven project that depends on Weir only through the BOM, against the Weir artifacts installed in
# the local Maven repository (run after `mvn install` of Weir, as `./weir test` does). The project is
# copied out of the repository first, so no reactor, parent pom or relative path can help it: it sees what
# a user's build sees.
#
# Usage: scripts/test-adopter.sh [maven options]   (only -o/--offline, -q and -Dmaven.repo.local=... and
# -Drevision=... are passed on; the version defaults to the parent pom's <revision>)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mvn_cmd=mvn
command -v mvn >/dev/null 2>&1 || mvn_cmd="$here/mvnw"

version="$(sed -n 's:.*<revision>\(.*\)</revision>.*:\1:p' "$here/pom.xml" | head -n 1)"
opts=()
for arg in "$@"; do
  case "$arg" in
    -o|--offline|-q|-Dmaven.repo.local=*) opts+=("$arg") ;;
    -Drevision=*) version="${arg#-Drevision=}" ;;
  esac
done
[ -n "$version" ] || { echo "test-adopter: no <revision> in $here/pom.xml" >&2; exit 1; }

# The project takes each Weir module it names (weir-csv, weir-postgres, ...) from the installed BOM: an
# installation older than one of them is named here, not left to Maven's "version is missing". Checked only
# where the BOM is found (a settings.xml may keep the repository elsewhere; Maven reports that one).
repo="$HOME/.m2/repository"
for arg in "$@"; do
  case "$arg" in -Dmaven.repo.local=*) repo="${arg#-Dmaven.repo.local=}" ;; esac
done
bom="$repo/dev/weir/weir-bom/$version/weir-bom-$version.pom"
if [ -f "$bom" ]; then
  for artifact in $(sed -n 's:.*<artifactId>\(weir-[a-z-]*\)</artifactId>.*:\1:p' "$here/scripts/adopter/pom.xml"); do
    [ "$artifact" = weir-bom ] && continue
    missing=""
    grep -q "<artifactId>$artifact</artifactId>" "$bom" || missing="the installed weir-bom $version does not manage $artifact"
    [ -n "$missing" ] || [ -f "$repo/dev/weir/$artifact/$version/$artifact-$version.jar" ] || missing="$artifact $version is not installed"
    if [ -n "$missing" ]; then
      echo "test-adopter: $missing (in $repo): install Weir first (./weir test, or mvn install)" >&2
      exit 1
    fi
  done
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/weir-adopter.XXXXXX")"
trap 'rm -rf "$work"' EXIT
cp -r "$here/scripts/adopter/." "$work/"
echo "weir: building a service's project against the installed Weir $version, outside the repository ($work)" >&2
cd "$work"
"$mvn_cmd" -B ${opts[@]+"${opts[@]}"} -Dweir.version="$version" verify
