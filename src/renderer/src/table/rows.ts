import type { RowBlock } from '../../../shared/api'

/**
 * One data row as the grid holds it: its 0-based position in the table, its cells, its left tuple and
 * the numbers of its numeric columns (indexed like `cells`; absent where the column is not numeric).
 */
export type GridRow = {
  n: number
  cells: string[]
  index: string[]
  numbers: (number | null)[]
  /** The row's row in the source grid (where answer cells point), when main sent it. */
  source: number | undefined
}

/** Rows per `table:rows` request: big enough to keep requests few, small enough to show progress. */
export const ROW_BLOCK = 20_000

const NO_INDEX: string[] = []

export function toGridRows(
  block: Pick<RowBlock, 'start' | 'rows'> & Partial<Pick<RowBlock, 'index' | 'numbers' | 'rowSource'>>
): GridRow[] {
  const { start, rows } = block
  const numericColumns = block.numbers?.columns ?? []
  const values = block.numbers?.values ?? []
  const out = new Array<GridRow>(rows.length)
  for (let i = 0; i < rows.length; i++) {
    const numbers: (number | null)[] = []
    for (let k = 0; k < numericColumns.length; k++) numbers[numericColumns[k] ?? 0] = values[k]?.[i] ?? null
    out[i] = { n: start + i, cells: rows[i] ?? [], index: block.index?.[i] ?? NO_INDEX, numbers, source: block.rowSource?.[i] }
  }
  return out
}

/** The next block to ask for, or null when all rows are in. */
export function nextBlock(loaded: number, rowCount: number, block = ROW_BLOCK): { start: number; count: number } | null {
  if (loaded >= rowCount) return null
  return { start: loaded, count: Math.min(block, rowCount - loaded) }
}
