// For each JSON file: every number token whose JSON.parse value (IEEE-754 double) printed
// with JS String() differs from the token text, plus tokens beyond Number.MAX_SAFE_INTEGER.
import fs from 'node:fs'
for (const path of process.argv.slice(2)) {
  const text = fs.readFileSync(path, 'utf8')
  // number tokens outside strings
  const tokens = []
  const re = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g
  for (const m of text.matchAll(re)) if (m[0][0] !== '"') tokens.push(m[0])
  const changed = tokens.filter((t) => String(Number(t)) !== t)
  const unsafe = tokens.filter((t) => /^-?\d+$/.test(t) && !Number.isSafeInteger(Number(t)))
  const strings = [...text.matchAll(/"(?:[^"\\]|\\.)*"/g)].map((m) => JSON.parse(m[0]))
  const odd = strings.filter((s) => /[\u0000-\u001f\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/.test(s) || /^[#+]/.test(s))
  console.log(`${path}: ${tokens.length} numbers, changed-by-JSON.parse=${JSON.stringify(changed.slice(0, 10))} (${changed.length}), unsafe-ints=${unsafe.length}, strings-with-#/+/NBSP/BOM/controls=${JSON.stringify(odd.slice(0, 5))}`)
}
