import { useEffect, useRef } from 'react'
import type { TableSummary } from '../../../shared/api'
import { formatCount } from '../common/format'
import { SheetPicker } from './SheetPicker'
import { tabLabels } from './tabLabels'

type Props = {
  tables: TableSummary[]
  activeId: string | null
  onSelect: (tableId: string) => void
  onClose: (tableId: string) => void
}

/** From this many open tables on, a picker with search sits at the end of the tab strip. */
export const PICKER_FROM = 7

/** One tab per open table (each sheet of a workbook, each table of a database), each with its close button. */
export function TableTabs({ tables, activeId, onSelect, onClose }: Props): React.JSX.Element | null {
  const strip = useRef<HTMLDivElement>(null)
  // The active tab in view: after a pick from the list, or when a file opens at its first real table.
  useEffect(() => {
    const tab = strip.current?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]')
    tab?.scrollIntoView({ block: 'nearest', inline: 'nearest' })
  }, [activeId, tables.length])
  if (tables.length === 0) return null
  const labels = tabLabels(tables.map((t) => t.name))
  return (
    <div className="table-tabs-bar">
      <div className="table-tabs" role="tablist" aria-label="Open tables" ref={strip}>
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
      {tables.length >= PICKER_FROM && <SheetPicker tables={tables} activeId={activeId} onSelect={onSelect} />}
    </div>
  )
}
