/**
 * The margins of a table in a sheet: the title block above it and the notes below it, which belong to
 * neither its header nor its body.
 */
import type { RawGrid } from '../../../../shared/table'
import { cellKind } from './number'
import { cropGrid, rawText, regionAt, type Grid } from './grid'
import { UNIT_WORDS } from './rows'

// A title block is a few lines; a table needs a header row and a data row below it.
const MAX_TITLE_ROWS = 20
const TABLE_ROWS_BELOW = 2
// An unmerged line this long over a table is a sentence (a title, a source note), not a column name.
const SENTENCE = 50
// "1", "1a", "A", "B2": a table number written in the first column beside its title.
const TABLE_NUMBER = /^[a-z]?\d{0,3}[a-z]?\.?$/i
const TITLE_WORDS = /^(?:table|figure|chart|exhibit|source|sources|note|notes|footnote|released|published|\(|\[)/i

/**
 * Rows above the table that spreadsheets fill with a title block: the title, a unit line ("[Numbers in
 * thousands]"), source and release lines, and the blank rows between them. They belong to neither the header
 * nor the body. Returns how many leading rows form that block (0 when the grid starts with its header).
 *
 * A row is a title line when it holds one text and nothing else, written in the grid's first used column
 * (merged along the row from there, or not), or merged across the whole width, or a sentence or a line that
 * reads like one ("Table 1.", "Source:", "(Dollar amounts in thousands)"); or a short table number and its
 * title ("1a | Construction output"); or the same line repeated over tables side by side. A spanning
 * header label over the data columns ("| volunteer rate" merged over them) is none of these. The block ends at
 * the first other row, which must start a table of two rows or more: a list of lone lines has no title block.
 */
export function detectTitleRows(g: Grid): number {
  if (g.rows < TABLE_ROWS_BELOW + 1 || g.cols < 2) return 0
  const first = firstUsedColumn(g)
  const last = lastUsedColumn(g)
  const limit = Math.min(MAX_TITLE_ROWS, g.rows - TABLE_ROWS_BELOW)
  let r = 0
  // Column of the previous row's title text, while the lines follow each other without a blank row.
  let textCol = -1
  let titled = false
  while (r < limit) {
    if (emptyRow(g, r)) textCol = -1
    else {
      textCol = titleLine(g, r, first, last, textCol, titled)
      if (textCol < 0) break
      titled = true
    }
    r++
  }
  return r >= limit ? 0 : r
}

// Notes under a table are a few lines; a list of lone lines is not a table with notes.
const MAX_NOTE_ROWS = 40
// "1 Includes …", "a) …", "* Excludes …", "† …": a footnote's marker.
const FOOTNOTE = /^(?:\(?(?:\d{1,2}|[a-z])[.):]|\*{1,3}|[†‡§]|\d{1,2}\s+[A-Z])\s*\S/
const REMARK = /^(?:sources?|notes?|footnotes?|symbols?|ref\.?|references?|released|revised|p\s*=|r\s*=)\b/i

/**
 * The notes under the table: the last rows of the grid, from the body row `from` on, that each hold one text
 * and nothing else and read like a note ("Source: …", "NOTE: …", "1 Includes …", a sentence, an address),
 * with the blank rows between them. Returns the first row of that block, or `g.rows` when there are none. A
 * table needs a row that is not a note above them.
 */
export function detectNoteRows(g: Grid, from: number): number {
  let start = g.rows
  let seen = 0
  for (let r = g.rows - 1; r >= from && g.rows - r <= MAX_NOTE_ROWS; r--) {
    if (emptyRow(g, r)) continue
    if (!noteLine(g, r)) break
    start = r
    seen++
  }
  if (seen === 0 || start <= from) return g.rows
  // Blank rows between the body and the notes stay with the body (they are dropped there anyway).
  return start
}

function noteLine(g: Grid, r: number): boolean {
  let filled = -1
  for (let c = 0; c < g.cols; c++) {
    if (rawText(g, r, c).length === 0) continue
    if (filled >= 0) return false
    filled = c
  }
  if (filled < 0 || !textCell(g, r, filled)) return false
  const text = rawText(g, r, filled)
  // A line written across the whole table, three columns or more ("OFFICIAL BOX SCORE", a web table's footer).
  const m = regionAt(g, r, filled)
  if (m !== null && m.top === r && m.bottom === r && m.left === 0 && m.right === g.cols - 1 && g.cols >= 3) return true
  return prose(text) || REMARK.test(text) || FOOTNOTE.test(text)
}

/** The text of the title block, one line per non-empty row. */
export function titleText(g: Grid, rows: number): string {
  return linesOf(g, 0, Math.min(rows, g.rows))
}

/** The text of the notes under the table, one line per non-empty row from `from` on. */
export function noteText(g: Grid, from: number): string {
  return linesOf(g, from, g.rows)
}

function linesOf(g: Grid, from: number, to: number): string {
  const lines: string[] = []
  for (let r = from; r < to; r++) {
    const parts: string[] = []
    for (let c = 0; c < g.cols; c++) {
      const t = rawText(g, r, c).replace(/\s+/g, ' ')
      if (t.length > 0) parts.push(t)
    }
    if (parts.length > 0) lines.push(parts.join(' '))
  }
  return lines.join('\n')
}

/** The grid without its first `rows` rows: merges, styles and all move up with the cells. */
export function dropLeadingRows(raw: RawGrid, rows: number): RawGrid {
  return cropGrid(raw, { top: rows })
}

/** The column holding the row's title text when the row is a title line, else -1. */
function titleLine(g: Grid, r: number, first: number, last: number, previous: number, titled: boolean): number {
  const filled: number[] = []
  for (let c = 0; c < g.cols; c++) {
    if (rawText(g, r, c).length === 0) continue
    filled.push(c)
    if (filled.length > 3) return -1
  }
  const [a, b] = filled
  if (a === undefined || reachesIntoTable(g, r)) return -1
  if (filled.length === 1)
    return lineOfText(g, r, a, first, last) || continues(g, r, a, previous) || (titled && unitLine(g, r, a, last)) ? a : -1
  // "1a | Construction output in Great Britain": a table number beside its title.
  if (filled.length === 2 && b !== undefined && a === first && TABLE_NUMBER.test(rawText(g, r, a)) && textCell(g, r, b)) return b
  // Tables side by side, each with the same line above it ("This worksheet contains one table." twice).
  if (filled.every((c) => rawText(g, r, c) === rawText(g, r, a)) && (lineOfText(g, r, a, first, last) || continues(g, r, a, previous)))
    return a
  // A paragraph that runs over several cells ("http://… | and | http://…").
  return prose(rawText(g, r, a)) && filled.every((c) => textCell(g, r, c)) ? a : -1
}

function lineOfText(g: Grid, r: number, c: number, first: number, last: number): boolean {
  if (!textCell(g, r, c)) return false
  const m = regionAt(g, r, c)
  const unmerged = m === null || m.right === m.left
  if (m !== null && m.left <= first && m.right >= last) return true
  // Merged over the first columns only, alone on its row ("Overall response rates (%)" over three of seven
  // columns): a header band over the data columns would not start in the first column.
  if (m !== null && m.left <= first && m.top === m.bottom) return true
  if (prose(rawText(g, r, c)) && (unmerged || (m !== null && (m.left <= first || m.right >= last)))) return true
  return unmerged && c === first
}

/**
 * Under a title, the unit or base of the whole table on a line of its own ("thousands", "2018=100" at the
 * right edge). Without a title above it, such a line is the top of the header ("| percent" over the data).
 */
function unitLine(g: Grid, r: number, c: number, last: number): boolean {
  const m = regionAt(g, r, c)
  return (m === null || m.right === m.left) && (c === last || UNIT_WORDS.test(rawText(g, r, c)))
}

/** The next line of the title above, in its column ("Summary of balance of payments" then "Balances"). */
function continues(g: Grid, r: number, c: number, previous: number): boolean {
  const m = regionAt(g, r, c)
  return c === previous && textCell(g, r, c) && (m === null || m.right === m.left)
}

/** A text, not a number. */
function textCell(g: Grid, r: number, c: number): boolean {
  return cellKind(rawText(g, r, c)) === 'text'
}

/**
 * A cell of the row is merged down into a row that has content of its own: a header's corner or label
 * reaching into the header rows below. A title merged over a few otherwise empty rows is not that.
 */
function reachesIntoTable(g: Grid, r: number): boolean {
  if (g.owner === null) return false
  for (let c = 0; c < g.cols; c++) {
    const m = regionAt(g, r, c)
    if (m === null) continue
    if (m.top < r) return true
    for (let q = r + 1; q <= m.bottom; q++) if (!emptyRow(g, q)) return true
  }
  return false
}

/** A sentence, an address or a line that reads like a title, a source or a unit note. */
function prose(text: string): boolean {
  return text.length >= SENTENCE || TITLE_WORDS.test(text) || /^(?:https?:\/\/|www\.)/i.test(text)
}

function emptyRow(g: Grid, r: number): boolean {
  for (let c = 0; c < g.cols; c++) if (rawText(g, r, c).length > 0) return false
  return true
}

function firstUsedColumn(g: Grid): number {
  let first = g.cols
  for (let r = 0; r < g.rows && first > 0; r++) {
    for (let c = 0; c < first; c++) {
      if ((g.cells[r]?.[c] ?? '').trim().length > 0) {
        first = c
        break
      }
    }
  }
  return first === g.cols ? 0 : first
}

function lastUsedColumn(g: Grid): number {
  let last = -1
  for (let r = 0; r < g.rows && last < g.cols - 1; r++) {
    for (let c = g.cols - 1; c > last; c--) {
      if ((g.cells[r]?.[c] ?? '').trim().length > 0) {
        last = c
        break
      }
    }
  }
  return Math.max(last, 0)
}
