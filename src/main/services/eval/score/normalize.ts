/**
 * The string normalisation of the WikiTQ evaluator (also used by HiTab's answer matching): diacritics
 * dropped, quotes and dashes unified, trailing citations and parenthesised details removed until stable,
 * one final period dropped, whitespace collapsed, lower case.
 */

const CITATIONS = /((?<!^)\[[^\]]*\]|\[\d+\]|[•♦†‡*#+])*$/u
const DETAILS = /(?<!^)( \([^)]*\))*$/u
const QUOTED = /^"([^"]*)"$/u

/** Python's `str.strip()` with no argument: Unicode whitespace on both ends. */
export function pyStrip(text: string): string {
  return text.replace(/^[\s\u001c-\u001f\u0085]+|[\s\u001c-\u001f\u0085]+$/gu, '')
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
