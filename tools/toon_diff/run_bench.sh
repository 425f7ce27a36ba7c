#!/usr/bin/env sh
# Encoder speed/memory versus the reference on 100,000 nested records.
#   ./run_bench.sh [records=100000] [runs=3]
set -eu
cd "$(dirname "$0")"
[ -d node_modules/@toon-format/toon ] || (npm install --no-audit --no-fund)
data=bench-data.json
node bench.mjs gen "${1:-100000}" "$data"
node bench.mjs time "$data" "${2:-3}"
cargo run --release -q --bin toon_bench -- "$data" "${2:-3}"
