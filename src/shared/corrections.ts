/**
 * Corrections of the left tree made by hand in the inspector, on top of what the structure pass found:
 * a body row moved under another row, or to the top level, with the rows nested under it.
 *
 * Rows are the sheet's rows (0-based, as `HeaderNode.cell`). A move keeps the labels it was made on, so a
 * move that no longer fits the rows (another layout, another reading of the file) is recognised and dropped
 * instead of moving a different row.
 */

import { isCount, isFields, isText } from './check'

export type RowMove = {
  /** The sheet row that moves, with the rows nested under it. */
  row: number
  /** Its label when it was moved (the text of its outermost node in the left tree). */
  label: string
  /** The sheet row it goes under; null: the top level. */
  under: number | null
  /** That row's label when the move was made ('' for the top level). */
  underLabel: string
}

/** More than anyone moves by hand; a bound keeps a damaged file from costing a structure pass per entry. */
export const MAX_ROW_MOVES = 5000
const MAX_LABEL = 2000

/** What reading stored or requested moves kept, and why the others were left out. */
export type ReadMoves = { moves: RowMove[]; problems: string[] }

/** One move read from JSON, or why it is not one. */
function readMove(value: unknown): RowMove | string {
  if (!isFields(value)) return 'it is not an object'
  const { row, label, under, underLabel } = value
  if (!isCount(row)) return 'its row is not a row number'
  if (under !== null && !isCount(under)) return 'the row it goes under is not a row number'
  if (!isText(label, MAX_LABEL) || !isText(underLabel, MAX_LABEL)) return 'its labels are missing'
  if (under === row) return `row ${row + 1} cannot go under itself`
  return { row, label, under, underLabel }
}

/**
 * Moves from JSON (a saved layout, a request): the valid ones in order, the last of each row only, and one
 * problem per entry left out. Never throws.
 */
export function readRowMoves(value: unknown): ReadMoves {
  if (value === undefined) return { moves: [], problems: [] }
  if (!Array.isArray(value)) return { moves: [], problems: ['the moved rows are not a list'] }
  const problems: string[] = []
  const byRow = new Map<number, RowMove>()
  for (const [i, entry] of value.entries()) {
    if (i >= MAX_ROW_MOVES) {
      problems.push(`${value.length - MAX_ROW_MOVES} moves past the first ${MAX_ROW_MOVES} were left out`)
      break
    }
    const move = readMove(entry)
    if (typeof move === 'string') problems.push(`move ${i + 1}: ${move}`)
    else {
      // A later move of the same row replaces the earlier one, and takes its place in the order.
      byRow.delete(move.row)
      byRow.set(move.row, move)
    }
  }
  return { moves: [...byRow.values()], problems }
}

/** The moves with the one for `move.row` replaced by `move` (applied last), or removed when `move` is null. */
export function withRowMove(moves: readonly RowMove[], row: number, move: RowMove | null): RowMove[] {
  const kept = moves.filter((m) => m.row !== row)
  return move === null ? kept : [...kept, move]
}

/** "Row 12 ('Chemistry')", as notices name a row (1-based, as the sheet shows it). */
export function rowName(row: number, label: string): string {
  return label === '' ? `Row ${row + 1}` : `Row ${row + 1} ('${label}')`
}
