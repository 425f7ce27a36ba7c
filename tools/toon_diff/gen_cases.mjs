// Generates random JSON documents and the reference encoder's TOON output for
// them (keyFolding off and safe), one JSON case per line on stdout.
//
//   node gen_cases.mjs [count=600] [seed=1] > cases.jsonl
//
// Each line: {"id", "input" (JSON text, so -0 and exact number spelling
// survive), "off", "safe", "safe2" (flattenDepth 2), "pipe" (safe, "|"),
// "tab4" (tab delimiter, indent 4), "rawOff", "rawSafe", "normalized": [...]}.
// `off`/`safe` are the reference output after rewriting the known, documented
// differences between @toon-format/toon 2.1.0 and spec v3.3.2 (the fixtures):
//   - exponent numbers (1e+21, 1e-7) -> canonical plain decimal
//   - empty arrays `key[0]:` -> `key: []`, root `[0]:` -> `[]`
// `rawOff`/`rawSafe` are untouched, for decoding the reference's own output.
// Inputs avoid the remaining known differences: C0 control characters, empty
// keys on arrays, array-index keys ("0", "12": JS reorders them first) and
// integers beyond 2^53 (JS rounds them).
import { encode } from '@toon-format/toon'
import { normalize } from './normalize.mjs'

const count = Number(process.argv[2] ?? 600)
let seed = Number(process.argv[3] ?? 1) >>> 0

function rand() {
  // mulberry32
  seed = (seed + 0x6d2b79f5) >>> 0
  let t = seed
  t = Math.imul(t ^ (t >>> 15), t | 1)
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}
const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1))
const pick = (xs) => xs[Math.floor(rand() * xs.length)]
const chance = (p) => rand() < p

const STRINGS = [
  'hello', 'Ada', 'PROD-000001', 'SKU-42', 'a,b', 'a:b', 'say "hi"', ' lead', 'trail ', '  ', '',
  'true', 'false', 'null', 'True', 'NULL', '42', '-3.14', '1e-6', '1E5', '05', '007', '0', '-0', '1.0',
  '-', '- item', '-lead', '--', '[5]', '[]', '{key}', '{}', 'a|b', 'a\tb', 'tab\there', 'line\nbreak',
  'cr\rx', 'back\\slash', 'café', '你好', '🚀 launch', 'hello 👋 world', '\u00a0nbsp', 'nbsp\u00a0',
  '\ufeffbom', 'x\u2028y', '\u2028', '\u0085nel', 'nel\u0085', '\u007fdel', '0x1F', '+1', '.5', '1.',
  'Infinity', '-Infinity', 'NaN', '#hash', 'a=b', 'a b c', 'x.y', '2024-01-15T10:30:00Z',
  'https://example.com/a?b=c', 'C:\\Users\\path', "it's", 'a#b', 'é', 'multi word value', 'under_score',
  'ends with dash-', 'x-', 'a - b', 'key: value', 'null!', 'true story', '12 monkeys', '3rd',
]
const ALPHABET = 'abcdefgXYZ0123456789  _-.,:;|"\\[]{}#=/@!?\'éü你🚀\t\n'

const KEYS = [
  'id', 'name', 'a', 'b', 'c', 'd', 'user', 'data', 'meta', 'items', 'x_1', '_private', 'Value',
  'user.name', 'a.b', 'a.b.c', 'data.meta', 'full name', 'order:id', '-lead', '[index]', '{key}',
  'a,b', 'a|b', '05', '1.5', '-1', '1e3', 'café', 'key"q', 'tab\tkey', 'line\nkey', 'a-b', 'with space',
  '', 'price', 'stock', 'supplier', 'contact', 'address', 'city', 'geo', 'lat', 'lng', 'tags', 'x', 'y',
]
const IDENTS = ['a', 'b', 'c', 'meta', 'info', 'inner', 'deep', 'level', 'node', 'x1', '_z', 'Q']

function randomString() {
  if (chance(0.75)) return pick(STRINGS)
  let s = ''
  const n = int(1, 10)
  for (let i = 0; i < n; i++) s += pick([...ALPHABET])
  return s
}

function randomDouble() {
  const buf = new DataView(new ArrayBuffer(8))
  for (;;) {
    buf.setUint32(0, int(0, 0xffffffff))
    buf.setUint32(4, int(0, 0xffffffff))
    const v = buf.getFloat64(0)
    if (Number.isFinite(v)) return v
  }
}

