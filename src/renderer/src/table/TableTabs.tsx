import type { TableSummary } from '../../../shared/api'
import { formatCount, tabLabels } from '../common/format'

type Props = {
  tables: TableSummary[]
  activeId: string | null
  onSelect: (tableId: string) => void
  onClose: (tableId: string) => void
}

/** One tab per open table (each sheet of a workbook, each table of a database), each with its close button. */
export function TableTabs({ tables, activeId, onSelect, onClose }: Props): React.JSX.Element | null {
  if (tables.length === 0) return null
  const labels = tabLabels(tables.map((t) => t.name))
  return (
    <div className="table-tabs" role="tablist" aria-label="Open tables">
      {tables.map((t, i) => {
        const label = labels[i] ?? t.name
        return (
          <div key={t.id} className="table-tab-wrap" role="presentation" data-active={t.id === activeId}>
            <button
              type="button"
              role="tab"
              aria-selected={t.id === activeId}
              className="table-tab"
              title={`${t.name}: ${formatCount(t.rowCount)} rows`}
              onClick={() => onSelect(t.id)}
            >
              {label}
            </button>
            <button
              type="button"
              className="tab-close"
              aria-label={`Close ${t.name}`}
              title="Close this table"
              onClick={() => onClose(t.id)}
            >
              ×
            </button>
          </div>
        )
      })}
    </div>
  )
}
