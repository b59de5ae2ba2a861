import { useMemo, useState } from 'react'
import { AgGridReact } from 'ag-grid-react'
import type { ColDef } from 'ag-grid-community'
import type { AnswerCell, AnswerTable as Table } from '../../../shared/ask'
import { formatCount } from '../common/format'
import { usePrefersDark } from '../common/usePrefersDark'
import { darkGridTheme, lightGridTheme } from '../table/gridTheme'
import { columnTitle, fileStem, indexTitle, numberFormatter, saveFile, tableGrid, toCsv, toTsv } from './answerExport'

type Row = { index: string[]; cells: AnswerCell[] }

/** Rows shown without a scroll bar; a longer table scrolls inside a fixed height. */
const AUTO_HEIGHT_ROWS = 8

function columns(table: Table): ColDef<Row>[] {
  const index: ColDef<Row>[] = table.indexNames.map((name, level) => ({
    colId: `i:${level}`,
    headerName: indexTitle(name, level),
    valueGetter: (p) => p.data?.index[level] ?? '',
    pinned: 'left',
    cellClass: 'index-cell',
    filter: false,
    suppressHeaderMenuButton: true
  }))
  const data = table.columns.map((tuple, c): ColDef<Row> => {
    const numeric = table.rows.every((row) => row[c] === null || typeof row[c] === 'number')
    const def: ColDef<Row> = {
      colId: String(c),
      headerName: columnTitle(tuple, c),
      headerTooltip: columnTitle(tuple, c),
      valueGetter: (p) => p.data?.cells[c] ?? null,
      tooltipValueGetter: (p) => (p.value === null || p.value === undefined ? '' : String(p.value as AnswerCell)),
      filter: numeric ? 'agNumberColumnFilter' : true
    }
    if (!numeric) return def
    const format = numberFormatter(table.rows.map((row) => row[c] ?? null))
    return {
      ...def,
      cellClass: ['ag-right-aligned-cell', 'numeric-cell'],
      headerClass: 'ag-right-aligned-header',
      valueFormatter: (p) => (typeof p.value === 'number' ? format(p.value) : '')
    }
  })
  return [...index, ...data]
}

/** A DataFrame or Series answer as a small grid, with copy and CSV export. */
export function AnswerTable({ table, question }: { table: Table; question: string }): React.JSX.Element {
  const dark = usePrefersDark()
  const [copied, setCopied] = useState<string | null>(null)
  const defs = useMemo(() => columns(table), [table])
  const rows = useMemo(() => table.rows.map((cells, i): Row => ({ index: table.index[i] ?? [], cells })), [table])
  const auto = rows.length <= AUTO_HEIGHT_ROWS

  const copy = (): void => {
    navigator.clipboard.writeText(toTsv(tableGrid(table))).then(
      () => setCopied(`Copied ${formatCount(rows.length)} ${rows.length === 1 ? 'row' : 'rows'}.`),
      () => setCopied('The clipboard refused the copy.')
    )
  }

  return (
    <section className="answer-table" aria-label="Answer table">
      <div className="answer-table-bar">
        <span className="muted small">
          {formatCount(table.rowCount)} {table.rowCount === 1 ? 'row' : 'rows'} × {table.columns.length}{' '}
          {table.columns.length === 1 ? 'column' : 'columns'}
          {rows.length < table.rowCount ? ` · the first ${formatCount(rows.length)} are kept` : ''}
        </span>
        <span className="spacer" />
        <span className="small muted" role="status">
          {copied}
        </span>
        <button type="button" onClick={copy} title="Copy as tab-separated text, as a spreadsheet pastes it">
          Copy
        </button>
        <button
          type="button"
          onClick={() => saveFile(`${fileStem(question)}.csv`, new Blob([toCsv(tableGrid(table))], { type: 'text/csv' }))}
        >
          CSV
        </button>
      </div>
      <div className="answer-grid" style={auto ? undefined : { height: 280 }}>
        <AgGridReact<Row>
          theme={dark ? darkGridTheme : lightGridTheme}
          columnDefs={defs}
          rowData={rows}
          defaultColDef={{ sortable: true, resizable: true, minWidth: 60 }}
          autoSizeStrategy={{ type: 'fitCellContents', defaultMaxWidth: 360 }}
          domLayout={auto ? 'autoHeight' : 'normal'}
          tooltipShowDelay={400}
          enableCellTextSelection
        />
      </div>
    </section>
  )
}
