import { useMemo, useRef, useState } from 'react'
import { AgGridReact } from 'ag-grid-react'
import type { AutoSizeStrategy, ColDef, GetRowIdParams, GridApi, GridReadyEvent } from 'ag-grid-community'
import type { TableSummary } from '../../shared/api'
import { compareNumericCells, numericColumns } from './columns'
import { columnHeader, loadingText, tableShape } from './format'
import { darkGridTheme, lightGridTheme } from './gridTheme'
import { useTableRows } from './hooks/useTableRows'
import { usePrefersDark } from './hooks/usePrefersDark'
import type { GridRow } from './rows'

type Props = { table: TableSummary }

const rowNumberColumn: ColDef<GridRow> = {
  colId: '__row',
  headerName: '#',
  valueGetter: (p) => (p.data ? p.data.n + 1 : null),
  pinned: 'left',
  lockPinned: true,
  suppressMovable: true,
  sortable: false,
  filter: false,
  resizable: true,
  suppressAutoSize: true,
  suppressSizeToFit: true,
  cellClass: 'row-number'
}

const defaultColDef: ColDef<GridRow> = { sortable: true, filter: true, resizable: true, width: 160, minWidth: 60 }

// Sized to the rows on screen when data first shows; small tables stretch to fill the width.
const autoSize: AutoSizeStrategy<GridRow> = {
  type: 'fitCellContents',
  defaultMinWidth: 60,
  defaultMaxWidth: 420,
  scaleUpToFitGridWidth: true
}

const getRowId = (p: GetRowIdParams<GridRow>): string => String(p.data.n)

function columnDefs(table: TableSummary, numeric: readonly boolean[]): ColDef<GridRow>[] {
  const data = table.columns.map(
    (tuple, i): ColDef<GridRow> => ({
      colId: String(i),
      headerName: columnHeader(tuple, i),
      headerTooltip: tuple.join(' › '),
      valueGetter: (p) => p.data?.cells[i] ?? '',
      ...(numeric[i] ? { type: 'rightAligned', comparator: compareNumericCells } : {})
    })
  )
  // Wide enough for the largest row number, so it never clips.
  const width = 28 + 8 * String(table.rowCount).length
  return [{ ...rowNumberColumn, width }, ...data]
}

/** The open table in AG Grid, rows streamed in blocks. Mount with `key={table.id}`. */
export function TableView({ table }: Props): React.JSX.Element {
  const [grid, setGrid] = useState<GridApi<GridRow> | null>(null)
  const host = useRef<HTMLDivElement>(null)
  const { loaded, error, sample } = useTableRows(grid, table)
  const dark = usePrefersDark()
  const numeric = useMemo(() => (sample ? numericColumns(sample, table.columns.length) : []), [sample, table.columns.length])
  const columns = useMemo(() => columnDefs(table, numeric), [table, numeric])
  const loading = loaded < table.rowCount && !error

  return (
    <section className="table-view" aria-labelledby="table-title">
      <div className="table-header">
        <h2 id="table-title" data-testid="table-title">
          {table.name}
        </h2>
        <span className="table-shape">{tableShape(table.rowCount, table.columns.length)}</span>
        {loading && (
          <span className="table-progress" role="status">
            <progress max={table.rowCount} value={loaded} aria-hidden="true" />
            {loadingText(loaded, table.rowCount)}
          </span>
        )}
      </div>
      {error && (
        <div className="banner banner-error" role="alert">
          Could not load all rows ({loaded.toLocaleString('en-US')} loaded): {error.message}
        </div>
      )}
      <div className="grid-host" role="region" aria-label="Table" ref={host}>
        <AgGridReact<GridRow>
          theme={dark ? darkGridTheme : lightGridTheme}
          columnDefs={columns}
          defaultColDef={defaultColDef}
          getRowId={getRowId}
          autoSizeStrategy={autoSize}
          onGridReady={(event: GridReadyEvent<GridRow>) => {
            // AG Grid has no option for the grid's accessible name; name it by the table title.
            host.current?.querySelector('[role="grid"], [role="treegrid"]')?.setAttribute('aria-labelledby', 'table-title')
            setGrid(event.api)
          }}
          loading={loaded === 0 && table.rowCount > 0 && !error}
          tooltipShowDelay={400}
          enableCellTextSelection
        />
      </div>
    </section>
  )
}
