#!/usr/bin/env python3
"""Python tiktoken's counting speed on one file, the peer `bench perf tokens --python` runs.

Usage: python3 tools/perf_tokens.py FILE [--repeat N]
Prints JSON: {"o200k_base": {"tokens": N, "seconds": S, "bytes": B}, "cl100k_base": {...}} where S
is the best of N timed `encode_ordinary` calls (one core, as tiktoken counts one text).
Offline: the BPE files come from reference_tokens.py's verified cache.
"""

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference_tokens  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with open(args.file, "rb") as f:
        data = f.read()
    text = data.decode("utf-8")
    out = {}
    for name, enc in reference_tokens.load_encodings().items():
        best, tokens = float("inf"), 0
        for _ in range(max(1, args.repeat)):
            t0 = time.perf_counter()
            tokens = len(enc.encode_ordinary(text))
            best = min(best, time.perf_counter() - t0)
        out[name] = {"tokens": tokens, "seconds": best, "bytes": len(data)}
    sys.stdout.write(json.dumps(out) + "\n")


if __name__ == "__main__":
    main()
