// Encodes JSON files with the reference TOON encoder @toon-format/toon@4.4.0 (default options).
// Usage: node encode-golden.mjs <in.json> <out.toon> [<in.json> <out.toon> ...]
// Writes exactly encode()'s return value (no trailing newline added).
import { encode } from '@toon-format/toon'
import fs from 'node:fs'

const pkgUrl = new URL('./node_modules/@toon-format/toon/package.json', import.meta.url)
const version = JSON.parse(fs.readFileSync(pkgUrl, 'utf8')).version
if (version !== '4.4.0') throw new Error(`expected @toon-format/toon 4.4.0, found ${version}`)

const args = process.argv.slice(2)
if (args.length === 0 || args.length % 2 !== 0) {
  console.error('usage: node encode-golden.mjs <in.json> <out.toon> [...]')
  process.exit(2)
}
for (let i = 0; i < args.length; i += 2) {
  const [input, output] = [args[i], args[i + 1]]
  const data = JSON.parse(fs.readFileSync(input, 'utf8'))
  const toon = encode(data) // defaults: indentSize 2, delimiter ',', no replacer
  fs.writeFileSync(output, toon, 'utf8')
  console.log(`${output}: ${Buffer.byteLength(toon)} bytes, ${toon.split('\n').length} lines`)
}
