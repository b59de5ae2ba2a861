/**
 * The margins of a table in a sheet: the title block above it and the notes below it, which belong to
 * neither its header nor its body.
 */
import type { RawGrid } from '../../../../shared/table'
import { cropGrid, rawText, type Grid } from './grid'
import { resolveNotes } from './rules/notes'
import { resolveTitle } from './rules/title'

/**
 * Rows above the table that spreadsheets fill with a title block (see rules/title.ts). Returns how many
 * leading rows form that block (0 when the grid starts with its header).
 */
export function detectTitleRows(g: Grid): number {
  return resolveTitle(g).rows
}

/**
 * The notes under the table (see rules/notes.ts): the first row of that block from body row `from` on, or
 * `g.rows` when there are none.
 */
export function detectNoteRows(g: Grid, from: number): number {
  return resolveNotes(g, from).from
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
