#!/usr/bin/env node
// TOON golden files from the reference encoder (@toon-format/toon 2.1.0).
//
// Usage: node tools/toon_golden.mjs IN.json OUTDIR NAME
// Writes OUTDIR/NAME.default.toon  (encode(value), default options, keyFolding 'off')
//        OUTDIR/NAME.keyfold.toon  (encode(value, { keyFolding: 'safe' }))
// Each file holds exactly the encoder's output string as UTF-8; no trailing newline is added.
//
// Caveat: the input goes through JSON.parse, i.e. JavaScript semantics: integer-like object keys
// ("0", "42") are enumerated before other keys regardless of source order, numbers are IEEE-754
// doubles (integers beyond 2^53 lose precision), duplicate keys keep the last value. A warning
// is printed to stderr when the input could be affected.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encode } from '@toon-format/toon';

function die(msg) {
  process.stderr.write(`toon_golden.mjs: ERROR: ${msg}\n`);
  process.exit(2);
}

const args = process.argv.slice(2);
if (args.length !== 3) die('usage: node tools/toon_golden.mjs IN.json OUTDIR NAME');
const [inPath, outDir, name] = args;

let text;
try {
  text = new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(inPath));
} catch (e) {
  die(`${inPath}: ${e.message}`);
}
let value;
try {
  value = JSON.parse(text);
} catch (e) {
  die(`${inPath}: invalid JSON: ${e.message}`);
}

const warnings = new Set();
(function scan(v, path) {
  if (typeof v === 'number' && Number.isInteger(v) && !Number.isSafeInteger(v)) {
    warnings.add(`integer beyond 2^53 at ${path} (precision may be lost by JSON.parse)`);
  } else if (Array.isArray(v)) {
    v.forEach((x, i) => scan(x, `${path}[${i}]`));
  } else if (v !== null && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (/^(0|[1-9][0-9]*)$/.test(k) && Number(k) < 2 ** 32 - 1) {
        warnings.add(`integer-like key "${k}" at ${path}: JS orders such keys first, key order may differ from the source`);
      }
      scan(x, `${path}.${k}`);
    }
  }
})(value, '$');
for (const w of warnings) process.stderr.write(`toon_golden.mjs: WARNING: ${w}\n`);

mkdirSync(outDir, { recursive: true });
const outputs = {
  default: encode(value),
  keyfold: encode(value, { keyFolding: 'safe' }),
};
for (const [variant, toon] of Object.entries(outputs)) {
  const path = join(outDir, `${name}.${variant}.toon`);
  writeFileSync(path, toon, 'utf8');
  process.stderr.write(`wrote ${path} (${Buffer.byteLength(toon, 'utf8')} bytes)\n`);
}
