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
  'firstDataRendered',
  'modelUpdated'
] as const

/**
 * Width of the grid's vertical scroll bar where it is drawn over the cells' right edge (AG Grid lays it
 * over the viewport when the system's scroll bars take no room): cells under it are hidden too.
 */
function scrollBarOverlap(host: HTMLElement | null): number {
  const bar = host?.querySelector('.ag-body-vertical-scroll')
  const viewport = host?.querySelector('.ag-grid-viewport') ?? host?.querySelector('.ag-body-viewport')
  if (!bar || !viewport) return 0
  const b = bar.getBoundingClientRect()
  const v = viewport.getBoundingClientRect()
  if (b.width === 0 || b.height === 0) return 0
  return Math.max(0, Math.min(b.width, v.right - b.left))
}

/** Style text that keeps cells cut by the grid's edge readable (see clipped.ts), kept current as the grid scrolls. */
export function useClippedColumns(grid: GridApi<GridRow> | null, scope: string, host: React.RefObject<HTMLElement | null>): string {
  const [css, setCss] = useState('')
  useEffect(() => {
    if (!grid) return
    let frame = 0
    const measure = (): void => {
      frame = 0
      if (grid.isDestroyed()) return
      const columns = grid.getDisplayedCenterColumns().map((c) => ({ id: c.getColId(), left: c.getLeft() ?? 0, width: c.getActualWidth() }))
      const range = grid.getHorizontalPixelRange()
      const visible = { left: range.left, right: range.right - scrollBarOverlap(host.current) }
      const next = clippedCss(scope, clippedColumns(columns, visible))
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
  }, [grid, scope, host])
  return css
}
