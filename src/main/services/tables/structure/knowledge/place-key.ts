/**
 * How place names are compared: the knowledge file (places.json) keeps its names in this form, and the
 * place rules put a row label in it before looking it up. Kept apart from the rules so that the script that
 * writes the file (scripts/make-places.ts) can use it without reading the file.
 */

/** A place name as the knowledge keeps it: lower case, accents folded ("Québec" → "quebec"), one space. */
export function placeKey(text: string): string {
  const lower = text.toLowerCase()
  // Most labels are plain ASCII: no folding to do, and their only space is ' ', which needs no tidying unless
  // doubled or at an end.
  if (printableAscii(lower)) return spacedOnce(lower) ? lower : lower.replace(/\s+/gu, ' ').trim()
  const folded = lower
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[‘’ʼ`]/gu, "'")
  return folded.replace(/\s+/gu, ' ').trim()
}

/** Whether every character of the text is printable ASCII (U+0020 to U+007E). */
export function printableAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 32 || c > 126) return false
  }
  return true
}

/** Whether printable ASCII text has no space at either end and none after another. */
function spacedOnce(text: string): boolean {
  const n = text.length
  if (n > 0 && (text.charCodeAt(0) === 32 || text.charCodeAt(n - 1) === 32)) return false
  for (let i = 1; i < n; i++) if (text.charCodeAt(i) === 32 && text.charCodeAt(i - 1) === 32) return false
  return true
}
