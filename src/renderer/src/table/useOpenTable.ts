import { useCallback, useEffect, useRef, useState } from 'react'
import type { TableSummary } from '../../../shared/api'
import type { SampleName } from '../../../shared/session'
import type { AppError, Result } from '../../../shared/result'
import type { IndexView, StructureOptions } from '../../../shared/table'
import { errorFromCause } from '../common/failure'
import { importWarnings } from '../common/format'
import { useApi } from '../api/context'
import { firstToShow } from './firstTable'

export type OpenTableState = {
  /** Every open table, one tab each: one per sheet of a workbook or per table of a database. */
  tables: TableSummary[]
  /** The table on screen and given to Python. */
  table: TableSummary | null
  /** Name of the file being opened, while it is. */
  opening: string | null
  /** Whether the tables main still holds have been asked for (after a reload). */
  restored: boolean
  error: AppError | null
  warnings: string[]
  /** Something to know about the last open that is neither an error nor a warning (the file was open already). */
  notice: string | null
  openDialog: () => void
  openFile: (file: File) => void
  openSample: (name: SampleName, label: string) => void
  select: (tableId: string) => void
  close: (tableId: string) => void
  /** Structure a table again; resolves with the error, or null when the new layout is in place. */
  restructure: (tableId: string, options: StructureOptions, view: IndexView) => Promise<AppError | null>
  dismissError: () => void
  dismissWarnings: () => void
  dismissNotice: () => void
}

const ACTIVE_KEY = 'tableqa-active-table'

function remember(tableId: string | null): void {
  try {
    if (tableId === null) localStorage.removeItem(ACTIVE_KEY)
    else localStorage.setItem(ACTIVE_KEY, tableId)
  } catch {
    // Storage can be unavailable (private windows); the active tab is then simply not remembered.
  }
}

function remembered(): string | null {
  try {
    return localStorage.getItem(ACTIVE_KEY)
  } catch {
    return null
  }
}

/** Open tables as tabs: opened from the native dialog, a picker, a drop or a sample; restored after a reload. */
export function useOpenTable(): OpenTableState {
  const api = useApi()
  const [tables, setTables] = useState<TableSummary[]>([])
  const [activeId, setActiveId] = useState<string | null>(null)
  const [opening, setOpening] = useState<string | null>(null)
  const [restored, setRestored] = useState(false)
  const [error, setError] = useState<AppError | null>(null)
  const [warnings, setWarnings] = useState<string[]>([])
  const [notice, setNotice] = useState<string | null>(null)
  const attempt = useRef(0)
  // What is open now, for telling a file opened again from a new one when its tables come back.
  const openIds = useRef(new Set<string>())
  useEffect(() => {
    openIds.current = new Set(tables.map((t) => t.id))
  }, [tables])

  const activate = useCallback((tableId: string | null) => {
    setActiveId(tableId)
    remember(tableId)
  }, [])

  // Main keeps tables across page loads: show the ones it still has.
  useEffect(() => {
    let live = true
    api.listTables().then(
      (result) => {
        if (!live) return
        setRestored(true)
        if (!result.ok || result.value.length === 0) return
        const list = result.value
        setTables((open) => (open.length > 0 ? open : list))
        const saved = remembered()
        setActiveId((current) => current ?? (list.some((t) => t.id === saved) ? saved : (list[list.length - 1]?.id ?? null)))
      },
      () => {
        if (live) setRestored(true)
      }
    )
    return () => {
      live = false
    }
  }, [api])

  const settle = useCallback(
    (ticket: number, result: Result<TableSummary[]>) => {
      if (ticket !== attempt.current) return
      setOpening(null)
      if (!result.ok) {
        setError(result.error)
        return
      }
      // An empty list is a cancelled dialog: keep what is open.
      const added = result.value
      const first = firstToShow(added)
      if (!first) return
      const again = added.every((t) => openIds.current.has(t.id))
      // Tables open already keep their place (a file opened again brings its tabs to the front, not a copy).
      setTables((open) => {
        const ids = new Set(open.map((t) => t.id))
        return [...open.map((t) => added.find((a) => a.id === t.id) ?? t), ...added.filter((a) => !ids.has(a.id))]
      })
      activate(first.id)
      setError(null)
      setWarnings(again ? [] : importWarnings(added))
      setNotice(
        again ? `${first.source.fileName} is open already: showing its ${added.length === 1 ? 'table' : `${added.length} tables`}.` : null
      )
    },
    [activate]
  )

  const run = useCallback(
    (label: string, open: () => Promise<Result<TableSummary[]>>) => {
      const ticket = ++attempt.current
      setOpening(label)
      setError(null)
      setNotice(null)
      open().then(
        (result) => settle(ticket, result),
        (cause: unknown) => settle(ticket, { ok: false, error: errorFromCause(`Opening ${label}`, cause) })
      )
    },
    [settle]
  )

  const openDialog = useCallback(() => run('file', () => api.openDialog()), [api, run])

  const openFile = useCallback(
    (file: File) =>
      run(file.name, async () => {
        const bytes = new Uint8Array(await file.arrayBuffer())
        return api.openBytes({ name: file.name, bytes })
      }),
    [api, run]
  )

  const openSample = useCallback((name: SampleName, label: string) => run(label, () => api.openSample({ name })), [api, run])

  const close = useCallback(
    (tableId: string) => {
      const at = tables.findIndex((t) => t.id === tableId)
      const rest = tables.filter((t) => t.id !== tableId)
      setTables(rest)
      if (activeId === tableId || !rest.some((t) => t.id === activeId))
        activate(rest[Math.min(Math.max(at, 0), rest.length - 1)]?.id ?? null)
      void api.closeTable({ tableId }).catch(() => undefined)
    },
    [api, tables, activeId, activate]
  )

  const restructure = useCallback(
    async (tableId: string, options: StructureOptions, view: IndexView): Promise<AppError | null> => {
      try {
        const result = await api.restructureTable({ tableId, options, view })
        if (!result.ok) return result.error
        setTables((open) => open.map((t) => (t.id === tableId ? result.value : t)))
        return null
      } catch (cause) {
        return errorFromCause('Structuring the table', cause)
      }
    },
    [api]
  )

  return {
    tables,
    table: tables.find((t) => t.id === activeId) ?? tables[0] ?? null,
    opening,
    restored,
    error,
    warnings,
    notice,
    openDialog,
    openFile,
    openSample,
    select: activate,
    close,
    restructure,
    dismissError: useCallback(() => setError(null), []),
    dismissWarnings: useCallback(() => setWarnings([]), []),
    dismissNotice: useCallback(() => setNotice(null), [])
  }
}
