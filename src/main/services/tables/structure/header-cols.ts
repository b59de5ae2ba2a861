import { cellKind, isMissingMarker, isYearLike, parseNumber } from './number'
import { rawText, regionAt, type Grid } from './grid'
import { detectNoteRows } from './margins'
import { isUnitRow } from './rows'

// Rows below the header looked at to judge a column.
const SAMPLE_ROWS = 200
// Text columns of labels taken after the first label columns, at most.
const MAX_TEXT_LABEL_COLUMNS = 4
// A cell this long, with a space, reads as a sentence rather than a label or a code.
const SENTENCE_CHARS = 40

/** Column 0 reads as labels: mostly text (or years) below the first row. */
export function labelColumnLikely(g: Grid): boolean {
  let text = 0
  let numbers = 0
  const end = Math.min(g.rows, SAMPLE_ROWS)
  for (let r = 1; r < end; r++) {
    const t = rawText(g, r, 0)
    const kind = cellKind(t)
    if (kind === 'text' || (kind === 'number' && isYearLike(t))) text++
    else if (kind === 'number') numbers++
  }
  return text > 0 && text >= numbers
}

/**
 * A column of text labels right after the label columns, before columns of numbers, labels the rows too: the
 * inner level of a two-column row header ("WHO | ADULT" over "| TOKENS", "North East | Imports").
 */
export function withTextColumns(g: Grid, labelCols: number, headerRows: number): number {
  const limit = Math.min(g.cols - 1, labelCols + MAX_TEXT_LABEL_COLUMNS)
  if (labelCols >= limit) return labelCols
  // Numeric columns from each column to the right edge, counted once (a wide grid must not be scanned per column),
  // and only when a column gets that far.
  let numericAfter: Int32Array | null = null
  let k = labelCols
  while (k < limit && (unnamed(g, k, headerRows) || writtenOnce(g, k - 1, k, headerRows)) && textualColumn(g, k, headerRows)) {
    if (numericAfter === null) {
      numericAfter = new Int32Array(g.cols + 1)
      for (let c = g.cols - 1; c > labelCols; c--) numericAfter[c] = (numericAfter[c + 1] ?? 0) + (mostlyNumeric(g, c, headerRows) ? 1 : 0)
    }
    const numeric = numericAfter[k + 1] ?? 0
    if (numeric <= g.cols - (k + 1) - numeric) break
    k++
  }
  return k
}

/**
 * Text columns right after an indented label column, written beside every label it holds, short, before
 * columns of numbers, are the codes and kinds of the rows ("Management occupations | 11-0000 | Summary"):
 * they belong to the labels.
 */
export function withCodeColumns(g: Grid, labelCols: number, headerRows: number): number {
  const inner = labelCols - 1
  const limit = Math.min(g.cols - 1, labelCols + MAX_TEXT_LABEL_COLUMNS)
  if (inner < 0 || labelCols >= limit || !indentVaries(g, inner, headerRows)) return labelCols
  let k = labelCols
  while (k < limit && textualColumn(g, k, headerRows) && codesBeside(g, inner, k, headerRows)) k++
  if (k === labelCols) return labelCols
  let numeric = 0
  for (let c = k; c < g.cols; c++) if (mostlyNumeric(g, c, headerRows)) numeric++
  return numeric > g.cols - k - numeric ? k : labelCols
}

/** The labels of the column, in the first rows below the header, are indented to more than one depth. */
function indentVaries(g: Grid, col: number, headerRows: number): boolean {
  let first: number | null = null
  const end = Math.min(g.rows, headerRows + SAMPLE_ROWS)
  for (let r = headerRows; r < end; r++) {
    if (rawText(g, r, col).length === 0) continue
    const level = g.indent(r, col)
    if (first === null) first = level
    else if (level !== first) return true
  }
  return false
}

