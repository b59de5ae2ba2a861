/**
 * The cells an answer was read from, as the grid shows them. Answers name cells of the source grid (the
 * imported sheet, headers included); the grid names data cells by row position and data column. Each
 * row knows its source row and each data column its source column, so a data cell is read when its
 * (source row, source column) pair is among the answer's cells.
 */
import type { CellRef } from '../../../../shared/table'

export type AnswerCells = {
  /** `row:col` keys of the source cells the answer read. */
  keys: ReadonlySet<string>
  /** Source column of each data column (empty until the first block of rows arrives). */
  colSource: readonly number[]
}

export const NO_ANSWER_CELLS: AnswerCells = { keys: new Set(), colSource: [] }

const key = (row: number, col: number): string => `${row}:${col}`

export function answerCells(cells: readonly CellRef[], colSource: readonly number[] | null): AnswerCells {
  if (cells.length === 0 || !colSource) return NO_ANSWER_CELLS
  return { keys: new Set(cells.map((c) => key(c.row, c.col))), colSource }
}

/** Whether the data cell in `column` of a row from source row `sourceRow` was read by the answer. */
export function readByAnswer(answer: AnswerCells, sourceRow: number | undefined, column: number): boolean {
  if (answer.keys.size === 0 || sourceRow === undefined) return false
  const col = answer.colSource[column]
  return col !== undefined && answer.keys.has(key(sourceRow, col))
}

/** Data columns holding at least one read cell, in table order (to scroll the first into view). */
export function answerColumns(answer: AnswerCells): number[] {
  if (answer.keys.size === 0) return []
  const cols = new Set<number>()
  for (const k of answer.keys) cols.add(Number(k.slice(k.indexOf(':') + 1)))
  const out: number[] = []
  answer.colSource.forEach((col, j) => {
    if (cols.has(col)) out.push(j)
  })
  return out
}

/** Source rows holding at least one read cell. */
export function answerRows(answer: AnswerCells): Set<number> {
  const rows = new Set<number>()
  for (const k of answer.keys) rows.add(Number(k.slice(0, k.indexOf(':'))))
  return rows
}
