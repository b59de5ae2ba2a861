import { cellKind, isMissingMarker, isYearLike } from './number'
import { rawText, regionAt, type Grid } from './grid'
import { alternatives, ending, opening } from './knowledge/cues'

/** Role of a body row for the left tree. */
export type RowRole =
  /** Nothing in it. */
  | 'empty'
  /** A label and no data: parent of the rows below. */
  | 'section'
  /** No label, one short text above the data ("percent", "number", "$ thousands"): parent of the rows below. */
  | 'unit'
  /**
   * A remark or a divider, no data: "source: …", a legend, or a label merged over every column of a table
   * with several label columns ("goalkeepers" in a squad list). A leaf of the left tree, never a parent.
   */
  | 'note'
  | 'data'

/** Counts over the cells of one row from column `from` on; covered (non-anchor) merged cells are skipped. */
export type RowCounts = { numbers: number; missing: number; texts: number; years: number; filled: number; spans: number }

export function countRow(g: Grid, row: number, from: number): RowCounts {
  const counts: RowCounts = { numbers: 0, missing: 0, texts: 0, years: 0, filled: 0, spans: 0 }
  const cells = g.cells[row] ?? []
  for (let c = from; c < g.cols; c++) {
    const text = g.owner === null ? (cells[c] ?? '') : rawText(g, row, c)
    const kind = cellKind(text)
    if (kind === 'empty') continue
    counts.filled++
    if (kind === 'number') {
      if (isYearLike(text)) counts.years++
      else counts.numbers++
    } else if (kind === 'missing') counts.missing++
    else if (isYearLike(text)) counts.years++
    else counts.texts++
    const m = regionAt(g, row, c)
    if (m !== null && m.right > m.left && m.left >= Math.max(from, 1)) counts.spans++
  }
  return counts
}

/** True when every cell of the row from `from` on is empty (or covered by a merge anchored elsewhere). */
export function dataEmpty(g: Grid, row: number, from: number): boolean {
  const cells = g.cells[row] ?? []
  if (g.owner === null) {
    for (let c = from; c < g.cols; c++) if ((cells[c] ?? '').trim().length > 0) return false
    return true
  }
  for (let c = from; c < g.cols; c++) if (rawText(g, row, c).length > 0) return false
  return true
}

/** The row's label: text of the left header cells written in this row. */
export function rowLabel(g: Grid, row: number, headerCols: number): string {
  let label = ''
  for (let c = 0; c < headerCols; c++) {
    const t = rawText(g, row, c)
    if (t.length > 0) label = label.length === 0 ? t : `${label} ${t}`
  }
  return label
}

// A unit line: a currency or percent sign, or a unit word of any language, after "in" ("in thousands",
// "en milliers", "in Tausend", "en miles").
export const UNIT_WORDS = new RegExp(String.raw`^(?:(?:${alternatives(['unitLead'])})\s+)?(?:[$€£%]|${alternatives(['units'])})`, 'iu')

/**
 * A unit row: no label, a single short non-numeric text in the data area (often merged across it).
 * A row that names a unit per column ("number | percent | number") is a header row, not this.
 */
export function isUnitRow(g: Grid, row: number, headerCols: number): boolean {
  if (headerCols === 0 || rowLabel(g, row, headerCols).length > 0) return false
  let found: string | null = null
  let firstCol = -1
  for (let c = headerCols; c < g.cols; c++) {
    const t = rawText(g, row, c)
    if (t.length === 0) continue
    if (found !== null) return false
    found = t
    firstCol = c
  }
  if (found === null || cellKind(found) !== 'text' || isYearLike(found)) return false
  const m = regionAt(g, row, firstCol)
  const spansData = m !== null && m.right > m.left
  // A longer text merged across the data ("implicit price indexes, percentage change") is still a unit.
  if (found.length > (spansData ? 80 : 40)) return false
  if (spansData || UNIT_WORDS.test(found)) return true
  // A lone text in the first data column is a unit only where the row has no label of its own: not under a label
  // merged down from the rows above ("Gortynia" over its old municipalities, one per row).
  return firstCol === headerCols && !labelFromAbove(g, row, headerCols)
}

