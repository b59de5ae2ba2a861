import { useCallback, useEffect, useState } from 'react'
import type { PackageSource, PackagesState, PackagesView } from '../../../shared/packages'
import type { AppError, Result } from '../../../shared/result'
import { useApi } from '../api/context'

export type PackagesHook = {
  view: PackagesView | null
  /** The latest state: from the view, then from `packages:status` events. */
  state: PackagesState
  error: AppError | null
  saving: boolean
  /** Save a source and start fetching from it; the save's outcome (a refusal says why). */
  setSource: (source: PackageSource) => Promise<Result<PackagesView>>
  retry: () => void
}

/** The sandbox's package files: asked once, then kept current by `packages:status` events. */
export function usePackages(): PackagesHook {
  const api = useApi()
  const [view, setView] = useState<PackagesView | null>(null)
  const [state, setState] = useState<PackagesState>({ state: 'idle' })
  const [error, setError] = useState<AppError | null>(null)
  const [saving, setSaving] = useState(false)

  useEffect(() => {
    let live = true
    let pushed = false
    const off = api.on('packages:status', (next) => {
      pushed = true
      setState(next)
    })
    api.packageInfo().then(
      (r) => {
        if (!live) return
        if (!r.ok) return setError(r.error)
        setView(r.value)
        // An event that arrived while the request was in flight is newer than its answer.
        if (!pushed) setState(r.value.state)
      },
      (cause: unknown) => live && setError({ code: 'internal', message: String(cause) })
    )
    return () => {
      live = false
      off()
    }
  }, [api])

  const apply = useCallback((r: Result<PackagesView>): Result<PackagesView> => {
    if (!r.ok) setError(r.error)
    else {
      setView(r.value)
      setError(null)
    }
    return r
  }, [])

  const setSource = useCallback(
    async (source: PackageSource): Promise<Result<PackagesView>> => {
      setSaving(true)
      try {
        return apply(await api.setPackageSource({ source }))
      } catch (cause) {
        return apply({ ok: false, error: { code: 'internal', message: String(cause) } })
      } finally {
        setSaving(false)
      }
    },
    [api, apply]
  )

  const retry = useCallback(() => {
    api.retryPackages().then(apply, (cause: unknown) => setError({ code: 'internal', message: String(cause) }))
  }, [api, apply])

  return { view, state, error, saving, setSource, retry }
}
