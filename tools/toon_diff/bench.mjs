// Benchmark data generator + reference-encoder timing.
//
//   node bench.mjs gen  [records=100000] [out=bench-data.json]
//   node bench.mjs time [data=bench-data.json] [runs=3]
//
// `gen` writes {"products": [...]} of nested product records (a fold chain in
// each). `time` encodes it with @toon-format/toon (keyFolding off and safe),
// printing best wall time, peak RSS and the output size, and writes the
// outputs (normalized per normalize.mjs) next to the data file for byte
// comparison with the Rust encoder.
import { readFileSync, writeFileSync } from 'node:fs'
import { encode } from '@toon-format/toon'
import { normalize } from './normalize.mjs'

const [mode = 'time', a1, a2] = process.argv.slice(2)

let seed = 42
function rand() {
  seed = (seed + 0x6d2b79f5) >>> 0
  let t = seed
  t = Math.imul(t ^ (t >>> 15), t | 1)
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}
const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1))
const pick = (xs) => xs[Math.floor(rand() * xs.length)]

function record(i) {
  const r = {
    id: `PROD-${String(i + 1).padStart(6, '0')}`,
    name: `${pick(['Steel', 'Oak', 'Carbon', 'Nylon', 'Glass'])} ${pick(['Widget', 'Bracket', 'Valve', 'Panel'])} ${i % 97}`,
    category: pick(['Hardware', 'Electronics', 'Garden', 'Tools, Power', 'Office']),
    description: pick([
      'Durable, weather-resistant part for outdoor use',
      'Compact unit: fits standard mounts',
      'Replacement item - ships in 2 days',
      'High-precision component rated to 500 C',
    ]),
    pricing: { price: Math.round(rand() * 100000) / 100, currency: 'USD', tax: { rate: pick([0, 0.07, 0.19, 0.2]) } },
    inventory: { stock: { quantity: int(0, 5000) }, min_threshold: int(5, 50), max_threshold: int(100, 900) },
    supplier: {
      name: `Supplier ${int(1, 300)}`,
      contact: { email: `sales${int(1, 300)}@example.com`, phone: `+1-555-${String(int(0, 9999)).padStart(4, '0')}` },
      lead_time_days: int(1, 60),
    },
    timestamps: { created: '2024-01-15T10:30:00Z', updated: `2025-0${int(1, 9)}-1${int(0, 9)}T08:00:00Z` },
    tags: ['new', 'sale', 'eco', 'bulk'].slice(0, int(0, 4)),
    rating: rand() < 0.2 ? null : Math.round(rand() * 50) / 10,
  }
  return r
}

function peakRssMb() {
  return (process.resourceUsage().maxRSS / 1024).toFixed(1)
}

if (mode === 'gen') {
  const n = Number(a1 ?? 100000)
  const out = a2 ?? 'bench-data.json'
  writeFileSync(out, JSON.stringify({ products: Array.from({ length: n }, (_, i) => record(i)) }))
  console.log(`wrote ${n} records to ${out}`)
} else {
  const path = a1 ?? 'bench-data.json'
  const runs = Number(a2 ?? 3)
  const data = JSON.parse(readFileSync(path, 'utf8'))
  const rssLoaded = peakRssMb()
  for (const [label, opts] of [['off', {}], ['safe', { keyFolding: 'safe' }]]) {
    let best = Infinity
    let text = ''
    for (let r = 0; r < runs; r++) {
      const t0 = process.hrtime.bigint()
      text = encode(data, opts)
      best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e6)
    }
    // Compare against the spec-v3.3.2 form (see normalize.mjs), like the differential test.
    const notes = new Set()
    writeFileSync(`${path}.ref-${label}.toon`, normalize(text, notes))
    console.log(`reference encode ${label}: best ${best.toFixed(0)} ms of ${runs}, ${(Buffer.byteLength(text) / 1e6).toFixed(1)} MB output; normalized: ${[...notes].join(', ') || 'nothing'}`)
  }
  console.log(`reference peak RSS: ${rssLoaded} MB after load, ${peakRssMb()} MB after encoding`)
}
