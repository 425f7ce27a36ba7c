// Runs the reference @toon-format/toon encoder/decoder against a spec fixture directory.
import { encode, decode } from '@toon-format/toon'
import fs from 'node:fs'
import path from 'node:path'
const dir = process.argv[2] ?? '/work/shared/toon-spec/v4.0.0/fixtures'
let pass = 0, fail = 0
for (const kind of ['encode', 'decode']) {
  for (const f of fs.readdirSync(path.join(dir, kind)).sort()) {
    const d = JSON.parse(fs.readFileSync(path.join(dir, kind, f), 'utf8'))
    for (const t of d.tests) {
      let ok, got
      try {
        got = kind === 'encode' ? encode(t.input, t.options) : decode(t.input, t.options)
        ok = !t.shouldError && (kind === 'encode' ? got === t.expected : JSON.stringify(got) === JSON.stringify(t.expected))
      } catch (e) { got = 'ERROR: ' + e.message; ok = !!t.shouldError }
      if (ok) pass++; else { fail++; console.log(`FAIL ${kind}/${f} :: ${t.name}\n  expected: ${JSON.stringify(t.expected)}${t.shouldError ? ' (shouldError)' : ''}\n  got:      ${JSON.stringify(got)}`) }
    }
  }
}
console.log(`pass=${pass} fail=${fail}`)
