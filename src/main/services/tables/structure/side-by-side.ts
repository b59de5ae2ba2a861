import type { RawGrid } from '../../../../shared/table'
import { blankColumns, cropGrid, normalizeGrid, uncrossed } from './grid'
import { detectTitleRows, titleText } from './margins'
import { cellKind } from './number'

// A part must be a table: this many columns, and rows with two filled cells or more.
const MIN_COLUMNS = 2
const MIN_ROWS = 2

/**
 * A sheet that holds several tables next to one another, with a blank column between them ("This worksheet
 * contains three tables next to one another horizontally"), split into one grid per table. A blank column is
 * empty in every row and crossed by no merge. Each part must look like a table of its own: two columns or
 * more, two rows or more with two filled cells, numbers somewhere, and a first column of labels (more text
 * than numbers). A title merged across the whole sheet does not join the parts: it is each part's title.
 * Otherwise (a spacer column between the label column and the data, between data columns, or before a column
 * of notes) the grid is returned whole. Parts are named "<sheet> (k of n)"; their merges
 * and styles move with their cells, and `sheetColumn` keeps where they start, so that their source
 * references name the sheet's cells.
 */
export function splitSideBySide(g: RawGrid): RawGrid[] {
  if (g.relational !== undefined || g.hints?.records === true) return [g]
  const cols = g.cells.reduce((w, row) => Math.max(w, row.length), 0)
  if (cols < 2 * MIN_COLUMNS + 1) return [g]
  // Blank by their cells, then not crossed by a merge below the title block: a title merged across the whole
  // sheet is shared by the tables under it, and each part gets its text.
  const byCells = blankColumns(g.cells, [], cols)
  if (byCells === null) return [g]
  let blank = uncrossed(byCells, g.merges)
  let sharedTitle = ''
  if (blank === null) {
    const whole = normalizeGrid(g)
    const titleRows = detectTitleRows(whole)
    if (titleRows === 0) return [g]
    blank = uncrossed(
      byCells,
      g.merges.filter((m) => Math.max(m.top, m.bottom) >= titleRows)
    )
    if (blank === null) return [g]
    sharedTitle = titleText(whole, titleRows)
  }
  const parts: { left: number; right: number }[] = []
  let c = 0
  while (c < cols) {
    while (c < cols && blank[c] === 1) c++
    if (c >= cols) break
    const left = c
    while (c < cols && blank[c] === 0) c++
    parts.push({ left, right: c - 1 })
  }
  if (parts.length < 2 || !parts.every((p) => tableLike(g, p.left, p.right))) return [g]
  return parts.map((p, k) => {
    const part = cut(g, p.left, p.right, `${g.name} (${k + 1} of ${parts.length})`)
    return sharedTitle === '' ? part : { ...part, hints: { ...part.hints, title: sharedTitle } }
  })
}

function tableLike(g: RawGrid, left: number, right: number): boolean {
  if (right - left + 1 < MIN_COLUMNS) return false
  let rows = 0
  let numbers = 0
  let labelTexts = 0
  let labelNumbers = 0
  for (const row of g.cells) {
    let filled = 0
    for (let c = left; c <= right; c++) {
      const kind = cellKind(row[c] ?? '')
      if (kind === 'empty') continue
      filled++
      if (kind === 'number' && c > left) numbers++
    }
    if (filled < 2) continue
    rows++
    const label = cellKind(row[left] ?? '')
    if (label === 'text') labelTexts++
    else if (label === 'number') labelNumbers++
  }
  return rows >= MIN_ROWS && numbers > 0 && labelTexts > labelNumbers
}

function cut(g: RawGrid, left: number, right: number, name: string): RawGrid {
  return { ...cropGrid(g, { left, right }), name, sheetColumn: (g.sheetColumn ?? 0) + left }
}
