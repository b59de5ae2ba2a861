import { useEffect, useMemo, useRef, useState } from 'react'
import { AgGridReact } from 'ag-grid-react'
import type { CellClickedEvent, ColDef, ColumnHeaderClickedEvent, GetRowIdParams, GridApi, GridReadyEvent } from 'ag-grid-community'
import type { TableSummary } from '../../../shared/api'
import type { CellRef } from '../../../shared/table'
import { loadingText, tableShape } from '../common/format'
import { columnDefs, groupPaths, NO_HIGHLIGHT, type GridContext, type Highlight } from './grid/columnDefs'
import { answerCells, answerColumns, answerRows, NO_ANSWER_CELLS, type AnswerCells } from './grid/answerCells'
import { buildColumnTree, indexDepth } from './grid/headers'
import { columnNode, columnsUnder, indexNode, startsWith, type HeaderSelection } from './grid/selection'
import { darkGridTheme, lightGridTheme } from './gridTheme'
import { useTableRows } from './useTableRows'
import { usePrefersDark } from '../common/usePrefersDark'
import { useClippedColumns } from './grid/useClippedColumns'
import { useFitColumns } from './grid/useFitColumns'
import type { GridRow } from './rows'

type Props = {
  table: TableSummary
  selection: HeaderSelection | null
  onSelect: (selection: HeaderSelection | null) => void
  /** Source cells the shown answer read (empty when there is none, or it is about another table). */
  answerRead?: readonly CellRef[]
}

// Widths come from the cells once rows are in (useFitColumns); long headers wrap instead of widening a column.
const defaultColDef: ColDef<GridRow> = {
  sortable: true,
  filter: true,
  resizable: true,
  width: 120,
  minWidth: 48,
  wrapHeaderText: true,
  autoHeaderHeight: true
}

const getRowId = (p: GetRowIdParams<GridRow>): string => String(p.data.n)

function highlightOf(selection: HeaderSelection | null, table: TableSummary, groups: Map<string, string[]>): Highlight {
  if (!selection) return NO_HIGHLIGHT
  if (selection.axis === 'left') return { columns: new Set(), groups: new Set(), rows: selection.path }
  const ids = new Set<string>()
  for (const [id, path] of groups) if (startsWith(path, selection.path)) ids.add(id)
  return { columns: new Set(columnsUnder(table.columns, selection.path)), groups: ids, rows: null }
}

/** The open table in AG Grid: the top tree as column groups, the left tree as pinned index columns. */
const NO_CELLS: readonly CellRef[] = []

