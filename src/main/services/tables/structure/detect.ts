import type { StructureOptions } from '../../../../shared/table'
import { cellKind, isMissingMarker, isYearLike } from './number'
import { rawText, regionAt, type Grid } from './grid'
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
  const headerRows = detectHeaderRows(g, probeCols)
  const headerCols = detectHeaderCols(g, headerRows)
  return { headerRows, headerCols, leftHierarchy: 'auto' }
}

/** Column 0 reads as labels: mostly text (or years) below the first row. */
function labelColumnLikely(g: Grid): boolean {
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

function detectHeaderRows(g: Grid, probeCols: number): number {
  if (g.rows === 1) return 1
  const first = countRow(g, 0, probeCols)
  // A first row of plain numbers is data: the grid has no header row.
  if (first.numbers > 0 && first.numbers + first.missing >= first.filled * 0.6 && first.texts === 0) return 0
  let h = 1
  const limit = Math.min(g.rows - 1, MAX_HEADER_ROWS)
  while (h < limit && isHeaderRow(g, h, probeCols)) h++
  return h
}

function isHeaderRow(g: Grid, r: number, probeCols: number): boolean {
  // A unit-like row ("December 31," over the data) with another header row below it is part of the header.
  if (probeCols > 0 && isUnitRow(g, r, probeCols) && !(r + 1 < g.rows - 1 && plainHeaderRow(g, r + 1, probeCols))) return false
  const counts = countRow(g, r, probeCols)
  // A row with nothing of its own, inside merges reaching down from the header, is still the header.
  if (counts.filled === 0) return coveredThroughout(g, r)
  if (stubHeadAndUnit(g, r)) return true
  const labelFree = labelCellsFree(g, r, probeCols)
  const above = countRow(g, r - 1, probeCols)
  // Below a spanning parent, or inside a merge anchored above: the children of a header row.
  const structural = coveredFromAbove(g, r, probeCols) || above.spans > 0 || spreadOut(g, r - 1, probeCols)
  if (structural && r < g.rows - 1) {
    // Children may be small numbers ("1 | 2 | 3" years since); a label there is the corner's own ("year").
    if (labelFree) return true
    return counts.numbers === 0 && counts.missing === 0
  }
  if (!labelFree || counts.numbers > 0 || counts.missing > 0) return false
  return counts.texts + counts.years > 0
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

function detectHeaderCols(g: Grid, headerRows: number): number {
  if (g.cols <= 1 || g.rows <= headerRows) return 0
  if (headerRows >= 1) {
    let k = 0
    while (k < g.cols - 1 && cornerColumn(g, k, headerRows) && !flagColumn(g, k, headerRows)) k++
    // A numeric column under a corner-like header is data (a column named by a vertical merge), except that
    // column 0 of a report with several header rows labels the rows even when the labels are ordinals
    // ("0", "1", "2" years), and a numeric column named in the corner (a vertical merge, or a name under empty
    // cells) after two or more text label columns continues them ("year | team | games": HiTab's sports tables).
    const floor = headerRows >= 2 ? 1 : 0
    while (k > floor && mostlyNumeric(g, k - 1, headerRows) && !continuesLabels(g, k - 1, headerRows)) k--
    if (k > 0) return k
  }
  if (mostlyNumeric(g, 0, headerRows)) return 0
  if (headerRows === 0) return labelColumnLikely(g) ? 1 : 0
  if (hasSectionOrUnitRows(g, headerRows)) return 1
  // Several header rows make a report rather than a list of records: its first column of text labels the rows.
  if (headerRows >= 2 && !g.records) return 1
  // A labelled first column: row labels of a matrix when most other columns are numbers,
  // an ordinary column of a relational table otherwise. In a table of records a first column with a
  // header of its own ("name", "city") is always data.
  if (g.records && headerRows === 1 && rawText(g, 0, 0).length > 0) return 0
  return otherColumnsNumeric(g, headerRows) && !yearColumn(g, headerRows) ? 1 : 0
}

/**
 * Column k belongs to the corner above the row labels: its header cells are all empty, or (with several
 * header rows) it has one label reaching down through the header rows, merged or over empty cells, or its
 * one label sits in the last header row under empty cells ("name | years" below a band of group headers).
 */
function cornerColumn(g: Grid, k: number, headerRows: number): boolean {
  const top = regionAt(g, 0, k)
  if (top !== null) {
    if (top.right > top.left) return false
    return headerRows >= 2 && top.bottom >= headerRows - 1
  }
  if (headerRows >= 2 && namedBelowBlanks(g, k, headerRows)) return true
  for (let r = 1; r < headerRows; r++) if (!blankHeaderCell(rawText(g, r, k))) return false
  return rawText(g, 0, k).length === 0 || headerRows >= 2
}

/** Every header cell of the column above the last header row is empty or a missing marker ("none"). */
function namedBelowBlanks(g: Grid, col: number, headerRows: number): boolean {
  for (let r = 0; r < headerRows - 1; r++) {
    if (regionAt(g, r, col) !== null || !blankHeaderCell(rawText(g, r, col))) return false
  }
  return true
}

const FLAG = /^(?:yes|no|y|n|true|false|[✓✔✗✘])$/i

/** A column of yes/no marks: values, never row labels. */
function flagColumn(g: Grid, col: number, headerRows: number): boolean {
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

function mostlyNumeric(g: Grid, col: number, headerRows: number): boolean {
  let numbers = 0
  let other = 0
  const end = Math.min(g.rows, headerRows + SAMPLE_ROWS)
  for (let r = headerRows; r < end; r++) {
    const t = rawText(g, r, col)
    const kind = cellKind(t)
    if (kind === 'number' && !isYearLike(t)) numbers++
    else if (kind === 'text' || kind === 'number') other++
  }
  return numbers > other
}

function yearColumn(g: Grid, headerRows: number): boolean {
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
function otherColumnsNumeric(g: Grid, headerRows: number): boolean {
  let numeric = 0
  let textual = 0
  const end = Math.min(g.rows, headerRows + SAMPLE_ROWS)
  for (let c = 1; c < g.cols; c++) {
    let numbers = 0
    let texts = 0
    for (let r = headerRows; r < end; r++) {
      const kind = cellKind(rawText(g, r, c))
      if (kind === 'number' || kind === 'missing') numbers++
      else if (kind === 'text') texts++
    }
    if (texts > numbers) textual++
    else numeric++
  }
  return numeric > textual
}

function hasSectionOrUnitRows(g: Grid, headerRows: number): boolean {
  const end = Math.min(g.rows, headerRows + SAMPLE_ROWS)
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

function continuesLabels(g: Grid, col: number, headerRows: number): boolean {
  const named = regionAt(g, 0, col) !== null || (headerRows >= 2 && namedBelowBlanks(g, col, headerRows))
  return named && textColumns(g, col, headerRows) >= 2
}

/** How many of the columns before `before` are not mostly numeric. */
function textColumns(g: Grid, before: number, headerRows: number): number {
  let n = 0
  for (let c = 0; c < before; c++) if (!mostlyNumeric(g, c, headerRows)) n++
  return n
}

/** Empty, or a placeholder that some sources write into empty header cells ("none"). */
function blankHeaderCell(t: string): boolean {
  return t.length === 0 || isMissingMarker(t)
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
