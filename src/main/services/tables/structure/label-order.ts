/**
 * A grid with its label columns moved to the front. The stages after the label columns read the labels as the
 * first `headerCols` columns; a table whose label column stands behind index columns (a row number, a variant,
 * codes: rules/labels-after-index.ts) is read through this view, and its data columns name their sheet
 * columns through `order`, so the index columns stay ordinary columns of the table, in their sheet order.
 */
import type { MergedRegion } from '../../../../shared/table'
import type { Grid } from './grid'

/** The sheet column of each column of the view: the label columns, then every other column in order. */
export function labelOrder(cols: number, from: number, count: number): number[] {
  const order: number[] = []
  for (let c = from; c < from + count; c++) order.push(c)
  for (let c = 0; c < cols; c++) if (c < from || c >= from + count) order.push(c)
  return order
}

/**
 * The view of `g` whose column k is column `order[k]` of `g`. A merged region whose columns are no longer side by
 * side in the view is cut into the runs that are; its text goes to the first cell of the run that holds it.
 */
export function reorderColumns(g: Grid, order: readonly number[]): Grid {
  const cols = order.length
  const at = new Int32Array(g.cols).fill(-1)
  order.forEach((c, k) => (at[c] = k))
  const cells = g.cells.map((row) => order.map((c) => row[c] ?? ''))
  const merges: MergedRegion[] = []
  for (const m of g.merges) {
    const places: number[] = []
    for (let c = m.left; c <= m.right; c++) if ((at[c] ?? -1) >= 0) places.push(at[c] ?? 0)
    places.sort((a, b) => a - b)
    let start = 0
    for (let k = 1; k <= places.length; k++) {
      if (k < places.length && places[k] === (places[k - 1] ?? 0) + 1) continue
      const left = places[start] ?? 0
      const right = places[k - 1] ?? 0
      if (right > left || m.bottom > m.top) merges.push({ top: m.top, left, bottom: m.bottom, right })
      // The text written at the region's first cell moves to the first cell of its run.
      const anchor = at[m.left] ?? -1
      const row = cells[m.top]
      if (row !== undefined && anchor > left && anchor <= right) {
        row[left] = row[anchor] ?? ''
        row[anchor] = ''
      }
      start = k
    }
  }
  let owner: Int32Array | null = null
  if (merges.length > 0) {
    const ids = new Int32Array(g.rows * cols)
    merges.forEach((m, k) => {
      for (let r = m.top; r <= m.bottom; r++) for (let c = m.left; c <= m.right; c++) ids[r * cols + c] = k + 1
    })
    owner = ids
  }
  const source = (col: number): number => order[col] ?? col
  return {
    rows: g.rows,
    cols,
    cells,
    merges,
    owner,
    style: (row, col) => g.style(row, source(col)),
    indent: (row, col) => g.indent(row, source(col)),
    outline: g.outline,
    marksHeaders: g.marksHeaders,
    stylesIndent: g.stylesIndent,
    headerCell: (row, col) => g.headerCell(row, source(col)),
    warnings: g.warnings,
    records: g.records
  }
}
