import { useCallback, useEffect, useRef, useState } from 'react'
import type { RunRecord } from '../../../shared/python'
import type { AppError } from '../../../shared/result'
import { errorFromCause } from '../common/failure'
import { useApi } from '../api/context'

export type HistoryState = {
  runs: RunRecord[]
  error: AppError | null
  refresh: () => void
  clear: () => Promise<AppError | null>
}

function newestFirst(runs: RunRecord[]): RunRecord[] {
  return [...runs].sort((a, b) => (a.startedAt < b.startedAt ? 1 : a.startedAt > b.startedAt ? -1 : 0))
}

/** Run history, reloaded on `history:changed` and whenever `refresh` is called. */
export function useHistory(): HistoryState {
  const api = useApi()
  const [runs, setRuns] = useState<RunRecord[]>([])
  const [error, setError] = useState<AppError | null>(null)
  // Answers can overtake each other; only the latest request may set state.
  const latest = useRef(0)

  const refresh = useCallback(() => {
    const ticket = ++latest.current
    api.listHistory().then(
      (result) => {
        if (ticket !== latest.current) return
        if (result.ok) {
          setRuns(newestFirst(result.value))
          setError(null)
        } else {
          setError(result.error)
        }
      },
      (cause: unknown) => {
        if (ticket === latest.current) setError(errorFromCause('Loading history', cause))
      }
    )
  }, [api])

  const clear = useCallback(async (): Promise<AppError | null> => {
    const result = await api
      .clearHistory()
      .catch((cause: unknown) => ({ ok: false as const, error: errorFromCause('Clearing history', cause) }))
    refresh()
    return result.ok ? null : result.error
  }, [api, refresh])

  useEffect(() => {
    refresh()
    const off = api.on('history:changed', refresh)
    return off
  }, [api, refresh])

  return { runs, error, refresh, clear }
}
