/**
 * What the header-row rules read in a row: the shape of its cells against the rows around it. Shared by the
 * rules of stages `header-rows` and `header-extent`; none of them decides anything on its own.
 */
import { cellKind, isMissingMarker } from '../number'
import { rawText, regionAt, type Grid } from '../grid'
import { countRow } from '../rows'

// Header rows sit at the top; looking further down only costs time on large tables.
export const MAX_HEADER_ROWS = 12
export const SAMPLE_ROWS = 200

/** The next row below `r` with cells beyond the first column (a section label alone is skipped) has numbers. */
export function numbersInNextRecord(g: Grid, r: number, probeCols: number): boolean {
  for (let q = r + 1; q < Math.min(g.rows, r + 1 + MAX_HEADER_ROWS); q++) {
    if (countRow(g, q, 1).filled === 0) continue
    return countRow(g, q, probeCols).numbers > 0
  }
  return false
}

/**
 * The row has written cells beyond the first column, and the source marks none of them as a header cell (a
 * first column of `<th>` row labels does not count).
 */
export function unmarkedRow(g: Grid, r: number): boolean {
  let written = 0
  for (let c = 1; c < g.cols; c++) {
    if (rawText(g, r, c) === '') continue
    if (g.headerCell(r, c)) return false
    written++
  }
  return written > 0
}

/**
 * The first column numbers the rows from this one down ("1", "2", "3" under "Line"): the body starts here,
 * however the labels beside the numbers are laid out (a code list that shows depth by the column a label
 * sits in reads like a cascade of header rows).
 */
export function lineNumbersFrom(g: Grid, r: number): boolean {
  if (r + 2 >= g.rows) return false
  let previous = -1
  for (let q = r; q < r + 3; q++) {
    const t = rawText(g, q, 0).trim()
    if (!/^\d{1,5}$/.test(t)) return false
    const n = Number(t)
    if (previous >= 0 && n !== previous + 1) return false
    previous = n
  }
  return true
}

export function cornerReaches(g: Grid, r: number): boolean {
  const m = regionAt(g, r, 0)
  return m !== null && m.top === 0 && m.left === 0 && m.bottom >= r && m.right < g.cols - 1 && r < g.rows - 1
}

/**
 * The last header row names every column, the label columns included ("Line | Description | C1 | C2 | …"),
 * with text only, and a row of numbers follows it.
 */
export function namesEveryColumn(g: Grid, r: number): boolean {
  if (r + 1 >= g.rows) return false
  for (let c = 0; c < g.cols; c++) if (cellKind(rawText(g, r, c)) !== 'text') return false
  const below = countRow(g, r + 1, 1)
  return below.numbers > 0 && below.numbers + below.missing >= below.filled * 0.6
}

/** Three or more small whole numbers counting up by one, starting again at 1 for each group of columns. */
export function columnNumbers(g: Grid, r: number, fromCol: number): boolean {
  let count = 0
  let previous = 0
  for (let c = fromCol; c < g.cols; c++) {
    const t = rawText(g, r, c)
    if (t.length === 0) continue
    if (!/^\d{1,3}$/.test(t)) return false
    const n = Number(t)
    if (n !== previous + 1 && n !== 1) return false
    previous = n
    count++
  }
  return count >= 3
}

/**
 * The row's numbers are three or more whole numbers rising from left to right, beside texts: header labels
 * that happen to be numbers ("Median | Mean | 10 | 20 | 25 … 90" under "Percentiles").
 */
export function ascendingWholeNumbers(g: Grid, r: number, fromCol: number): boolean {
  let count = 0
  let previous = -Infinity
  for (let c = fromCol; c < g.cols; c++) {
    const t = rawText(g, r, c)
    const kind = cellKind(t)
    if (kind === 'missing') return false
    if (kind !== 'number') continue
    if (!/^\d{1,4}$/.test(t.trim())) return false
    const n = Number(t)
    if (n <= previous) return false
    previous = n
    count++
  }
  return count >= 3
}

