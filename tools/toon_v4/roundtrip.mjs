// Checks decode(golden) deep-equals the source JSON for each pair (reference 4.4.0 decoder, strict).
import { decode } from '@toon-format/toon'
import fs from 'node:fs'
import assert from 'node:assert/strict'
const a = process.argv.slice(2)
for (let i = 0; i < a.length; i += 2) {
  assert.deepStrictEqual(decode(fs.readFileSync(a[i + 1], 'utf8')), JSON.parse(fs.readFileSync(a[i], 'utf8')))
  console.log('round-trip ok:', a[i + 1])
}
