#!/usr/bin/env bash
# Foreign-data check: every data file of the npm package vega-datasets 3.2.1 (public tables nobody
# on this team wrote) through `bench run --data FILE --records 300 --sample random --runs 1
# --formats all` with the offline reference answerer, one line per file: 100 % on every format
# that can hold the records, or the one-line reason bench refused the file or a format.
#
#   bash tools/foreign-data.sh              # every .json, .jsonl, .csv, .tsv and .parquet file
#   bash tools/foreign-data.sh airports.csv # only the files named
#
# Needs npm (registry access) the first time: the tarball is fetched once, checked by sha256 and
# unpacked under BENCH_FOREIGN_CACHE (default ~/.cache/bench/foreign). BENCH names a bench binary
# (default: cargo build into CARGO_TARGET_DIR, default ~/.cache/bench/target, as .ci/run does).
# Exit status: 0 when every file passed at 100 % or was refused, 1 when any rendering scored
# below 100 % or bench failed in another way (the lines marked FAIL).
set -euo pipefail

PKG=vega-datasets
VERSION=3.2.1
# sha256 of the registry tarball (the same pin as tools/task-data/build-real.sh).
TARBALL_SHA256=6f72fda460a9863fae5fcb32f85bcd49e1761fdea6dc6cf9f4962472881cc5a3
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CACHE="${BENCH_FOREIGN_CACHE:-$HOME/.cache/bench/foreign}"
PKG_DIR="$CACHE/$PKG-$VERSION"

if [ ! -d "$PKG_DIR/package/data" ]; then
  mkdir -p "$PKG_DIR"
  npm pack --silent --pack-destination "$PKG_DIR" "$PKG@$VERSION" >/dev/null
  tarball="$PKG_DIR/$PKG-$VERSION.tgz"
  got=$(sha256sum "$tarball" | cut -d' ' -f1)
  if [ "$got" != "$TARBALL_SHA256" ]; then
    echo "foreign-data: sha256 of $tarball is $got, not $TARBALL_SHA256" >&2
    exit 1
  fi
  tar -xzf "$tarball" -C "$PKG_DIR"
fi
DATA="$PKG_DIR/package/data"

if [ -z "${BENCH:-}" ]; then
  export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/bench/target}"
  (cd "$ROOT" && cargo build --quiet)
  BENCH="$CARGO_TARGET_DIR/debug/bench"
fi

if [ $# -gt 0 ]; then
  files=("$@")
else
  mapfile -t files < <(cd "$DATA" && ls | grep -E '\.(json|jsonl|csv|tsv|parquet)$' | sort)
  # Nothing is left out silently: name the package's other files and why they are not run.
  others=$(cd "$DATA" && ls | grep -vE '\.(json|jsonl|csv|tsv|parquet)$' | paste -sd' ' - || true)
  [ -z "$others" ] || echo "not run (not a format bench reads: json, jsonl, csv, tsv, parquet): $others"
fi

OUT=$(mktemp -d "${TMPDIR:-/tmp}/foreign-data.XXXXXX")
trap 'rm -rf "$OUT"' EXIT
full=0 refused=0 failed=0
printf '%-34s %s\n' "file ($PKG $VERSION)" "result (reference answerer, 300 random records, every format)"
for f in "${files[@]}"; do
  root="$OUT/${f//\//_}"
  log="$root.log"
  if ! "$BENCH" run --data "$DATA/$f" --records 300 --sample random --runs 1 --formats all \
      --no-report --output-root "$root" </dev/null >"$log" 2>&1; then
    reason=$(grep -E '^(error|bench)' "$log" | tail -1)
    [ -n "$reason" ] || reason=$(tail -1 "$log")
    if grep -q 'panicked' "$log"; then
      printf '%-34s FAIL (panic): %s\n' "$f" "$reason"
      failed=$((failed + 1))
    else
      printf '%-34s refused: %s\n' "$f" "${reason#error: }"
      refused=$((refused + 1))
    fi
    continue
  fi
  # One row per format: the pass rate of its one call, as the run log has it.
  scores=$("$BENCH" query --root "$root" --format csv -e \
    "SELECT format, round(100 * avg(pass_rate), 1) AS pct, count(*) FILTER (WHERE error IS NOT NULL) AS errors
     FROM results GROUP BY format ORDER BY format" | tail -n +2)
  n=$(printf '%s\n' "$scores" | grep -c . || true)
  below=$(printf '%s\n' "$scores" | awk -F, '$2 != 100 || $3 != 0 {printf "%s%s %s%%", sep, $1, $2; sep=", "}')
  skips=$(grep -oE '^skipped .* in [a-z_0-9]+' "$log" | sed -E 's/.* in //' | paste -sd, - || true)
  # Every skipped format's reason; csv's and markdown_table's are the same, so one of the two.
  why=$(grep -E '^skipped ' "$log" | grep -v ' in markdown_table: ' | sed -E 's/^skipped [^:]*: //' \
    | awk 'BEGIN {ORS=""} {print sep $0; sep="; "}' || true)
  id=$(grep -oE 'records identified by [^;]*' "$log" | head -1 || true)
  line="100 % on $n formats"
  [ -n "$skips" ] && line="$line; skipped $skips (${why})"
  [ -n "$id" ] && line="$line; $id"
  if [ -n "$below" ] || [ "$n" -eq 0 ]; then
    printf '%-34s FAIL: below 100 %%: %s\n' "$f" "${below:-no result}"
    failed=$((failed + 1))
  else
    printf '%-34s %s\n' "$f" "$line"
    full=$((full + 1))
  fi
done
echo "foreign-data: ${#files[@]} files: $full at 100 %, $refused refused, $failed failed"
[ "$failed" -eq 0 ]
