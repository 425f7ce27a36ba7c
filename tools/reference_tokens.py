#!/usr/bin/env python3
"""Reference token counts from python `tiktoken`, fully offline.

Usage:
    python3 tools/reference_tokens.py --strings FILE.json   # JSON array of strings
    python3 tools/reference_tokens.py FILE...               # whole files, read as UTF-8

Prints JSON to stdout:
    --strings:  [{"text": ..., "o200k_base": N, "cl100k_base": N}, ...]
    files:      [{"file": ..., "o200k_base": N, "cl100k_base": N}, ...]

Counts use `encode_ordinary` (special-token text such as "<|endoftext|>" is
counted as ordinary text), matching `tiktoken-rs` `encode_ordinary` in bench.

No network: the BPE rank files are the exact files shipped inside the
`tiktoken-rs` crate (found in the cargo registry, version taken from
Cargo.lock). They are copied into a private TIKTOKEN_CACHE_DIR under the name
tiktoken expects (sha1 hex of the download URL) and checked against the sha256
that the installed tiktoken expects. Any attempt by tiktoken to fetch a URL
raises instead of downloading.

Environment overrides:
    BENCH_TIKTOKEN_RS_ASSETS  directory holding o200k_base.tiktoken / cl100k_base.tiktoken
    BENCH_TIKTOKEN_CACHE      cache dir to use (default ~/.cache/bench/tiktoken)
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import importlib.util
import json
import os
import re
import shutil
import sys
import tempfile

ENCODINGS = {
    "o200k_base": "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken",
    "cl100k_base": "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken",
}

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def die(msg: str) -> "NoReturn":  # noqa: F821
    sys.stderr.write(f"reference_tokens.py: ERROR: {msg}\n")
    sys.exit(2)


def sha256_file(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def locked_tiktoken_rs_version() -> str | None:
    lock = os.path.join(REPO_ROOT, "Cargo.lock")
    try:
        text = open(lock, encoding="utf-8").read()
    except OSError:
        return None
    m = re.search(r'name = "tiktoken-rs"\nversion = "([^"]+)"', text)
    return m.group(1) if m else None


def find_assets_dir() -> str:
    override = os.environ.get("BENCH_TIKTOKEN_RS_ASSETS")
    if override:
        return override
    cargo_home = os.environ.get("CARGO_HOME", os.path.expanduser("~/.cargo"))
    version = locked_tiktoken_rs_version()
    pattern = f"tiktoken-rs-{version}" if version else "tiktoken-rs-0.12.*"
    candidates = glob.glob(os.path.join(cargo_home, "registry", "src", "*", pattern, "assets"))
    if not candidates:
        die(
            f"no {pattern}/assets under {cargo_home}/registry/src; run `cargo fetch` in "
            f"{REPO_ROOT} (or set BENCH_TIKTOKEN_RS_ASSETS)"
        )

    def key(p: str):
        v = os.path.basename(os.path.dirname(p))[len("tiktoken-rs-"):]
        return [int(x) if x.isdigit() else x for x in re.split(r"[.\-+]", v)]

    return sorted(candidates, key=key)[-1]


def expected_hashes_from_installed_tiktoken() -> dict[str, str]:
    """Read URL + expected_hash per encoding from the installed tiktoken_ext/openai_public.py
    (read as text, without importing tiktoken yet)."""
    spec = importlib.util.find_spec("tiktoken_ext.openai_public")
    if spec is None or spec.origin is None:
        die("python tiktoken is not installed: pip install -r tools/requirements.txt")
    src = open(spec.origin, encoding="utf-8").read()
    out = {}
    for name, url in ENCODINGS.items():
        m = re.search(
            r"def " + name + r"\(\).*?load_tiktoken_bpe\(\s*\"([^\"]+)\",\s*expected_hash=\"([0-9a-f]{64})\"",
            src,
            re.S,
        )
        if not m:
            die(f"could not find URL/expected_hash for {name} in {spec.origin}")
        if m.group(1) != url:
            die(f"{name}: installed tiktoken uses URL {m.group(1)!r}, this script assumes {url!r}")
        out[name] = m.group(2)
    return out


def build_cache_dir() -> str:
    assets = find_assets_dir()
    expected = expected_hashes_from_installed_tiktoken()
    cache_dir = os.environ.get("BENCH_TIKTOKEN_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "bench", "tiktoken"
    )
    os.makedirs(cache_dir, exist_ok=True)
    for name, url in ENCODINGS.items():
        src = os.path.join(assets, f"{name}.tiktoken")
        if not os.path.isfile(src):
            die(f"missing {src}")
        actual = sha256_file(src)
        if actual != expected[name]:
            die(
                "\n" + "!" * 72 + "\n"
                f"HASH MISMATCH for {name}: tiktoken-rs asset {src}\n"
                f"  sha256 {actual}\n"
                f"  but installed python tiktoken expects {expected[name]}\n"
                "The rank files differ; reference counts would NOT be comparable.\n" + "!" * 72
            )
        dst = os.path.join(cache_dir, hashlib.sha1(url.encode()).hexdigest())
        if not (os.path.isfile(dst) and sha256_file(dst) == actual):
            fd, tmp = tempfile.mkstemp(dir=cache_dir, suffix=".tmp")
            os.close(fd)
            shutil.copyfile(src, tmp)
            os.replace(tmp, dst)
    return cache_dir


def load_encodings():
    os.environ["TIKTOKEN_CACHE_DIR"] = build_cache_dir()
    import tiktoken
    import tiktoken.load

    def no_network(blobpath: str) -> bytes:
        raise RuntimeError(
            f"refusing to fetch {blobpath}: reference_tokens.py must run offline "
            f"(cache dir {os.environ['TIKTOKEN_CACHE_DIR']} incomplete or stale?)"
        )

    # read_file is only reached on a cache miss / hash mismatch; never download.
    tiktoken.load.read_file = no_network
    return {name: tiktoken.get_encoding(name) for name in ENCODINGS}


def check_text(text: str, what: str) -> str:
    if not isinstance(text, str):
        die(f"{what}: expected a string, got {type(text).__name__}")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        die(f"{what}: not valid Unicode (lone surrogate?): {e}")
    return text


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--strings", metavar="FILE.json", help="JSON array of strings to count")
    ap.add_argument("files", nargs="*", help="files to count (whole content, UTF-8)")
    args = ap.parse_args()
    if bool(args.strings) == bool(args.files):
        ap.error("give either --strings FILE.json or one or more FILEs")

    encs = load_encodings()

    def counts(text: str) -> dict[str, int]:
        return {name: len(enc.encode_ordinary(text)) for name, enc in encs.items()}

    out = []
    if args.strings:
        with open(args.strings, "rb") as f:
            items = json.loads(f.read().decode("utf-8"))
        if not isinstance(items, list):
            die(f"{args.strings}: expected a JSON array of strings")
        for i, text in enumerate(items):
            out.append({"text": check_text(text, f"{args.strings}[{i}]"), **counts(text)})
    else:
        for path in args.files:
            with open(path, "rb") as f:
                data = f.read()
            try:
                text = data.decode("utf-8")  # strict; a BOM is kept as U+FEFF
            except UnicodeDecodeError as e:
                die(f"{path}: not valid UTF-8: {e}")
            out.append({"file": path, **counts(text)})

    sys.stdout.write(json.dumps(out, ensure_ascii=False, indent=2) + "\n")


if __name__ == "__main__":
    main()
