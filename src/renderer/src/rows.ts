/** One data row as the grid holds it: its 0-based position in the table and its cells. */
export type GridRow = { n: number; cells: string[] }

/** Rows per `table:rows` request: big enough to keep requests few, small enough to show progress. */
export const ROW_BLOCK = 20_000

export function toGridRows(start: number, rows: string[][]): GridRow[] {
  const out = new Array<GridRow>(rows.length)
  for (let i = 0; i < rows.length; i++) out[i] = { n: start + i, cells: rows[i] ?? [] }
  return out
}

/** The next block to ask for, or null when all rows are in. */
export function nextBlock(loaded: number, rowCount: number, block = ROW_BLOCK): { start: number; count: number } | null {
  if (loaded >= rowCount) return null
  return { start: loaded, count: Math.min(block, rowCount - loaded) }
}