/** A left header cell of the row lies under a merge anchored in an earlier row. */
export function labelFromAbove(g: Grid, row: number, headerCols: number): boolean {
  for (let c = 0; c < headerCols; c++) {
    const m = regionAt(g, row, c)
    if (m !== null && m.top < row) return true
  }
  return false
}

/** A label whose data area is one short text merged across all of it ("region of ancestry | percent"). */
export function labelledUnit(g: Grid, row: number, headerCols: number): boolean {
  if (headerCols >= g.cols - 1) return false
  const m = regionAt(g, row, headerCols)
  if (m === null || m.top !== row || m.left !== headerCols || m.right < g.cols - 1) return false
  const text = rawText(g, row, headerCols)
  return text.length <= 40 && UNIT_WORDS.test(text)
}

export function classifyRow(g: Grid, row: number, headerCols: number): RowRole {
  if (placeholdersOnly(g, row)) return 'empty'
  const hasData = !dataEmpty(g, row, headerCols)
  const label = rowLabel(g, row, headerCols)
  if (!hasData && label.length > 0 && sharesMergedData(g, row, headerCols)) return 'data'
  if (!hasData) return label.length === 0 ? 'empty' : isNote(g, row, headerCols, label) ? 'note' : 'section'
  if (label.length > 0 && labelledUnit(g, row, headerCols)) return 'section'
  if (isUnitRow(g, row, headerCols)) return 'unit'
  return 'data'
}

/** A data cell of the row lies under a merge with text that starts in a row above ("No Team" over 3 seasons). */
export function sharesMergedData(g: Grid, row: number, headerCols: number): boolean {
  for (let c = headerCols; c < g.cols; c++) {
    const m = regionAt(g, row, c)
    if (m !== null && m.top < row && m.left >= headerCols && rawText(g, m.top, m.left).length > 0) return true
  }
  return false
}

// "Total", "Sub-total", "Ensemble", "Insgesamt", "Suma"; not "all other industries" (knowledge/*.json).
const TOTAL = opening(['total', 'subtotal'], { except: ['notTotal'] })

/** A label that names a total ("total", "all ages", "overall"), not "all other industries". */
export function isTotalLabel(label: string): boolean {
  return TOTAL.test(label)
}

// Labels ending in "overall" or "total" ("provinces overall", "u.s. total", with a footnote letter glued on as
// in "u.s. totala"). Place names that head their regions ("canada" over its provinces) are found by the sums
// (aggregates.ts) and by a short list of countries and their regions (regionParts in label-cues.ts).
const WHOLE = ending('wholeEnd', '[a-f]?')

/** A label that names the whole of the rows listed under it: a total, "… total" or "… overall". */
export function isWholeLabel(label: string): boolean {
  return TOTAL.test(label) || WHOLE.test(label)
}

// "Source: …", "Note :", "Quelle:", "Fuente:"; a legend line ("* denotes …", "x bedeutet …").
const REMARK = new RegExp(
  String.raw`^(?:${alternatives(['remarks'])})\.?\s*:|^["'“]?[-–—*]["'”]?\s+(?:${alternatives(['legendVerbs'])})`,
  'iu'
)

export function isNote(g: Grid, row: number, headerCols: number, label: string): boolean {
  if (REMARK.test(label)) return true
  if (headerCols < 2) return false
  const m = regionAt(g, row, 0)
  return m !== null && m.top === row && m.left === 0 && m.right === g.cols - 1
}

/** Every cell is empty or a missing marker ("none | none | none"): a blank row written with placeholders. */
export function placeholdersOnly(g: Grid, row: number): boolean {
  let markers = 0
  for (let c = 0; c < g.cols; c++) {
    const text = rawText(g, row, c)
    // Only a marker reads as one: any other written cell ends the question without being read as a number.
    if (text.length > 0 && !isMissingMarker(text)) return false
    const kind = cellKind(text)
    if (kind === 'missing') markers++
    else if (kind !== 'empty') return false
  }
  return markers >= 2
}