const SPECIAL_NUMBERS = [
  0, -0, 1, -1, 19.99, 0.1, 0.2, 0.1 + 0.2, 1 / 3, 2 / 3, 1e21, 1e-7, -1e-7, 1e20, 1e-6, 1.5e300,
  5e-324, 1.7976931348623157e308, 9007199254740991, -9007199254740991, 123456789.123, 1e6, 1.5,
  100, 3.14159, 2.5e-8, 123e-20, 4.35, 0.000001234, 1e22, 12345678901234567890e3, 0.5, 1e-300,
]

function randomNumber() {
  const r = rand()
  if (r < 0.3) return int(-1000, 100000)
  if (r < 0.45) return Math.round(rand() * 100000) / 100
  if (r < 0.55) return int(-(2 ** 53) + 1, 2 ** 53 - 1)
  if (r < 0.75) return pick(SPECIAL_NUMBERS)
  if (r < 0.85) return (rand() - 0.5) * 10 ** int(-12, 25)
  return randomDouble()
}

function randomPrimitive() {
  const r = rand()
  if (r < 0.45) return randomString()
  if (r < 0.8) return randomNumber()
  if (r < 0.9) return chance(0.5)
  return null
}

function randomKey() {
  if (chance(0.2)) return pick(IDENTS) + int(0, 9)
  return pick(KEYS)
}

function randomObject(depth, size = int(0, 6)) {
  const obj = {}
  for (let i = 0; i < size; i++) {
    const k = randomKey()
    let v = randomValue(depth + 1)
    if (k === '' && Array.isArray(v)) v = randomPrimitive()
    obj[k] = v
  }
  return obj
}

/** A chain of single-key objects (what key folding collapses). */
function randomChain(depth) {
  const len = int(1, 5)
  const r = rand()
  let leaf
  if (r < 0.35) leaf = randomPrimitive()
  else if (r < 0.5) leaf = {}
  else if (r < 0.75) leaf = randomArray(depth + len)
  else leaf = randomObject(depth + len, int(2, 4))
  for (let i = 0; i < len; i++) {
    const k = chance(0.85) ? pick(IDENTS) : randomKey()
    leaf = k === '' ? { z: leaf } : { [k]: leaf }
  }
  return leaf
}

function tabularArray(depth) {
  const fields = []
  const nf = int(1, 5)
  while (fields.length < nf) {
    const k = randomKey()
    if (k !== '' && !fields.includes(k)) fields.push(k)
  }
  const rows = []
  const n = int(1, 5)
  for (let i = 0; i < n; i++) {
    const order = chance(0.15) ? [...fields].sort(() => rand() - 0.5) : fields
    const row = {}
    for (const f of order) row[f] = randomPrimitive()
    rows.push(row)
  }
  if (chance(0.25)) {
    // Break uniformity in one row.
    const row = rows[int(0, rows.length - 1)]
    const r = rand()
    if (r < 0.33) row.extra = 1
    else if (r < 0.66) delete row[fields[0]]
    else row[fields[0]] = chance(0.5) ? { nested: true } : [1, 2]
  }
  return rows
}

function randomArray(depth) {
  const r = rand()
  const n = int(0, 5)
  if (r < 0.25) return Array.from({ length: n }, randomPrimitive)
  if (r < 0.5) return tabularArray(depth)
  if (r < 0.65) return Array.from({ length: n }, () => randomObject(depth + 1, int(0, 4)))
  if (r < 0.8) {
    return Array.from({ length: n }, () =>
      chance(0.85)
        ? Array.from({ length: int(0, 4) }, randomPrimitive)
        : randomArray(depth + 1))
  }
  return Array.from({ length: n }, () => randomValue(depth + 1))
}

function randomValue(depth) {
  if (depth > 4) return randomPrimitive()
  const r = rand()
  if (r < 0.35) return randomPrimitive()
  if (r < 0.55) return randomObject(depth)
  if (r < 0.7) return randomChain(depth)
  return randomArray(depth)
}

/** Product-like record, the benchmark's own shape (nested, with a fold chain). */
function product(i) {
  const p = {
    id: `PROD-${String(i).padStart(6, '0')}`,
    name: pick(['Widget', 'Gadget Pro', 'Thing, large', 'Über tool', 'Bolt']),
    pricing: { price: Math.round(rand() * 100000) / 100, currency: 'USD' },
    inventory: { stock: { quantity: int(0, 500) } },
    supplier: { info: { contact: { email: `s${i}@example.com` } } },
    tags: ['a', 'b'].slice(0, int(0, 2)),
    updated: '2024-01-15T10:30:00Z',
  }
  if (chance(0.3)) p.discontinued = null
  return p
}

