import { useEffect, useState } from 'react'
import type { AppInfo } from '../../../shared/api'
import type { AppError } from '../../../shared/result'
import { asFailure, errorFromCause } from './failure'
import { useApi } from '../api/context'

export type AppInfoState = { info: AppInfo | null; error: AppError | null }

export function useAppInfo(): AppInfoState {
  const api = useApi()
  const [state, setState] = useState<AppInfoState>({ info: null, error: null })
  useEffect(() => {
    let live = true
    api.appInfo().then(
      (info) => {
        if (!live) return
        const error = asFailure(info)
        setState(error ? { info: null, error } : { info, error: null })
      },
      (cause: unknown) => {
        if (live) setState({ info: null, error: errorFromCause('Reading app info', cause) })
      }
    )
    return () => {
      live = false
    }
  }, [api])
  return state
}
