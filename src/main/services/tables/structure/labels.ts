/**
 * Labels as paths use them: the text of a header cell without what the layout of a printed page added to it.
 * A program looks columns and rows up by name (`df.loc['Public institutions']`), so a label keeps its words
 * and loses line breaks, dot leaders and footnote markers; the cell itself keeps its source text (the grid,
 * `raw_frame` and the node's `cell` reference still show it).
 */

// Any of these characters may start something to clean; a label without them is returned as it is.
const MAYBE = /[\n\r\u00ad.…\\/()[*†‡§\u00b9\u00b2\u00b3\u2070-\u2079]/
// Those of them below U+0080, marked 1 by code: most labels are read by this table alone.
const MAYBE_ASCII = new Uint8Array(128)
for (const c of '\n\r.\\/()[*') MAYBE_ASCII[c.charCodeAt(0)] = 1

/** MAYBE.test(text), reading ASCII characters by table and leaving the rest to the expression. */
function mayNeedCleaning(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c >= 128) return MAYBE.test(text.slice(i))
    if (MAYBE_ASCII[c] === 1) return true
  }
  return false
}

// "insti-\n tutions": a word broken over two lines at a hyphen, going on in lower case.
const SOFT_BREAK = /(\p{L})-[ \t]*(?:\r\n|\r|\n)\s*(?=\p{Ll})/gu
// "Self-\nEmployed": a hyphenated word broken after its hyphen keeps the hyphen.
const HYPHEN_BREAK = /(\p{L})-[ \t]*(?:\r\n|\r|\n)\s*(?=\p{Lu})/gu
const LINE_BREAK = /\s*(?:\r\n|\r|\n)\s*/g
// "1963-64 .....", "Wages and salaries . . . . ." , "Total…": a leader out to the values.
const LEADER = /(?:\s*\.){3,}\s*$|\s*…+\s*$/u
// "dollars\1\", "Total\a\\b\": a footnote written between backslashes.
const BACKSLASHED = /\s*\\[\p{L}\p{N}]{1,3}\\/gu
// "Wheat 1/", "Total 2/ 3/": USDA-style footnote numbers at the end.
const SLASHED = /(?<=[^\d\s/])(?:\s*\d{1,2}\/)+$/u
// "Ontario¹", "Employment²³": superscript footnote numbers at the end of a word (not "km²", "m³").
const SUPERSCRIPT = /(?<!(?:^|[\s(/\d])(?:[kcdmµ]?m|ft|in|mi|yd))[\u00b9\u00b2\u00b3\u2070-\u2079]+(?=[\s,;:)]|$)/gu
// "Number of firm commitments (a)", "Exports (p) (r)": a letter in brackets after a word; not "501(c)", nor
// a plural ("member(s)") or a unit ("Viewers (m)", "(k)").
const LETTER_MARK = /(?<=[\p{L}.)\]%])(?:\s*\((?![skm]\))[a-z]\))+$/u
// "Scotland total [note 4]": the note markers of accessible government spreadsheets.
const NOTE_MARK = /\s*\[notes?\s*\d+(?:\s*(?:,|and)\s*\d+)*\]$/iu
// "Quebec*", "Total†": a star, dagger or section sign at the end.
const SIGN_MARK = /(?<=\S)\s*[*†‡§]+$/u
// What the text must have (at its end, for the last three) for the expressions above to find anything.
const SUPERSCRIPTS = /[\u00b9\u00b2\u00b3\u2070-\u2079]/u
const LEADER_END = /[.…]\s*$/u
const SIGN_END = /[*†‡§]$/u

/** The label a header path uses for a cell's text: see the module comment. Never empty when the text is not. */
export function cleanLabel(text: string): string {
  const trimmed = text.trim()
  if (!mayNeedCleaning(trimmed)) return trimmed
  // Each expression runs only on text that has what it removes: a label with a full stop or a bracket in it
  // (most of those that get here) is otherwise tried against every one of them, three times over.
  let out = trimmed
  if (out.includes('\u00ad')) out = out.replace(/\u00ad/g, '')
  if (out.includes('\n') || out.includes('\r')) out = out.replace(SOFT_BREAK, '$1').replace(HYPHEN_BREAK, '$1-').replace(LINE_BREAK, ' ')
  if (out.includes('\\')) out = out.replace(BACKSLASHED, '')
  if (SUPERSCRIPTS.test(out)) out = out.replace(SUPERSCRIPT, '')
  // Markers may come in any order after a leader or before one ("Total 1/ .....", "Men ..... (a)"). Each is
  // anchored at the end, so it is tried only when the text ends with its last character.
  for (let pass = 0; pass < 3; pass++) {
    const before = out
    if (LEADER_END.test(out)) out = out.replace(LEADER, '')
    if (out.endsWith('/')) out = out.replace(SLASHED, '')
    if (out.endsWith(')')) out = out.replace(LETTER_MARK, '')
    if (out.endsWith(']')) out = out.replace(NOTE_MARK, '')
    if (SIGN_END.test(out)) out = out.replace(SIGN_MARK, '')
    out = out.trimEnd()
    if (out === before) break
  }
  out = out.replace(/\s{2,}/g, ' ').trim()
  return out === '' ? trimmed : out
}
