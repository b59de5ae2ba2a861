import type { StructureOptions } from '../../../../shared/table'
import { cellKind, isDateLike, isMissingMarker } from './number'
import { rawText, regionAt, type Grid } from './grid'
import { detectHeaderCols, labelColumnLikely } from './header-cols'
import { repeatedHeaderRows } from './repeated-headers'
import { countRow, isUnitRow } from './rows'

// Header rows sit at the top; looking further down only costs time on large tables.
const MAX_HEADER_ROWS = 12
const SAMPLE_ROWS = 200

/** Guess the number of top header rows and left header columns. O(cells of the first rows). */
export function detectHeaders(g: Grid): StructureOptions {
  if (g.rows === 0 || g.cols === 0) return { headerRows: 0, headerCols: 0, leftHierarchy: 'auto' }
  const corner = regionAt(g, 0, 0)
  const cornerLike = corner !== null ? corner.right === corner.left : rawText(g, 0, 0).length === 0
  const probeCols = g.cols > 1 && (labelColumnLikely(g) || cornerLike) ? 1 : 0
  const headerRows = headerWrittenAgain(g, detectHeaderRows(g, probeCols), probeCols)
  const headerCols = detectHeaderCols(g, headerRows)
  return { headerRows, headerCols, leftHierarchy: 'auto' }
}

/**
 * The header as the body writes it again: when the first `k` header rows recur together further down
 * (over every few rows of a long web table, over a second stacked table), the header is those `k` rows, the
 * most that recur; rows read as header after them are the first body rows. `h` when no header row recurs.
 */
function headerWrittenAgain(g: Grid, h: number, probeCols: number): number {
  if (h < 2) return h
  const repeats = repeatedHeaderRows(g, h, probeCols)
  let best = 0
  for (const r of repeats) {
    if (best === h) break
    let k = 0
    while (k < h && r + k < g.rows && sameDataCells(g, k, r + k, probeCols)) k++
    if (k > best) best = k
  }
  return best > 0 && best < h ? best : h
}

function sameDataCells(g: Grid, a: number, b: number, from: number): boolean {
  for (let c = from; c < g.cols; c++) if (rawText(g, a, c) !== rawText(g, b, c)) return false
  return true
}

