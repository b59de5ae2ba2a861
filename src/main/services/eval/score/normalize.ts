/**
 * The string normalisation of the WikiTQ evaluator (also used by HiTab's answer matching): diacritics
 * dropped, quotes and dashes unified, trailing citations and parenthesised details removed until stable,
 * one final period dropped, whitespace collapsed, lower case.
 */

const CITATIONS = /((?<!^)\[[^\]]*\]|\[\d+\]|[•♦†‡*#+])*$/u
const DETAILS = /(?<!^)( \([^)]*\))*$/u
const QUOTED = /^"([^"]*)"$/u

// Python also strips the information separators U+001C..U+001F and U+0085.
const PY_SPACE = '\\s\\u001c-\\u001f\\u0085'
const PY_SPACE_START = new RegExp(`^[${PY_SPACE}]+`, 'u')
const PY_SPACE_END = new RegExp(`[${PY_SPACE}]+$`, 'u')

/** Python's `str.strip()` with no argument: Unicode whitespace on both ends. */
export function pyStrip(text: string): string {
  return text.replace(PY_SPACE_START, '').replace(PY_SPACE_END, '')
}

export function normalizeString(input: string): string {
  let x = input
    .normalize('NFKD')
    .replace(/\p{Mn}/gu, '')
    .replace(/[‘’´`]/gu, "'")
    .replace(/[“”]/gu, '"')
    .replace(/[‐‑‒–—−]/gu, '-')
  for (;;) {
    const old = x
    x = pyStrip(x).replace(CITATIONS, '')
    x = pyStrip(x).replace(DETAILS, '')
    x = pyStrip(x).replace(QUOTED, '$1')
    if (x === old) break
  }
  if (x.endsWith('.')) x = x.slice(0, -1)
  return pyStrip(x.replace(/\s+/gu, ' ').toLowerCase())
}
