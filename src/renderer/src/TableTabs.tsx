import type { TableSummary } from '../../shared/api'
import { formatCount, tabLabels } from './format'

type Props = { tables: TableSummary[]; activeId: string | null; onSelect: (tableId: string) => void }

/** The sheets of a workbook or the tables of a database; shown only when a file holds more than one. */
export function TableTabs({ tables, activeId, onSelect }: Props): React.JSX.Element | null {
  if (tables.length < 2) return null
  const labels = tabLabels(tables.map((t) => t.name))
  return (
    <div className="table-tabs" role="tablist" aria-label="Tables in this file">
      {tables.map((t, i) => (
        <button
          key={t.id}
          type="button"
          role="tab"
          aria-selected={t.id === activeId}
          className="table-tab"
          title={`${t.name}: ${formatCount(t.rowCount)} rows`}
          onClick={() => onSelect(t.id)}
        >
          {labels[i] ?? t.name}
        </button>
      ))}
    </div>
  )
}