export function TableView({ table, selection, onSelect, answerRead = NO_CELLS }: Props): React.JSX.Element {
  const [grid, setGrid] = useState<GridApi<GridRow> | null>(null)
  const host = useRef<HTMLDivElement>(null)
  const current = useRef<Highlight>(NO_HIGHLIGHT)
  const currentAnswer = useRef<AnswerCells>(NO_ANSWER_CELLS)
  // One object for the grid's lifetime: cell class rules read the highlights through it.
  const [context] = useState<GridContext>(() => ({ highlight: () => current.current, answer: () => currentAnswer.current }))
  const { loaded, error, numeric, colSource } = useTableRows(grid, table)
  const answer = useMemo(() => answerCells(answerRead, colSource), [answerRead, colSource])
  const dark = usePrefersDark()
  const tree = useMemo(() => buildColumnTree(table.columns), [table.columns])
  const groups = useMemo(() => groupPaths(tree), [tree])
  const depth = table.indexColumns.length
  const numericSet = useMemo(() => new Set(numeric ?? []), [numeric])
  useFitColumns(grid, host, loaded, numeric === null ? null : numericSet)
  const columns = useMemo(() => columnDefs(table, tree, depth, numericSet), [table, tree, depth, numericSet])
  const highlight = useMemo(() => highlightOf(selection, table, groups), [selection, table, groups])
  const loading = loaded < table.rowCount && !error
  const levels = useMemo(() => indexDepth(table.columns), [table.columns])
  const [gridKey] = useState(() => `g${Math.random().toString(36).slice(2, 10)}`)
  const clipped = useClippedColumns(grid, gridKey, host)

  // Bring the selected cells into view; rows still loading are looked for again as blocks arrive.
  const unseen = useRef<Highlight | null>(null)
  useEffect(() => {
    current.current = highlight
    if (!grid || grid.isDestroyed()) return
    grid.refreshCells({ force: true })
    grid.refreshHeader()
    const first = [...highlight.columns][0]
    if (first !== undefined) grid.ensureColumnVisible(String(first))
    unseen.current = highlight.rows ? highlight : null
  }, [grid, highlight])

  useEffect(() => {
    const rows = unseen.current?.rows
    if (!grid || grid.isDestroyed() || !rows) return
    let target = -1
    grid.forEachNodeAfterFilterAndSort((node) => {
      if (target < 0 && node.rowIndex !== null && startsWith(node.data?.index, rows)) target = node.rowIndex
    })
    if (target >= 0) {
      grid.ensureIndexVisible(target, 'top')
      unseen.current = null
    }
  }, [grid, highlight, loaded])

  // Outline the cells the answer read and bring the first of them into view (again as rows arrive).
  const answerShown = useRef<AnswerCells | null>(null)
  useEffect(() => {
    currentAnswer.current = answer
    if (!grid || grid.isDestroyed()) return
    grid.refreshCells({ force: true })
    if (answer.keys.size === 0 || answerShown.current === answer) return
    const column = answerColumns(answer)[0]
    if (column !== undefined) grid.ensureColumnVisible(String(column))
    const rows = answerRows(answer)
    let target = -1
    grid.forEachNodeAfterFilterAndSort((node) => {
      if (target < 0 && node.rowIndex !== null && node.data?.source !== undefined && rows.has(node.data.source)) target = node.rowIndex
    })
    if (target >= 0) {
      grid.ensureIndexVisible(target, 'middle')
      answerShown.current = answer
    }
  }, [grid, answer, loaded])

  const onHeaderClicked = (event: ColumnHeaderClickedEvent<GridRow>): void => {
    const column = event.column
    if ('getGroupId' in column) {
      const path = groups.get(column.getGroupId())
      if (path) onSelect({ axis: 'top', path })
      return
    }
    const id = column.getColId()
    if (/^\d+$/.test(id)) onSelect(columnNode(table.columns, Number(id)))
  }

  const onCellClicked = (event: CellClickedEvent<GridRow>): void => {
    const id = event.column.getColId()
    const row = event.data
    if (!row) return
    if (id.startsWith('i:')) onSelect(indexNode(row.index, Number(id.slice(2))))
    else if (id === '__row') onSelect(indexNode(row.index, row.index.length - 1))
    else if (/^\d+$/.test(id)) onSelect(columnNode(table.columns, Number(id)))
  }

  return (
    <section className="table-view" aria-labelledby="table-title">
      <div className="table-header">
        <h2 id="table-title" data-testid="table-title">
          {table.name}
        </h2>
        <span className="table-shape">
          {tableShape(table.rowCount, table.columns.length)}
          {levels > 1 || depth > 0
            ? ` · ${levels} header ${levels === 1 ? 'level' : 'levels'}, ${depth} index ${depth === 1 ? 'level' : 'levels'}`
            : ''}
          {table.view === 'flatten' ? ' · flattened' : ''}
        </span>
        {loading && (
          <span className="table-progress" role="status">
            <progress max={table.rowCount} value={loaded} aria-hidden="true" />
            {loadingText(loaded, table.rowCount)}
          </span>
        )}
        <span className="table-header-actions">
          {answer.keys.size > 0 && (
            <span className="answer-legend" data-testid="answer-legend">
              <span className="answer-swatch" aria-hidden="true" />
              cells the answer read
            </span>
          )}
          {selection && (
            <span className="selection-chip" aria-live="polite" data-testid="header-selection">
              {selection.axis === 'top' ? 'Columns' : 'Rows'}: {selection.path.map((p) => (p === '' ? '(blank)' : p)).join(' › ')}
              <button type="button" className="chip-close" aria-label="Clear header selection" onClick={() => onSelect(null)}>
                ×
              </button>
            </span>
          )}
        </span>
      </div>
      {error && (
        <div className="banner banner-error" role="alert">
          Could not load all rows ({loaded.toLocaleString('en-US')} loaded): {error.message}
        </div>
      )}
      <div className="grid-host" role="region" aria-label="Table" ref={host} data-grid={gridKey}>
        <style>{clipped}</style>
        <AgGridReact<GridRow>
          theme={dark ? darkGridTheme : lightGridTheme}
          columnDefs={columns}
          defaultColDef={defaultColDef}
          getRowId={getRowId}
          context={context}
          enableCellSpan
          onGridReady={(event: GridReadyEvent<GridRow>) => {
            // AG Grid has no option for the grid's accessible name; name it by the table title.
            host.current?.querySelector('[role="grid"], [role="treegrid"]')?.setAttribute('aria-labelledby', 'table-title')
            setGrid(event.api)
          }}
          onColumnHeaderClicked={onHeaderClicked}
          onCellClicked={onCellClicked}
          loading={loaded === 0 && table.rowCount > 0 && !error}
          tooltipShowDelay={400}
          enableCellTextSelection
        />
      </div>
    </section>
  )
}