/** Every label of column `labels` in the first rows has a short text beside it in column `col`. */
function codesBeside(g: Grid, labels: number, col: number, headerRows: number): boolean {
  let rows = 0
  const end = Math.min(g.rows, headerRows + SAMPLE_ROWS)
  for (let r = headerRows; r < end; r++) {
    if (rawText(g, r, labels).length === 0) continue
    const t = rawText(g, r, col)
    if (t.length === 0 || t.length > SENTENCE_CHARS / 2 || cellKind(t) !== 'text') return false
    rows++
  }
  return rows > 0
}

/** Every header cell of the column is blank. */
export function unnamed(g: Grid, col: number, headerRows: number): boolean {
  for (let r = 0; r < headerRows; r++) if (!blankHeaderCell(rawText(g, r, col))) return false
  return headerRows > 0
}

/**
 * The outer label is written once for its group and left blank beside the group's other rows, without a merge
 * ("North East | Imports" then "| Exports"): most rows that have an inner label have no outer one.
 */
export function writtenOnce(g: Grid, outer: number, inner: number, headerRows: number): boolean {
  if (outer < 0) return false
  let blank = 0
  let written = 0
  const end = Math.min(g.rows, headerRows + SAMPLE_ROWS)
  for (let r = headerRows; r < end; r++) {
    if (rawText(g, r, inner).length === 0) continue
    if (regionAt(g, r, outer) !== null) return false
    if (rawText(g, r, outer).length === 0) blank++
    else written++
  }
  return written > 0 && blank > written
}

export function textualColumn(g: Grid, col: number, headerRows: number): boolean {
  const k = columnKinds(g, col, headerRows)
  return k.texts > 0 && k.texts > 3 * (k.numbers + k.years + k.missing)
}

/**
 * Columns merged down the body in step with the first label column ("industry | share of assets" over two
 * rows each), or in groups inside its groups, describe groups of rows, so they belong to the labels; the rows
 * inside each group then need a label of their own, which a text column right after them gives ("mnes |
 * domestic enterprises").
 */
export function withGroupColumns(g: Grid, labelCols: number, headerRows: number): number {
  let k = labelCols
  while (k < g.cols - 1 && (mergedInStep(g, k, headerRows) || mergedWithin(g, k, headerRows))) k++
  if (k > labelCols && k < g.cols - 1 && !mostlyNumeric(g, k, headerRows)) k++
  return k
}

/**
 * The column has vertical merges in the body, each inside a merge of the column before it: groups within the
 * groups of the outer label column ("ALABAMA" over "Metropolitan Statistical Area" over its two rows).
 */
export function mergedWithin(g: Grid, col: number, headerRows: number): boolean {
  if (col < 1) return false
  let found = false
  for (const m of g.merges) {
    if (m.top < headerRows || m.left !== col || m.right !== col || m.bottom === m.top) continue
    const outer = regionAt(g, m.top, col - 1)
    if (outer === null || outer.top > m.top || outer.bottom < m.bottom || outer.bottom === outer.top) return false
    found = true
  }
  return found
}

/** The column has vertical merges in the body, and each spans exactly the rows of a merge in column 0. */
export function mergedInStep(g: Grid, col: number, headerRows: number): boolean {
  let found = false
  for (const m of g.merges) {
    if (m.top < headerRows || m.left !== col || m.right !== col || m.bottom === m.top) continue
    const group = regionAt(g, m.top, 0)
    if (group === null || group.top !== m.top || group.bottom !== m.bottom) return false
    found = true
  }
  return found
}

/**
 * Column k belongs to the corner above the row labels: its header cells are all empty, or (with several
 * header rows) it has one label reaching down through the header rows, merged or over empty cells, or its
 * one label sits in the last header row under empty cells ("name | years" below a band of group headers).
 */
export function cornerColumn(g: Grid, k: number, headerRows: number): boolean {
  const top = regionAt(g, 0, k)
  if (top !== null) {
    if (top.right > top.left) return false
    // Merged down to the last header row, or to the row above it when that row repeats the name.
    const repeated = top.bottom === headerRows - 2 && rawText(g, headerRows - 1, k) === rawText(g, 0, k)
    return headerRows >= 2 && (top.bottom >= headerRows - 1 || repeated)
  }
  if (headerRows >= 2 && namedBelowBlanks(g, k, headerRows)) return true
  for (let r = 1; r < headerRows; r++) if (!blankHeaderCell(rawText(g, r, k))) return false
  return rawText(g, 0, k).length === 0 || headerRows >= 2
}

