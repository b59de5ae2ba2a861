/**
 * How place names are compared: the knowledge file (places.json) keeps its names in this form, and the
 * place rules put a row label in it before looking it up. Kept apart from the rules so that the script that
 * writes the file (scripts/make-places.ts) can use it without reading the file.
 */

/** A place name as the knowledge keeps it: lower case, accents folded ("Québec" → "quebec"), one space. */
export function placeKey(text: string): string {
  const lower = text.toLowerCase()
  // Most labels are plain ASCII: no folding to do.
  const folded = /[^\x20-\x7e]/u.test(lower)
    ? lower
        .normalize('NFD')
        .replace(/\p{M}/gu, '')
        .replace(/[‘’ʼ`]/gu, "'")
    : lower
  return folded.replace(/\s+/gu, ' ').trim()
}
