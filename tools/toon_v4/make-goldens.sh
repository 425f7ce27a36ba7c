#!/bin/sh
# Regenerates out/*.v4.toon from the json_compact datasets under /tmp/gen31 and /tmp/gen100.
# Prerequisite (debug binary of /work/main):
#   bench generate --output /tmp/gen31  --formats json_compact --records 31  --seed 42
#   bench generate --output /tmp/gen100 --formats json_compact --records 100 --seed 7
set -eu
cd "$(dirname "$0")"
mkdir -p out
set --
for spec in 31:42:/tmp/gen31 100:7:/tmp/gen100; do
  n=${spec%%:*}; rest=${spec#*:}; seed=${rest%%:*}; dir=${rest#*:}
  for structure in flat nested; do
    for variant in mandatory optional; do
      set -- "$@" "$dir/data/json_compact/json_compact_with_${variant}_${n}_${structure}_records.json" \
        "out/${structure}_${variant}_${n}_seed${seed}.v4.toon"
    done
  done
done
node encode-golden.mjs "$@"
