import { useCallback, useRef, useState } from 'react'
import type { RunRecord } from '../../../shared/python'
import type { AppError } from '../../../shared/result'
import { errorFromCause } from '../common/failure'
import { RUN_TIMEOUT_MS } from '../common/format'
import { useApi } from '../api/context'

/** What the output area shows: a finished run (new or from history), or a run that never started. */
export type ShownRun = { kind: 'record'; record: RunRecord } | { kind: 'not-run'; error: AppError }

export type PythonRunState = {
  /** Id of the run in flight, if any. */
  runningId: string | null
  shown: ShownRun | null
  stopError: AppError | null
  run: (code: string, tableId: string | null) => void
  stop: () => void
  show: (record: RunRecord) => void
}

export function usePythonRun(onFinished: () => void): PythonRunState {
  const api = useApi()
  const [runningId, setRunningId] = useState<string | null>(null)
  const [shown, setShown] = useState<ShownRun | null>(null)
  const [stopError, setStopError] = useState<AppError | null>(null)
  const running = useRef<string | null>(null)

  const run = useCallback(
    (code: string, tableId: string | null) => {
      if (running.current) return
      const runId = crypto.randomUUID()
      running.current = runId
      setRunningId(runId)
      setStopError(null)
      // The time limit is the one in the settings now; the fallback only when they cannot be read.
      void api
        .getSettings()
        .then(
          (r) => (r.ok ? r.value.settings.timeouts.runMs : RUN_TIMEOUT_MS),
          () => RUN_TIMEOUT_MS
        )
        .then((timeoutMs) => api.runPython({ runId, code, tableId, timeoutMs }))
        .catch((cause: unknown) => ({ ok: false as const, error: errorFromCause('Running the program', cause) }))
        .then((result) => {
          if (running.current !== runId) return
          running.current = null
          setRunningId(null)
          setShown(result.ok ? { kind: 'record', record: result.value } : { kind: 'not-run', error: result.error })
          onFinished()
        })
    },
    [api, onFinished]
  )

  const stop = useCallback(() => {
    const runId = running.current
    if (!runId) return
    api.stopPython({ runId }).then(
      (result) => setStopError(result.ok ? null : result.error),
      (cause: unknown) => setStopError(errorFromCause('Stopping the program', cause))
    )
  }, [api])

  const show = useCallback((record: RunRecord) => {
    setShown({ kind: 'record', record })
  }, [])

  return { runningId, shown, stopError, run, stop, show }
}
