/**
 * What a column of the body holds, read from its cells: the kinds of column statistical downloads put beside
 * the row labels (UN, World Bank, OECD and national-statistics files alike). A running number of the rows, one
 * word repeated on every row (a variant or series: "Estimates"), codes (one per row: "900", "BDI", "11-0000")
 * and kinds (a few words repeated: "Region", "Country/Area") index the rows but do not name them; the column
 * of labels is the text column with the most distinct values. The label-column rule reads these kinds
 * (rules/label-columns.ts), and so does the rule that nests rows by their parent codes (rules/stated.ts).
 */
import { rawText, type Grid } from './grid'
import { cellKind, isYearLike } from './number'

// Rows below the header read to judge a column.
export const COLUMN_SAMPLE = 50
// Fewer values than this tell nothing about a column's kind.
const MIN_VALUES = 3
// A code is one short token; a kind a short phrase.
const MAX_CODE_CHARS = 16
const MAX_KIND_CHARS = 40
// The share of the rows read that an index column is written on, at least (section rows may go without).
const INDEX_SHARE = 0.6

export type ColumnKind =
  /** Nothing written below the header, or a few marks (footnote letters in a "Notes" column). */
  | 'empty'
  /** Years, one a row or repeated: a dimension of the rows, not an index of them. */
  | 'years'
  /** Whole numbers counting the rows: each one more than the one before (a row left out may skip one). */
  | 'row-numbers'
  /** One text, the same on every row that has one. */
  | 'constant'
  /** Short tokens, different on nearly every row: identifiers of the rows, numbers included. */
  | 'code'
  /** A few short texts, each repeated: the kind of each row. */
  | 'kind'
  /** Texts, mostly different: labels, or sentences. */
  | 'text'
  /** Numbers that are neither row numbers nor codes: measures. */
  | 'values'

/** A column's cells below the header, counted once. */
export type ColumnReading = {
  kind: ColumnKind
  /** Cells written (a missing-value mark counts). */
  filled: number
  /** Distinct texts among them. */
  distinct: number
  /** Distinct indentation levels of its written cells. */
  indents: number
  /** More numbers than texts: a column of codes of this kind may as well be one of counts. */
  numeric: boolean
}

/** What the column holds in the first rows below the header. */
export function readColumn(g: Grid, col: number, headerRows: number): ColumnReading {
  const end = Math.min(g.rows, headerRows + COLUMN_SAMPLE)
  const seen = new Set<string>()
  const levels = new Set<number>()
  let filled = 0
  let texts = 0
  let numbers = 0
  let wholes = 0
  let steps = 0
  let previous: number | null = null
  let tokens = 0
  let short = 0
  let years = 0
  for (let r = headerRows; r < end; r++) {
    const t = rawText(g, r, col)
    if (t.length === 0) continue
    filled++
    seen.add(t)
    const kind = cellKind(t)
    // Only labels are indented: the indentation of numbers is not read.
    if (kind === 'text') {
      texts++
      levels.add(g.indent(r, col))
    } else if (kind === 'number') numbers++
    if (t.length <= MAX_KIND_CHARS) short++
    if (isYearLike(t)) years++
    if (codeLike(t)) tokens++
    // A whole number written without separators ("108", not "1,234" or "12.5"): a row number or a code.
    const n = wholeNumber(t)
    if (n >= 0) {
      wholes++
      if (previous !== null && n === previous + 1) steps++
      previous = n
    }
  }
  const reading = { filled, distinct: seen.size, indents: levels.size, numeric: numbers > texts }
  const kind = kindOf(reading, { texts, numbers, wholes, steps, tokens, short, years }, end - headerRows)
  return { ...reading, kind }
}

/** The value of a whole number of up to seven digits written without separators, or -1. */
function wholeNumber(t: string): number {
  if (t.length > 7) return -1
  let n = 0
  for (let k = 0; k < t.length; k++) {
    const d = t.charCodeAt(k) - 48
    if (d < 0 || d > 9) return -1
    n = n * 10 + d
  }
  return n
}

function kindOf(
  c: { filled: number; distinct: number },
  n: { texts: number; numbers: number; wholes: number; steps: number; tokens: number; short: number; years: number },
  rows: number
): ColumnKind {
  // A column written on a few rows only carries remarks on them (footnote letters), or nothing.
  if (c.filled < MIN_VALUES || c.filled * 4 < rows) return 'empty'
  if (n.years === c.filled) return 'years'
  // Row numbers, a variant and codes are written on (nearly) every row; labels written once per group are not.
  if (c.filled < INDEX_SHARE * rows) return n.texts > n.numbers ? 'text' : 'values'
  // Counting rows: nearly every step from one number to the next adds one.
  if (n.wholes === c.filled && n.steps >= 0.9 * (c.filled - 1)) return 'row-numbers'
  if (c.distinct === 1) return n.texts === c.filled ? 'constant' : 'values'
  const unique = c.distinct >= 0.95 * c.filled
  // Identifiers: one token a row, different on nearly every row; whole numbers or mostly letters and digits.
  if (unique && n.tokens === c.filled && (n.wholes === c.filled || n.texts === c.filled)) return 'code'
  if (n.texts > n.numbers) {
    // A few short phrases, each on several rows: the kind of each row ("Region", "Subregion", "Country/Area").
    if (n.short === c.filled && c.distinct <= Math.max(4, c.filled / 8) && c.distinct * 2 < c.filled) return 'kind'
    return 'text'
  }
  return 'values'
}

/**
 * One short token that reads as an identifier: with a digit ("900", "UKC11", "11-0000") or a few capitals
 * ("BDI"). A word of a label ("Burundi", "Einnahmen") is none.
 */
export function codeLike(t: string): boolean {
  if (t.length === 0 || t.length > MAX_CODE_CHARS) return false
  // Read by character, as /\s/, /\d/ and /^[A-Z]{2,5}$/ would: every cell of the columns read is asked.
  let digit = false
  let capitals = true
  for (let k = 0; k < t.length; k++) {
    const ch = t.charCodeAt(k)
    if (ch <= 32 || ch === 160 || ch === 0x2028 || ch === 0x2029 || ch === 0xfeff || (ch >= 0x2000 && ch <= 0x200a)) return false
    if (ch >= 48 && ch <= 57) digit = true
    if (ch < 65 || ch > 90) capitals = false
  }
  return digit || (capitals && t.length >= 2 && t.length <= 5)
}

/**
 * The kinds that index the rows without naming them when they stand before the labels: they stay ordinary
 * columns of the table. Not a kind: a few texts repeated before the labels are an outer level of them
 * ("Airbus | A320neo Family").
 */
export function indexesRows(kind: ColumnKind): boolean {
  return kind === 'row-numbers' || kind === 'constant' || kind === 'code' || kind === 'empty'
}

/** The column's header cells read as years ("2019"): a column of values under a year, not an index. */
export function yearHeader(g: Grid, col: number, headerRows: number): boolean {
  for (let r = headerRows - 1; r >= 0; r--) {
    const t = rawText(g, r, col)
    if (t.length > 0) return isYearLike(t)
  }
  return false
}
