import { useEffect, useId, useMemo, useRef, useState } from 'react'
import type { TableSummary } from '../../../shared/api'
import { formatCount } from '../common/format'
import { matchTables } from './sheetSearch'

type Props = { tables: TableSummary[]; activeId: string | null; onSelect: (tableId: string) => void }

/** Every open table in a list to search, for workbooks with more sheets than the tab strip shows. */
export function SheetPicker({ tables, activeId, onSelect }: Props): React.JSX.Element {
  const [open, setOpen] = useState(false)
  const [query, setQuery] = useState('')
  const [cursor, setCursor] = useState(0)
  const button = useRef<HTMLButtonElement>(null)
  const box = useRef<HTMLDivElement>(null)
  const list = useRef<HTMLUListElement>(null)
  const id = useId()
  const found = useMemo(() => matchTables(tables, query), [tables, query])
  const at = Math.min(cursor, Math.max(0, found.length - 1))

  const close = (focusButton: boolean): void => {
    setOpen(false)
    setQuery('')
    if (focusButton) button.current?.focus()
  }
  const pick = (tableId: string): void => {
    onSelect(tableId)
    close(true)
  }

  // A click elsewhere closes the list.
  useEffect(() => {
    if (!open) return
    const onDown = (event: PointerEvent): void => {
      if (box.current?.contains(event.target as Node) || button.current?.contains(event.target as Node)) return
      setOpen(false)
      setQuery('')
    }
    window.addEventListener('pointerdown', onDown)
    return () => window.removeEventListener('pointerdown', onDown)
  }, [open])

  useEffect(() => {
    list.current?.querySelector('[data-cursor="true"]')?.scrollIntoView({ block: 'nearest' })
  }, [at, open])

  return (
    <div className="sheet-picker">
      <button
        ref={button}
        type="button"
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => (open ? close(false) : setOpen(true))}
        title="Find a table of the open files by name"
      >
        All tables ({formatCount(tables.length)}) ▾
      </button>
      {open && (
        <div className="sheet-picker-box" role="dialog" aria-label="Find a table" ref={box}>
          <input
            type="search"
            role="combobox"
            aria-label="Find a table"
            aria-expanded="true"
            aria-controls={`${id}-list`}
            aria-activedescendant={found[at] ? `${id}-${found[at].id}` : undefined}
            placeholder="Type part of a name…"
            autoFocus
            value={query}
            onChange={(e) => {
              setQuery(e.currentTarget.value)
              setCursor(0)
            }}
            onKeyDown={(e) => {
              if (e.key === 'ArrowDown') setCursor(Math.min(at + 1, found.length - 1))
              else if (e.key === 'ArrowUp') setCursor(Math.max(at - 1, 0))
              else if (e.key === 'Enter' && found[at]) pick(found[at].id)
              else if (e.key === 'Escape') close(true)
              else return
              e.preventDefault()
            }}
          />
          <p className="small muted" role="status">
            {query.trim() === '' ? `${formatCount(tables.length)} tables` : `${formatCount(found.length)} of ${formatCount(tables.length)}`}
          </p>
          <ul role="listbox" id={`${id}-list`} aria-label="Tables" ref={list}>
            {found.map((t, i) => (
              <li
                key={t.id}
                id={`${id}-${t.id}`}
                role="option"
                aria-selected={t.id === activeId}
                data-cursor={i === at}
                onPointerDown={(e) => e.preventDefault()}
                onClick={() => pick(t.id)}
              >
                <span className="sheet-name">{t.name}</span>
                <span className="small muted">{formatCount(t.rowCount)} rows</span>
              </li>
            ))}
            {found.length === 0 && <li className="muted small">No table name has “{query}”.</li>}
          </ul>
        </div>
      )}
    </div>
  )
}
