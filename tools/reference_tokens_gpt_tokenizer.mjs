#!/usr/bin/env node
// Cross-check of tools/reference_tokens.py using npm `gpt-tokenizer` (ranks embedded, offline).
//
// Usage:
//   node tools/reference_tokens_gpt_tokenizer.mjs --strings FILE.json   # JSON array of strings
//   node tools/reference_tokens_gpt_tokenizer.mjs FILE...               # whole files, UTF-8
//
// Output is the same JSON (same key order, same formatting) as reference_tokens.py, so the two
// can be compared byte-for-byte with `diff`. Special-token text ("<|endoftext|>") is counted as
// ordinary text, like tiktoken's encode_ordinary.
import { readFileSync } from 'node:fs';
import * as o200k from 'gpt-tokenizer/encoding/o200k_base';
import * as cl100k from 'gpt-tokenizer/encoding/cl100k_base';

const ENCODINGS = { o200k_base: o200k, cl100k_base: cl100k };
// Nothing allowed, nothing disallowed => special-token strings are plain text.
const ORDINARY = { allowedSpecial: new Set(), disallowedSpecial: new Set() };

function die(msg) {
  process.stderr.write(`reference_tokens_gpt_tokenizer.mjs: ERROR: ${msg}\n`);
  process.exit(2);
}

function checkText(text, what) {
  if (typeof text !== 'string') die(`${what}: expected a string, got ${typeof text}`);
  if (!text.isWellFormed()) die(`${what}: not valid Unicode (lone surrogate?)`);
  return text;
}

function counts(text) {
  const out = {};
  for (const [name, enc] of Object.entries(ENCODINGS)) out[name] = enc.encode(text, ORDINARY).length;
  return out;
}

function decodeUtf8(bytes, what) {
  try {
    // fatal: strict like Python's bytes.decode('utf-8'); ignoreBOM: keep a BOM as U+FEFF.
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch (e) {
    die(`${what}: not valid UTF-8: ${e.message}`);
  }
}

const args = process.argv.slice(2);
const out = [];
if (args[0] === '--strings') {
  if (args.length !== 2) die('usage: --strings FILE.json');
  const items = JSON.parse(decodeUtf8(readFileSync(args[1]), args[1]));
  if (!Array.isArray(items)) die(`${args[1]}: expected a JSON array of strings`);
  items.forEach((text, i) => out.push({ text: checkText(text, `${args[1]}[${i}]`), ...counts(text) }));
} else if (args.length > 0 && !args.some((a) => a.startsWith('--'))) {
  for (const path of args) out.push({ file: path, ...counts(decodeUtf8(readFileSync(path), path)) });
} else {
  die('usage: reference_tokens_gpt_tokenizer.mjs (--strings FILE.json | FILE...)');
}
process.stdout.write(JSON.stringify(out, null, 2) + '\n');
