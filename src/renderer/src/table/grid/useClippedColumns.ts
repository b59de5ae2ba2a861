import { useEffect, useState } from 'react'
import type { GridApi } from 'ag-grid-community'
import type { GridRow } from '../rows'
import { clippedColumns, clippedCss } from './clipped'

const EVENTS = [
  'bodyScroll',
  'columnResized',
  'gridSizeChanged',
  'displayedColumnsChanged',
  'virtualColumnsChanged',
  'firstDataRendered'
] as const

/** Style text that keeps cells cut by the grid's edge readable (see clipped.ts), kept current as the grid scrolls. */
export function useClippedColumns(grid: GridApi<GridRow> | null, scope: string): string {
  const [css, setCss] = useState('')
  useEffect(() => {
    if (!grid) return
    let frame = 0
    const measure = (): void => {
      frame = 0
      if (grid.isDestroyed()) return
      const columns = grid.getDisplayedCenterColumns().map((c) => ({ id: c.getColId(), left: c.getLeft() ?? 0, width: c.getActualWidth() }))
      const next = clippedCss(scope, clippedColumns(columns, grid.getHorizontalPixelRange()))
      setCss((was) => (was === next ? was : next))
    }
    // Scrolling fires often: measure once per frame.
    const schedule = (): void => {
      if (frame === 0) frame = requestAnimationFrame(measure)
    }
    for (const e of EVENTS) grid.addEventListener(e, schedule)
    schedule()
    return () => {
      if (frame !== 0) cancelAnimationFrame(frame)
      if (!grid.isDestroyed()) for (const e of EVENTS) grid.removeEventListener(e, schedule)
    }
  }, [grid, scope])
  return css
}
