import type { TableSummary } from '../../shared/api'
import { formatCount } from './format'

type Props = { tables: TableSummary[]; activeId: string | null; onSelect: (tableId: string) => void }

/** The sheets of a workbook or the tables of a database; shown only when a file holds more than one. */
export function TableTabs({ tables, activeId, onSelect }: Props): React.JSX.Element | null {
  if (tables.length < 2) return null
  return (
    <div className="table-tabs" role="tablist" aria-label="Tables in this file">
      {tables.map((t) => (
        <button
          key={t.id}
          type="button"
          role="tab"
          aria-selected={t.id === activeId}
          className="table-tab"
          title={`${formatCount(t.rowCount)} rows`}
          onClick={() => onSelect(t.id)}
        >
          {t.name}
        </button>
      ))}
    </div>
  )
}