/** No row label and at least two texts or years, no numbers: a header row whatever surrounds it. */
export function plainHeaderRow(g: Grid, r: number, probeCols: number): boolean {
  if (!labelCellsFree(g, r, probeCols)) return false
  const counts = countRow(g, r, probeCols)
  return counts.numbers === 0 && counts.missing === 0 && counts.texts + counts.years >= 2
}

/** The row's left header cells are empty or covered by a merge anchored in an earlier row. */
export function labelCellsFree(g: Grid, r: number, probeCols: number): boolean {
  for (let c = 0; c < probeCols; c++) {
    const m = regionAt(g, r, c)
    if (m !== null) {
      if (m.top >= r) return false
    } else if (cellKind(rawText(g, r, c)) !== 'empty' && !isMissingMarker(rawText(g, r, c))) return false
  }
  return true
}

export function coveredFromAbove(g: Grid, r: number, fromCol: number): boolean {
  if (g.owner === null) return false
  for (let c = fromCol; c < g.cols; c++) {
    const m = regionAt(g, r, c)
    if (m !== null && m.top < r) return true
  }
  return false
}

/** Text cells separated by empty ones ("2018, , 2019, "): parents written once over several columns. */
export function spreadOut(g: Grid, r: number, fromCol: number): boolean {
  let seenText = false
  for (let c = fromCol; c < g.cols; c++) {
    const t = rawText(g, r, c)
    if (t.length > 0) seenText = true
    else if (seenText && regionAt(g, r, c) === null) return true
  }
  return false
}

/** Every cell of the row is covered by a merge anchored in an earlier row. */
export function coveredThroughout(g: Grid, r: number): boolean {
  if (g.owner === null) return false
  for (let c = 0; c < g.cols; c++) {
    const m = regionAt(g, r, c)
    if (m === null || m.top >= r) return false
  }
  return true
}

/**
 * The first label under an empty corner beside one unit merged over every data column ("number of
 * victimizations | percent"): the label names the label column and the unit qualifies the data, so the row
 * belongs to the header. When later rows have the same shape, each of them heads a section of the body.
 */
export function stubHeadAndUnit(g: Grid, r: number): boolean {
  if (!labelAndUnit(g, r)) return false
  for (let q = 0; q < r; q++) if (rawText(g, q, 0).length > 0 || regionAt(g, q, 0) !== null) return false
  const end = Math.min(g.rows, r + SAMPLE_ROWS)
  for (let q = r + 1; q < end; q++) if (labelAndUnit(g, q)) return false
  return true
}

/** A text label in column 0 and one text merged over every other column of that row. */
export function labelAndUnit(g: Grid, r: number): boolean {
  if (g.cols < 3 || cellKind(rawText(g, r, 0)) !== 'text') return false
  const m = regionAt(g, r, 1)
  if (m === null || m.top !== r || m.bottom !== r || m.left !== 1 || m.right !== g.cols - 1) return false
  return cellKind(rawText(g, r, 1)) === 'text'
}

/** A row named in the first column and filled across: 'text' when it is mostly text, else 'values'. */
export function metadataRow(g: Grid, r: number): 'text' | 'values' | 'none' {
  if (cellKind(rawText(g, r, 0)) !== 'text') return 'none'
  let filled = 0
  let texts = 0
  for (let c = 1; c < g.cols; c++) {
    const t = rawText(g, r, c)
    if (t.length === 0) continue
    filled++
    if (cellKind(t) === 'text') texts++
  }
  if (filled < 0.8 * (g.cols - 1)) return 'none'
  return texts >= 0.8 * filled ? 'text' : 'values'
}

export function sameDataCells(g: Grid, a: number, b: number, from: number): boolean {
  for (let c = from; c < g.cols; c++) if (rawText(g, a, c) !== rawText(g, b, c)) return false
  return true
}
