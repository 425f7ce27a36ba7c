// Times @toon-format/toon 4.4.0 encode on a JSON file (best of N) and writes FILE.ref-v4.toon.
import { readFileSync, writeFileSync } from 'node:fs';
import { encode } from '@toon-format/toon';
const [path, runsArg] = process.argv.slice(2);
const runs = Number(runsArg ?? 3);
const t0 = performance.now();
const data = JSON.parse(readFileSync(path, 'utf8'));
const parseMs = performance.now() - t0;
let best = Infinity, out = '';
for (let i = 0; i < runs; i++) {
  const t = performance.now();
  out = encode(data);
  best = Math.min(best, performance.now() - t);
}
writeFileSync(path + '.ref-v4.toon', out);
const rss = process.resourceUsage().maxRSS / 1024;
console.log(`node @toon-format/toon 4.4.0: parse ${parseMs.toFixed(0)} ms, encode best ${best.toFixed(0)} ms of ${runs}, ${(out.length / 1e6).toFixed(1)} MB out, peak RSS ${rss.toFixed(0)} MB`);
