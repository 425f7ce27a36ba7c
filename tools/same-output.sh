#!/usr/bin/env bash
# Runs the commands a user types with two bench binaries, each in an empty folder, and diffs
# everything they print and write, with what differs by nature (timestamps, run ids, run folder
# names, durations) masked, lines compared as sorted sets (calls run in parallel, so progress
# and log lines come in the order calls finish): the check that a restructuring (issue 52)
# changed no output. Ranks are masked too: before the SQL ranked on values rounded to 9 places
# (e65192b), a tie between formats was broken by the last bits of a parallel average.
#   usage: tools/same-output.sh OLD_BENCH NEW_BENCH [WORKDIR]
# Prints one line per command compared and exits 1 when any output differs (the diff follows).
set -uo pipefail
old=$(realpath "$1") new=$(realpath "$2")
repo=$(cd "$(dirname "$0")/.." && pwd)
work=${3:-$(mktemp -d)}
mkdir -p "$work/old" "$work/new"

# The commands, run in the current folder with bench as $B; each writes NAME.out.
session() {
    B=$1
    $B run --seed 7 >run.out 2>&1
    $B report >report.out 2>&1
    $B query "$repo/sql/rankings.sql" --format csv >rankings.out 2>&1
    $B run --seed 7 --runs 1 --formats json,csv,toon >run2.out 2>&1
    $B compare latest~1 latest >compare.out 2>&1
    $B run --suite tasks --seed 7 >tasks.out 2>&1
    $B report >tasks_report.out 2>&1
    $B run --suite write --seed 7 >write.out 2>&1
    $B report >write_report.out 2>&1
    $B run --suite corrupted --seed 7 >corrupted.out 2>&1
    $B report >corrupted_report.out 2>&1
    $B run --data "$repo/benchmarks/examples/airports.csv" --records 40 --seed 7 >data.out 2>&1
    $B report >data_report.out 2>&1
    $B import "$repo/benchmarks/published/tealeaf/2026-02-14-01" --from tealeaf >import.out 2>&1
    $B report >import_report.out 2>&1
    $B tokens --data "$repo/benchmarks/examples/airports.csv" --records 40 >tokens.out 2>&1
    $B formats >formats.out 2>&1
    $B run --provider nosuch:model >typo.out 2>&1
    $B run --provider openai-compatible:m --base-url http://127.0.0.1:9 >dead.out 2>&1
    $B run --seed 7 --dry-run --provider openai:gpt-5-mini --provider anthropic:claude-sonnet-4-5 \
        --provider gemini:gemini-2.5-flash >dry.out 2>&1
    view_pages "$B"
}

# bench view's pages: the run list, every page it links to, and the first answer page each
# answers page links to (numbered in link order: the run folders' names differ by side).
view_pages() {
    local port=$((20000 + RANDOM % 20000)) i=0
    $1 view --port $port >view.log 2>&1 &
    local pid=$!
    for _ in $(seq 1 300); do curl -sf "http://127.0.0.1:$port/" >/dev/null && break; sleep 1; done
    curl -s "http://127.0.0.1:$port/" >view_index.out
    for p in $(grep -o 'href="/[^"]*"' view_index.out | cut -d'"' -f2 | sed 's/&amp;/\&/g' | sort -u); do
        i=$((i + 1))
        curl -s "http://127.0.0.1:$port$p" >"view_$i.out"
        a=$(grep -o 'href="/answer?[^"]*"' "view_$i.out" | head -1 | cut -d'"' -f2)
        [ -n "$a" ] && curl -s "http://127.0.0.1:$port${a//&amp;/&}" >"view_${i}_answer.out"
    done
    kill $pid 2>/dev/null; wait $pid 2>/dev/null
}

# What differs by nature: times, ids, folder names, durations, ports.
mask() {
    sed -E -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}[T_ ][0-9]{2}[:-][0-9]{2}[:-][0-9]{2}(\.[0-9]+)?(Z|[+-][0-9]{2}:?[0-9]{2})?/TIME/g' \
        -e 's/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/ID/g' \
        -e 's/bench_[0-9]{8}_[0-9]{6}_[0-9a-f]+/RUNID/g' \
        -e 's/"(duration_ms|start_time_ms|end_time_ms|provider_latency_ms|evaluation_time_ms|elapsed_ms|wall_ms|latency_ms|[a-z0-9_]*_seconds|[a-z0-9_]*latency[a-z0-9_]*|[a-z0-9_]*duration[a-z0-9_]*)": ?[0-9.e+-]+/"\1":N/g' \
        -e 's/([0-9]+\.[0-9]{8})[0-9]+/\1/g' \
        -e 's/^(\[[^]]* )[0-9]+\/([0-9]+)\]/\1N\/\2]/' -e 's/ \| in [0-9.kM]+ out [0-9.kM]+ \$[0-9.]+( errors [0-9]+)?$/ | in X out X/' -e 's/^(\[[^]]*\]) [A-Za-z0-9_:.-]+ error:/\1 TAG error:/' \
        -e 's/(\| \$[0-9.,]+ )\| (< )?[0-9.]+ \| [0-9.]+ \| [0-9.]+ \|$/\1| LATENCY |/' \
        -e 's#(<td class="n" data-v="[^"]*">[^<]*</td>){3}</tr>#LATENCY</tr>#g' \
        -e 's/"rank(_[a-z_]+)?": ?[0-9]+/"rank\1":R/g' -e 's/^(│[^┆]*┆[^┆]*┆[^┆]*┆[^┆]*┆) +[0-9]+ ┆/\1 R ┆/' \
        -e 's/[0-9]+(\.[0-9]+)? ?(ms|s)\b/Ns/g' -e 's/127\.0\.0\.1:[0-9]+/HOST/g' -e "s#$work/(old|new)#WORK#g"
}

main() {
for side in old new; do
    bin=$old; [ $side = new ] && bin=$new
    (cd "$work/$side" && session "$bin")
    # Run folders are named by their start time: number them in order instead.
    i=0
    for d in $(ls -d "$work/$side"/data/benchmarks/*/ 2>/dev/null | sort); do
        i=$((i + 1)); mv "$d" "$work/$side/data/benchmarks/run$i"
    done
done
compare
}

# Compares the two sides' files; status 1 when any differs.
compare() {
status=0
cd "$work"
files() { (cd "$1" && find . -type f ! -path '*/.bench-view/*' ! -name view.log | sort); }
if ! diff <(files old) <(files new); then echo "the two sides wrote different files"; status=1; fi
for rel in $(files old); do
    [ -e "new/$rel" ] || continue
    case "$rel" in
        *.png|*.parquet) cmp -s "old/$rel" "new/$rel" || { echo "differs: $rel"; status=1; } ;;
        *) if ! diff -q <(mask <"old/$rel" | sort) <(mask <"new/$rel" | sort) >/dev/null; then
               echo "differs: $rel"; diff <(mask <"old/$rel" | sort) <(mask <"new/$rel" | sort) | head -20; status=1
           fi ;;
    esac
done
echo "compared $(files old | wc -l) files of $work/old with $work/new: $([ $status = 0 ] && echo identical || echo DIFFERENT)"
return $status
}

if [ "${SAME_OUTPUT_COMPARE_ONLY:-}" = 1 ]; then compare; else main; fi
