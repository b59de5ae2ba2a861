import { useEffect, useRef } from 'react'
import type { GridApi } from 'ag-grid-community'
import type { GridRow } from '../rows'
import { numericText } from './numeric'
import { capIndexWidths, fitWidths, INDEX_SHARE, WIDTH_LIMITS, type Measure, type WidthColumn } from './widths'

/** Rows whose texts size the columns: the start of the table, as the first screens show it. */
const SAMPLE_ROWS = 2_000

function fontOf(element: Element | null, fallback: HTMLElement): CSSStyleDeclaration {
  return getComputedStyle(element instanceof HTMLElement ? element : fallback)
}

/** Text widths from the fonts the grid really uses (canvas measures without laying anything out). */
function measurer(host: HTMLElement): Measure {
  const context = document.createElement('canvas').getContext('2d')
  const cell = fontOf(host.querySelector('.ag-cell'), host)
  const header = fontOf(host.querySelector('.ag-header-cell-text'), host)
  const width = (font: string, text: string): number => {
    if (!context) return text.length * 8
    context.font = font
    // Tabular figures are a little wider than the proportional ones canvas measures.
    return context.measureText(text).width * 1.04
  }
  return {
    cell: (text, bold) => width(`${bold ? '600' : cell.fontWeight} ${cell.fontSize} ${cell.fontFamily}`, text),
    header: (text) => width(`${header.fontWeight} ${header.fontSize} ${header.fontFamily}`, text)
  }
}

/**
 * Size the columns to their cells once the first rows are in (see widths.ts), keep the pinned index
 * columns within their share of the grid, then stretch the columns when they leave room. Runs once per
 * grid: a new layout gives a new grid.
 */
export function useFitColumns(
  grid: GridApi<GridRow> | null,
  host: React.RefObject<HTMLElement | null>,
  loaded: number,
  numeric: ReadonlySet<number> | null
): void {
  const done = useRef(false)
  useEffect(() => {
    const element = host.current
    if (done.current || !grid || grid.isDestroyed() || !element || loaded === 0 || numeric === null) return
    if (!element.querySelector('.ag-cell')) return
    done.current = true
    const rows: GridRow[] = []
    grid.forEachNode((node) => {
      if (node.data && rows.length < SAMPLE_ROWS) rows.push(node.data)
    })
    const cell = element.querySelector<HTMLElement>('.ag-cell')
    const padding = cell ? parseFloat(getComputedStyle(cell).paddingLeft) + parseFloat(getComputedStyle(cell).paddingRight) : 16
    const columns: WidthColumn[] = []
    for (const column of grid.getColumns() ?? []) {
      const id = column.getColId()
      const header = column.getColDef().headerName ?? ''
      if (id.startsWith('i:')) {
        const level = Number(id.slice(2))
        columns.push({ id, kind: 'index', header, texts: rows.map((r) => r.index[level] ?? ''), bold: true })
      } else if (/^\d+$/.test(id)) {
        const c = Number(id)
        const texts = numeric.has(c)
          ? rows.map((r) => {
              const value = r.numbers[c]
              const raw = r.cells[c] ?? ''
              return typeof value === 'number' ? numericText(raw, value) : raw
            })
          : rows.map((r) => r.cells[c] ?? '')
        columns.push({ id, kind: numeric.has(c) ? 'numeric' : 'text', header, texts })
      }
    }
    const widths = fitWidths(columns, measurer(element), padding)
    const isIndex = (w: { key: string }): boolean => w.key.startsWith('i:')
    const budget = Math.max(WIDTH_LIMITS.indexMax, element.clientWidth * INDEX_SHARE)
    grid.setColumnWidths([...capIndexWidths(widths.filter(isIndex), budget), ...widths.filter((w) => !isIndex(w))], true)
    // A table narrower than the grid fills it, as before.
    const used = (grid.getAllDisplayedColumns() ?? []).reduce((w, col) => w + col.getActualWidth(), 0)
    if (used < element.clientWidth - 24) grid.sizeColumnsToFit({ defaultMinWidth: 48 })
  }, [grid, host, loaded, numeric])
}