/** Every header cell of the column above the last header row is empty or a missing marker ("none"). */
export function namedBelowBlanks(g: Grid, col: number, headerRows: number): boolean {
  for (let r = 0; r < headerRows - 1; r++) {
    if (regionAt(g, r, col) !== null || !blankHeaderCell(rawText(g, r, col))) return false
  }
  return true
}

const FLAG = /^(?:yes|no|y|n|true|false|[✓✔✗✘])$/i

/** A column of yes/no marks: values, never row labels. */
export function flagColumn(g: Grid, col: number, headerRows: number): boolean {
  let flags = 0
  let filled = 0
  const end = Math.min(g.rows, headerRows + SAMPLE_ROWS)
  for (let r = headerRows; r < end; r++) {
    const t = rawText(g, r, col)
    if (t.length === 0) continue
    filled++
    if (FLAG.test(t)) flags++
  }
  return filled > 0 && flags * 2 > filled
}

export function mostlyNumeric(g: Grid, col: number, headerRows: number): boolean {
  const k = columnKinds(g, col, headerRows)
  return k.numbers > k.texts + k.years
}

export type ColumnKinds = { readonly numbers: number; readonly years: number; readonly texts: number; readonly missing: number }

// Each grid's column kinds by header rows and column: several rules of a stage ask for the same columns. A grid
// is not changed once built, and a grid made from another is another key.
const kindsOf = new WeakMap<Grid, Map<number, ColumnKinds>>()

/** Cell kinds in the first rows below the header: numbers other than years, years written as numbers, texts, missing markers. */
export function columnKinds(g: Grid, col: number, headerRows: number): ColumnKinds {
  if (col < 0 || col >= g.cols || headerRows < 0) return countKinds(g, col, headerRows)
  let known = kindsOf.get(g)
  if (known === undefined) kindsOf.set(g, (known = new Map<number, ColumnKinds>()))
  const key = headerRows * g.cols + col
  let counts = known.get(key)
  if (counts === undefined) known.set(key, (counts = countKinds(g, col, headerRows)))
  return counts
}

function countKinds(g: Grid, col: number, headerRows: number): ColumnKinds {
  const counts = { numbers: 0, years: 0, texts: 0, missing: 0 }
  const end = Math.min(g.rows, headerRows + SAMPLE_ROWS)
  for (let r = headerRows; r < end; r++) {
    const t = rawText(g, r, col)
    const kind = cellKind(t)
    if (kind === 'number') {
      if (isYearLike(t)) counts.years++
      else counts.numbers++
    } else if (kind === 'text') counts.texts++
    else if (kind === 'missing') counts.missing++
  }
  return counts
}

export function yearColumn(g: Grid, headerRows: number): boolean {
  let years = 0
  let filled = 0
  const end = Math.min(g.rows, headerRows + SAMPLE_ROWS)
  for (let r = headerRows; r < end; r++) {
    const t = rawText(g, r, 0)
    if (t.length === 0) continue
    filled++
    if (isYearLike(t)) years++
  }
  return filled > 0 && years === filled
}

/**
 * Most columns right of the first hold numbers: a matrix of measures whose rows the first column names,
 * even with a text column among the measures ("state | r&d | r&d/gdp | largest industry | share").
 */
