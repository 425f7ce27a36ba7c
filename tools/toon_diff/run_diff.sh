#!/usr/bin/env sh
# Differential test against @toon-format/toon 2.1.0.
#   ./run_diff.sh [cases=600] [seeds="1 2 3"]
set -eu
cd "$(dirname "$0")"
[ -d node_modules/@toon-format/toon ] || (npm install --no-audit --no-fund)
cases=${1:-600}
for seed in ${2:-1 2 3}; do
  node gen_cases.mjs "$cases" "$seed" > cases.jsonl
  printf 'seed %s: ' "$seed"
  cargo run --release -q --bin toon_diff -- cases.jsonl | tail -n 1
done
