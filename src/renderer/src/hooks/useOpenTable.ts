import { useCallback, useRef, useState } from 'react'
import type { TableSummary } from '../../../shared/api'
import type { AppError, Result } from '../../../shared/result'
import { errorFromCause } from '../failure'
import { importWarnings } from '../format'
import { useApi } from './apiContext'

export type OpenTableState = {
  /** Every table of the open file: one per sheet of a workbook or per table of a database. */
  tables: TableSummary[]
  /** The table on screen and given to Python. */
  table: TableSummary | null
  /** Name of the file being opened, while it is. */
  opening: string | null
  error: AppError | null
  warnings: string[]
  openDialog: () => void
  openFile: (file: File) => void
  select: (tableId: string) => void
  dismissError: () => void
  dismissWarnings: () => void
}

/** Opening files: the native dialog in the desktop app, bytes from a picker or a drop in the browser. */
export function useOpenTable(): OpenTableState {
  const api = useApi()
  const [tables, setTables] = useState<TableSummary[]>([])
  const [activeId, setActiveId] = useState<string | null>(null)
  const [opening, setOpening] = useState<string | null>(null)
  const [error, setError] = useState<AppError | null>(null)
  const [warnings, setWarnings] = useState<string[]>([])
  const current = useRef<TableSummary[]>([])
  const attempt = useRef(0)

  const settle = useCallback(
    (ticket: number, result: Result<TableSummary[]>) => {
      if (ticket !== attempt.current) return
      setOpening(null)
      if (!result.ok) {
        setError(result.error)
        return
      }
      // An empty list is a cancelled dialog: keep what is open.
      const first = result.value[0]
      if (!first) return
      const previous = current.current
      current.current = result.value
      setTables(result.value)
      setActiveId(first.id)
      setError(null)
      setWarnings(importWarnings(result.value))
      // One file on screen at a time: let main drop the old tables' cells.
      const kept = new Set(result.value.map((t) => t.id))
      for (const old of previous) {
        if (!kept.has(old.id)) void api.closeTable({ tableId: old.id }).catch(() => undefined)
      }
    },
    [api]
  )

  const run = useCallback(
    (label: string, open: () => Promise<Result<TableSummary[]>>) => {
      const ticket = ++attempt.current
      setOpening(label)
      setError(null)
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

  return {
    tables,
    table: tables.find((t) => t.id === activeId) ?? null,
    opening,
    error,
    warnings,
    openDialog,
    openFile,
    select: setActiveId,
    dismissError: useCallback(() => setError(null), []),
    dismissWarnings: useCallback(() => setWarnings([]), [])
  }
}
