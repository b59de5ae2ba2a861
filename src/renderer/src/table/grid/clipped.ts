/**
 * Columns cut by the edge of the scrolled grid. The browser clips a cell that is partly out of view
 * without a mark, so a right-aligned "9,366" half in view reads "9,36". Such cells get padding as wide as
 * the hidden part: their text moves into view, and where it does not fit the cell's own ellipsis shows
 * that something is cut (at the start for numbers, see the numeric-cell style).
 */

export type PlacedColumn = { id: string; left: number; width: number }

/** The hidden part of each column cut by the visible range (px of the centre container). */
export function clippedColumns(
  columns: readonly PlacedColumn[],
  range: { left: number; right: number }
): { id: string; hiddenLeft: number; hiddenRight: number }[] {
  const out: { id: string; hiddenLeft: number; hiddenRight: number }[] = []
  for (const c of columns) {
    const right = c.left + c.width
    if (right <= range.left || c.left >= range.right) continue
    const hiddenLeft = Math.max(0, Math.round(range.left - c.left))
    const hiddenRight = Math.max(0, Math.round(right - range.right))
    if (hiddenLeft > 0 || hiddenRight > 0) out.push({ id: c.id, hiddenLeft, hiddenRight })
  }
  return out
}

/** CSS that pads those columns' cells in one grid (`scope` is its data-grid attribute). */
export function clippedCss(scope: string, clipped: ReturnType<typeof clippedColumns>): string {
  return clipped
    .map(
      (c) =>
        `[data-grid="${scope}"] .ag-grid-scrolling-cells > .ag-cell[col-id="${c.id.replace(/["\\]/g, '\\$&')}"] {` +
        ` padding-left: calc(var(--ag-cell-horizontal-padding) + ${c.hiddenLeft}px);` +
        ` padding-right: calc(var(--ag-cell-horizontal-padding) + ${c.hiddenRight}px); }`
    )
    .join('\n')
}
