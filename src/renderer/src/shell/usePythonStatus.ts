import { useEffect, useState } from 'react'
import type { ExecutorState } from '../../../shared/python'
import { useApi } from '../api/context'
import { asFailure } from '../common/failure'

/** The executor's state: asked once, then kept current by `python:status` events. */
export function usePythonStatus(): ExecutorState {
  const api = useApi()
  const [status, setStatus] = useState<ExecutorState>({ state: 'starting', detail: '' })
  useEffect(() => {
    let live = true
    let pushed = false
    const off = api.on('python:status', (next) => {
      pushed = true
      setStatus(next)
    })
    api.pythonStatus().then(
      (current) => {
        // An event that arrived while the request was in flight is newer than its answer.
        if (!live || pushed) return
        const error = asFailure(current)
        setStatus(error ? { state: 'error', message: error.message } : current)
      },
      (cause: unknown) => {
        if (live && !pushed) setStatus({ state: 'error', message: String(cause) })
      }
    )
    return () => {
      live = false
      off()
    }
  }, [api])
  return status
}
