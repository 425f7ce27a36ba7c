// Rewrites @toon-format/toon 2.1.0 output into what TOON spec v3.3.2 (its
// fixtures) requires, for the documented points where the two differ:
//   - numbers printed in exponent form (1e+21, 1e-7) -> canonical plain decimal
//   - empty arrays `key[0]:` -> `key: []`, and a root `[0]:` -> `[]`
// `notes` (a Set) collects which rewrites were applied.

export function plainDecimal(tok) {
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(tok)
  const [, sign, lead, frac = '', exp] = m
  const digits = lead + frac
  const point = 1 + Number(exp)
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`
  if (point >= digits.length) return sign + digits + '0'.repeat(point - digits.length)
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`
}

export function normalize(out, notes, delimiter = ',') {
  const mark = delimiter === ',' ? '' : delimiter
  const empty = `[0${mark}]:`
  const delim = delimiter === '|' ? '\\|' : delimiter === '\t' ? '\\t' : ','
  const exponent = new RegExp(`(^|[ ${delim}])(-?\\d(?:\\.\\d+)?e[+-]\\d+)(?=$|${delim})`, 'g')
  if (out === empty) {
    notes.add('empty-root-array')
    return '[]'
  }
  return out.split('\n').map((line) => {
    const indent = line.length - line.trimStart().length
    const body = line.slice(indent)
    const dash = body.startsWith('- ') ? '- ' : ''
    const rest = body.slice(dash.length)
    if (rest.endsWith(empty) && rest.length > empty.length) {
      notes.add('empty-array')
      line = `${line.slice(0, indent)}${dash}${rest.slice(0, -empty.length)}: []`
    }
    // Exponent numbers only appear as whole tokens after ": ", "- " or a delimiter.
    return line.replace(exponent, (_, pre, num) => {
      notes.add('exponent-number')
      return pre + plainDecimal(num)
    })
  }).join('\n')
}
