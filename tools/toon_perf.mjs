#!/usr/bin/env node
// Reference TOON encoder performance (@toon-format/toon 2.1.0).
//
// Usage: node tools/toon_perf.mjs IN.json
// Reads and parses IN.json (not timed), encodes it once with default options (keyFolding 'off'),
// and prints JSON: {"encode_ms": <wall time of encode() only>, "output_bytes": <UTF-8 bytes of
// the TOON output>, "peak_rss_mb": <process peak RSS, process.resourceUsage().maxRSS / 1024>}.
// Note peak RSS covers the whole process (node itself, the input text and the parsed value too).
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { encode } from '@toon-format/toon';

const args = process.argv.slice(2);
if (args.length !== 1) {
  process.stderr.write('usage: node tools/toon_perf.mjs IN.json\n');
  process.exit(2);
}
const value = JSON.parse(readFileSync(args[0], 'utf8'));

const t0 = performance.now();
const toon = encode(value);
const t1 = performance.now();

const result = {
  encode_ms: Math.round((t1 - t0) * 1000) / 1000,
  output_bytes: Buffer.byteLength(toon, 'utf8'),
  peak_rss_mb: Math.round((process.resourceUsage().maxRSS / 1024) * 10) / 10, // maxRSS is in KiB
};
process.stdout.write(JSON.stringify(result) + '\n');