export function otherColumnsNumeric(g: Grid, headerRows: number): boolean {
  let numeric = 0
  let textual = 0
  let prose = 0
  const end = Math.min(g.rows, headerRows + SAMPLE_ROWS)
  for (let c = 1; c < g.cols; c++) {
    let numbers = 0
    let texts = 0
    let sentences = 0
    for (let r = headerRows; r < end; r++) {
      const t = rawText(g, r, c)
      const kind = cellKind(t)
      if (kind === 'number' || kind === 'missing') numbers++
      else if (kind === 'text') {
        texts++
        if (t.length >= SENTENCE_CHARS && t.includes(' ')) sentences++
      }
    }
    if (texts > numbers) {
      textual++
      if (sentences * 2 > texts) prose++
    } else numeric++
  }
  // Measures beside a column of sentences that describe the rows, and no other text column ("census
  // metropolitan area | percent change | violations driving the change: increase in fraud, …"): the first
  // column names the rows.
  return numeric > textual || (numeric > 0 && prose > 0 && textual === prose)
}

export function hasSectionOrUnitRows(g: Grid, headerRows: number): boolean {
  // Notes under the table ("Source: …") are label-only rows too, but not sections.
  const end = Math.min(detectNoteRows(g, headerRows), headerRows + SAMPLE_ROWS)
  for (let r = headerRows; r < end - 1; r++) {
    if (isUnitRow(g, r, 1)) return true
    const label = rawText(g, r, 0)
    if (label.length === 0) continue
    let empty = true
    for (let c = 1; c < g.cols && empty; c++) if (rawText(g, r, c).length > 0) empty = false
    if (empty) return true
  }
  return false
}

export function continuesLabels(g: Grid, col: number, headerRows: number): boolean {
  const named = regionAt(g, 0, col) !== null || (headerRows >= 2 && namedBelowBlanks(g, col, headerRows))
  return named && textColumns(g, col, headerRows) >= 2 && !largeNumbers(g, col, headerRows)
}

// Values a column needs to be read as a classification code, and the share of them that extend the code above.
const CODE_VALUES = 6
const CODE_CHILDREN = 1 / 3

/**
 * The column holds the codes of a classification (occupations "1 | 11 | 12 | 2 | 21", industries): whole
 * numbers written without separators, each after the one before in the codes' order (as strings; a list that
 * starts again counts), a third of them or more extending the last code above with fewer digits.
 */
export function classificationCodes(g: Grid, col: number, headerRows: number): boolean {
  let values = 0
  let ascending = 0
  let children = 0
  let previous: string | null = null
  // The last code of each length seen so far: a code's parent is the last one with fewer digits.
  const lastOfLength: (string | undefined)[] = []
  const end = Math.min(g.rows, headerRows + SAMPLE_ROWS)
  for (let r = headerRows; r < end; r++) {
    const t = rawText(g, r, col).trim()
    if (t.length === 0) continue
    if (!/^\d{1,8}$/.test(t)) return false
    values++
    if (previous !== null && t > previous) ascending++
    let parent: string | undefined
    for (let n = t.length - 1; n > 0 && parent === undefined; n--) parent = lastOfLength[n]
    if (parent !== undefined && t.startsWith(parent)) children++
    lastOfLength[t.length] = t
    lastOfLength.length = t.length + 1
    previous = t
  }
  // Each start of the list again is one step that does not ascend; a tenth of the steps at most.
  return values >= CODE_VALUES && (values - 1 - ascending) * 10 <= values - 1 && children >= CODE_CHILDREN * (values - 1)
}

/** Most numbers of the column are ten thousand or more: measures (a population), not labels (games played). */
export function largeNumbers(g: Grid, col: number, headerRows: number): boolean {
  let numbers = 0
  let large = 0
  const end = Math.min(g.rows, headerRows + SAMPLE_ROWS)
  for (let r = headerRows; r < end; r++) {
    const v = parseNumber(rawText(g, r, col))
    if (v === null) continue
    numbers++
    if (Math.abs(v) >= 10000) large++
  }
  return numbers > 0 && large * 2 > numbers
}

/** How many of the columns before `before` are not mostly numeric. */
export function textColumns(g: Grid, before: number, headerRows: number): number {
  let n = 0
  for (let c = 0; c < before; c++) if (!mostlyNumeric(g, c, headerRows)) n++
  return n
}

/** Empty, or a placeholder that some sources write into empty header cells ("none"). */
export function blankHeaderCell(t: string): boolean {
  return t.length === 0 || isMissingMarker(t)
}