function randomDocument(i) {
  const r = rand()
  if (r < 0.55) return randomObject(0, int(1, 7))
  if (r < 0.65) return { products: Array.from({ length: int(1, 4) }, (_, j) => product(j)) }
  if (r < 0.75) return randomChain(0)
  if (r < 0.92) return randomArray(0)
  return randomPrimitive()
}

// Keep the inputs inside what both sides can represent identically.
function sanitize(v) {
  if (typeof v === 'string') return v.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '?')
  if (Array.isArray(v)) return v.map(sanitize)
  if (v && typeof v === 'object') {
    const out = {}
    for (const [k, x] of Object.entries(v)) {
      let key = sanitize(k)
      if (/^(0|[1-9]\d*)$/.test(key)) key = `k${key}`
      out[key] = sanitize(x)
    }
    return out
  }
  return v
}

/** JSON text that keeps -0 and JS's shortest number spelling. */
function toJsonText(v) {
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v)
  if (Array.isArray(v)) return `[${v.map(toJsonText).join(',')}]`
  if (v && typeof v === 'object') {
    return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}:${toJsonText(x)}`).join(',')}}`
  }
  return JSON.stringify(v)
}

// Hand-picked folding edge cases (list items, collisions, root literal paths).
const FIXED = [
  '{"x":[{"a.b":1,"a":{"b":2}}]}',
  '{"a.b":1,"a":{"b":2}}',
  '{"a":{"b":{"c":1}},"a.b.c":2}',
  '{"a":{"b":{"c":{"d":1}}},"a.b":5}',
  '{"data":{"meta":{"items":[1,2]}},"data.meta.items":"literal"}',
  '{"data":{"meta":{"x":{"y":1},"z":2}},"data.meta.x.y":1}',
  '{"data":{"meta":{"x":{"y":1},"z":2}},"data.meta.x":1}',
  '[{"a":{"b":{"c":1}},"d":{"e":{"f":2}}}]',
  '{"items":[{"a":{"b":{"c":1}},"z":1,"y":{"q":{"r":[1,2]}}}]}',
  '{"items":[{"users":[{"id":1},{"id":2}],"meta":{"a":{"b":1}}}]}',
  '{"items":[{"users":[{"id":1},{"id":2,"x":1}],"meta":{"a":{"b":1}}}]}',
  '[[{"a":1},{"a":2}],[{"a":{"b":{"c":1}}}]]',
  '{"":{"a":{"b":1}},"a.b":2}',
  '{"a":{"":{"b":1}}}',
  '{"a":{"b":{"c":{}}},"e":{"f":[]},"g":{"h":[[]]}}',
  '{"a":{"b-c":{"d":1}},"e":{"f":{"g-h":{"i":1}}}}',
  '{"a":{"b":{"c":1,"d":2}},"p":{"q":{"r":{"s":{"t":{"u":1}}}}}}',
  '{"list":[{"k":{"a":1}},{"k":{"a":{"b":2}}},{"k.a":1,"k":{"a":3}}]}',
  '{"t":[{"a":1,"b":2},{"b":3,"a":4}],"u":[{"a":1},{"a":[]}],"v":[{},{}],"w":[{"a":1},"x"]}',
  '{"n":[1e21,1e-7,-0,0.1,19.99,1.5e300,5e-324,1479699509218335.2,100000000000000000000]}',
]

const docs = [...FIXED.map((t) => JSON.parse(t)), ...Array.from({ length: count }, (_, i) => randomDocument(i))]
docs.forEach((doc, i) => {
  const text = i < FIXED.length ? FIXED[i] : toJsonText(sanitize(doc))
  const value = JSON.parse(text)
  const rawOff = encode(value)
  const rawSafe = encode(value, { keyFolding: 'safe' })
  const notes = new Set()
  const off = normalize(rawOff, notes)
  const safe = normalize(rawSafe, notes)
  const safe2 = normalize(encode(value, { keyFolding: 'safe', flattenDepth: 2 }), notes)
  const pipe = normalize(encode(value, { keyFolding: 'safe', delimiter: '|' }), notes, '|')
  const tab4 = normalize(encode(value, { delimiter: '\t', indent: 4 }), notes, '\t')
  const line = { id: i, input: text, off, safe, safe2, pipe, tab4, rawOff, rawSafe, normalized: [...notes] }
  process.stdout.write(`${JSON.stringify(line)}\n`)
})
