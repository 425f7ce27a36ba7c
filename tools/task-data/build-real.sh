#!/usr/bin/env bash
# Rebuild benchmarks/tasks/real/*.json and benchmarks/tasks/real/PROVENANCE.md (trim.py), and the
# example inputs benchmarks/examples/{earthquakes.json,airports.csv,PROVENANCE.md} (examples.py), from
# the pinned npm package vega-datasets, byte-identically. Run from the repo root:
#   bash tools/task-data/build-real.sh
# Needs: npm (registry access), tar, python3 (standard library only). Writes nothing else.
set -euo pipefail

PKG=vega-datasets
VERSION=3.2.1
# sha256 of https://registry.npmjs.org/vega-datasets/-/vega-datasets-3.2.1.tgz
# (npm dist.shasum 0357a23aa33e9e2cfba939c9efddbb757bf61888)
TARBALL_SHA256=6f72fda460a9863fae5fcb32f85bcd49e1761fdea6dc6cf9f4962472881cc5a3

if [ ! -f tools/task-data/trim.py ] || [ ! -f tools/task-data/examples.py ] || [ ! -d benchmarks ]; then
  echo "build-real.sh: run from the repository root" >&2
  exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/build-real.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

npm pack --silent --pack-destination "$tmp" "$PKG@$VERSION" >/dev/null
tarball="$tmp/$PKG-$VERSION.tgz"
got=$(python3 -c 'import hashlib,sys; print(hashlib.sha256(open(sys.argv[1],"rb").read()).hexdigest())' "$tarball")
if [ "$got" != "$TARBALL_SHA256" ]; then
  echo "build-real.sh: sha256 mismatch for $tarball: got $got, want $TARBALL_SHA256" >&2
  exit 1
fi

mkdir "$tmp/x"
tar -xzf "$tarball" -C "$tmp/x"
python3 -B tools/task-data/trim.py "$tmp/x/package" benchmarks/tasks/real "$TARBALL_SHA256"
python3 -B tools/task-data/examples.py "$tmp/x/package" benchmarks/examples "$TARBALL_SHA256"

for f in benchmarks/tasks/real/*.json benchmarks/examples/earthquakes.json benchmarks/examples/airports.csv; do
  printf '%8d  %s\n' "$(wc -c <"$f")" "$f"
done