/** The next row below `r` with cells beyond the first column (a section label alone is skipped) has numbers. */
function numbersInNextRecord(g: Grid, r: number, probeCols: number): boolean {
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
function unmarkedRow(g: Grid, r: number): boolean {
  let written = 0
  for (let c = 1; c < g.cols; c++) {
    if (rawText(g, r, c) === '') continue
    if (g.headerCell(r, c)) return false
    written++
  }
  return written > 0
}

function detectHeaderRows(g: Grid, probeCols: number): number {
  if (g.rows === 1) return 1
  const first = countRow(g, 0, probeCols)
  // A first row of plain numbers is data: the grid has no header row.
  if (first.numbers > 0 && first.numbers + first.missing >= first.filled * 0.6 && first.texts === 0) return 0
  let h = 1
  const limit = Math.min(g.rows - 1, MAX_HEADER_ROWS)
  // A source that marks its header cells (HTML `<th>`): the header ends at the first row whose cells beyond the
  // first column are all unmarked, however much they read like header labels.
  while (h < limit && !lineNumbersFrom(g, h) && !(g.marksHeaders && unmarkedRow(g, h)) && isHeaderRow(g, h, probeCols)) h++
  return probeCols > 0 ? seriesMetadataEnd(g, h) : h
}

/**
 * The first column numbers the rows from this one down ("1", "2", "3" under "Line"): the body starts here,
 * however the labels beside the numbers are laid out (a code list that shows depth by the column a label
 * sits in reads like a cascade of header rows).
 */
function lineNumbersFrom(g: Grid, r: number): boolean {
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

/**
 * A sheet of time series, one column per series, dates down the first column, with a block of metadata rows
 * between the series names and the first date ("Unit | Index Numbers …", "Series Type | Original …", …,
 * "Series ID | A2325806K …"): the block belongs to the header. Each of its rows is named in the first column
 * and filled across the series; most of them hold text ("Original", "A2325806K"), some numbers ("No. Obs |
 * 282 | 250"). A lone row of numbers above the dates is a total ("all years | 10 | 20"), not such a block.
 * Returns the header row count: `h` when there is no block.
 */
function seriesMetadataEnd(g: Grid, h: number): number {
  const limit = Math.min(g.rows - 1, MAX_HEADER_ROWS)
  let d = h
  let textual = 0
  while (d < limit && !isDateLike(rawText(g, d, 0))) {
    const kind = metadataRow(g, d)
    if (kind === 'none') return h
    if (kind === 'text') textual++
    d++
  }
  if (d === h || d >= limit || textual * 2 < d - h) return h
  let dates = 0
  let filled = 0
  for (let r = d; r < Math.min(g.rows, d + SAMPLE_ROWS); r++) {
    const t = rawText(g, r, 0)
    if (t.length === 0) continue
    filled++
    if (isDateLike(t)) dates++
  }
  return filled >= 3 && dates >= 0.9 * filled ? d : h
}

/** A row named in the first column and filled across: 'text' when it is mostly text, else 'values'. */
function metadataRow(g: Grid, r: number): 'text' | 'values' | 'none' {
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

function isHeaderRow(g: Grid, r: number, probeCols: number): boolean {
  // Column numbers ("1 | 2 | 3 | 1 | 2 | 3") under the column names, with the corner merged down to them.
  if (cornerReaches(g, r) && columnNumbers(g, r, probeCols)) return true
  // A unit-like row ("December 31," over the data) with another header row below it is part of the header.
  if (probeCols > 0 && isUnitRow(g, r, probeCols) && !(r + 1 < g.rows - 1 && plainHeaderRow(g, r + 1, probeCols))) return false
  const counts = countRow(g, r, probeCols)
  // A row with nothing of its own, inside merges reaching down from the header, is still the header.
  if (counts.filled === 0) return coveredThroughout(g, r) || headerContinuesBelow(g, r, probeCols)
  if (stubHeadAndUnit(g, r)) return true
  const labelFree = labelCellsFree(g, r, probeCols)
  const above = countRow(g, r - 1, probeCols)
  // Below a spanning parent, or inside a merge anchored above: the children of a header row.
  const structural = coveredFromAbove(g, r, probeCols) || above.spans > 0 || spreadOut(g, r - 1, probeCols)
  if (structural && r < g.rows - 1) {
    // In a file of records (CSV), a row of texts under a parent is a row of child labels only over numbers: over
    // a body of texts (names, dates, scores) it reads the same as the first record.
    if (g.records && counts.numbers === 0 && !numbersInNextRecord(g, r, probeCols)) return false
    // Children may be small numbers ("1 | 2 | 3" years since); a label there is the corner's own ("year").
    if (labelFree) return true
    return (counts.numbers === 0 && counts.missing === 0) || (counts.texts >= 2 && ascendingWholeNumbers(g, r, probeCols))
  }
  if (!labelFree && namesEveryColumn(g, r)) return true
  if (!labelFree || counts.numbers > 0 || counts.missing > 0) return false
  // A file of records names its columns in one row: a second row of texts without a parent above it is a record.
  if (g.records) return false
  return counts.texts + counts.years > 0
}

/**
 * An empty row inside the header: header labels merged from above reach into it and more header follows
 * ("Public" merged down over a spacer row, then a row of series codes), or a plain header row follows it
 * ("| | NSA | | SA" under a blank row, above the data): the header goes on.
 */
function headerContinuesBelow(g: Grid, r: number, probeCols: number): boolean {
  let next = r + 1
  while (next < Math.min(g.rows - 1, MAX_HEADER_ROWS) && countRow(g, next, probeCols).filled === 0) next++
  if (next >= Math.min(g.rows - 1, MAX_HEADER_ROWS) || countRow(g, next, probeCols).filled === 0) return false
  if (coveredFromAbove(g, r, probeCols)) return isHeaderRow(g, next, probeCols)
  return plainHeaderRow(g, next, probeCols)
}

function cornerReaches(g: Grid, r: number): boolean {
  const m = regionAt(g, r, 0)
  return m !== null && m.top === 0 && m.left === 0 && m.bottom >= r && m.right < g.cols - 1 && r < g.rows - 1
}

/**
 * The last header row names every column, the label columns included ("Line | Description | C1 | C2 | …"),
 * with text only, and a row of numbers follows it.
 */
function namesEveryColumn(g: Grid, r: number): boolean {
  if (r + 1 >= g.rows) return false
  for (let c = 0; c < g.cols; c++) if (cellKind(rawText(g, r, c)) !== 'text') return false
  const below = countRow(g, r + 1, 1)
  return below.numbers > 0 && below.numbers + below.missing >= below.filled * 0.6
}

/** Three or more small whole numbers counting up by one, starting again at 1 for each group of columns. */
function columnNumbers(g: Grid, r: number, fromCol: number): boolean {
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
function ascendingWholeNumbers(g: Grid, r: number, fromCol: number): boolean {
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
function plainHeaderRow(g: Grid, r: number, probeCols: number): boolean {
  if (!labelCellsFree(g, r, probeCols)) return false
  const counts = countRow(g, r, probeCols)
  return counts.numbers === 0 && counts.missing === 0 && counts.texts + counts.years >= 2
}

/** The row's left header cells are empty or covered by a merge anchored in an earlier row. */
function labelCellsFree(g: Grid, r: number, probeCols: number): boolean {
  for (let c = 0; c < probeCols; c++) {
    const m = regionAt(g, r, c)
    if (m !== null) {
      if (m.top >= r) return false
    } else if (cellKind(rawText(g, r, c)) !== 'empty' && !isMissingMarker(rawText(g, r, c))) return false
  }
  return true
}

function coveredFromAbove(g: Grid, r: number, fromCol: number): boolean {
  if (g.owner === null) return false
  for (let c = fromCol; c < g.cols; c++) {
    const m = regionAt(g, r, c)
    if (m !== null && m.top < r) return true
  }
  return false
}

/** Text cells separated by empty ones ("2018, , 2019, "): parents written once over several columns. */
function spreadOut(g: Grid, r: number, fromCol: number): boolean {
  let seenText = false
  for (let c = fromCol; c < g.cols; c++) {
    const t = rawText(g, r, c)
    if (t.length > 0) seenText = true
    else if (seenText && regionAt(g, r, c) === null) return true
  }
  return false
}

/** Every cell of the row is covered by a merge anchored in an earlier row. */
function coveredThroughout(g: Grid, r: number): boolean {
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
function stubHeadAndUnit(g: Grid, r: number): boolean {
  if (!labelAndUnit(g, r)) return false
  for (let q = 0; q < r; q++) if (rawText(g, q, 0).length > 0 || regionAt(g, q, 0) !== null) return false
  const end = Math.min(g.rows, r + SAMPLE_ROWS)
  for (let q = r + 1; q < end; q++) if (labelAndUnit(g, q)) return false
  return true
}

/** A text label in column 0 and one text merged over every other column of that row. */
function labelAndUnit(g: Grid, r: number): boolean {
  if (g.cols < 3 || cellKind(rawText(g, r, 0)) !== 'text') return false
  const m = regionAt(g, r, 1)
  if (m === null || m.top !== r || m.bottom !== r || m.left !== 1 || m.right !== g.cols - 1) return false
  return cellKind(rawText(g, r, 1)) === 'text'
}
