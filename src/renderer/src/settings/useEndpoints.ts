import { useCallback, useEffect, useRef, useState } from 'react'
import type { EndpointDraft, EndpointTestReport, EndpointView } from '../../../shared/ask'
import type { AppError, Result } from '../../../shared/result'
import { errorFromCause } from '../common/failure'
import { useApi } from '../api/context'

export type EndpointsState = {
  endpoints: EndpointView[]
  /** Whether the list has been asked for once (so "none set up" is not shown while loading). */
  loaded: boolean
  error: AppError | null
  defaultEndpoint: EndpointView | null
  /** Endpoints that can answer now: the added ones, and the built-in one when its model is ready. */
  usable: EndpointView[]
  /** The endpoints the user added (OpenAI-compatible servers), without the built-in one. */
  configured: EndpointView[]
  refresh: () => void
  save: (endpoint: EndpointDraft, apiKey: string | null | undefined, makeDefault: boolean) => Promise<Result<EndpointView>>
  remove: (id: string) => Promise<AppError | null>
  test: (id: string) => Promise<Result<EndpointTestReport>>
  models: (id: string) => Promise<Result<string[]>>
}

function caught<T>(doing: string): (cause: unknown) => Result<T> {
  return (cause) => ({ ok: false, error: errorFromCause(doing, cause) })
}

/** The configured model endpoints (never their keys), and the operations of the settings screen. */
export function useEndpoints(): EndpointsState {
  const api = useApi()
  const [endpoints, setEndpoints] = useState<EndpointView[]>([])
  const [loaded, setLoaded] = useState(false)
  const [error, setError] = useState<AppError | null>(null)
  const latest = useRef(0)

  const refresh = useCallback(() => {
    const ticket = ++latest.current
    api.listEndpoints().then(
      (result) => {
        if (ticket !== latest.current) return
        setLoaded(true)
        if (result.ok) {
          setEndpoints(result.value)
          setError(null)
        } else setError(result.error)
      },
      (cause: unknown) => {
        if (ticket !== latest.current) return
        setLoaded(true)
        setError(errorFromCause('Listing endpoints', cause))
      }
    )
  }, [api])

  useEffect(refresh, [refresh])

  const save = useCallback(
    async (endpoint: EndpointDraft, apiKey: string | null | undefined, makeDefault: boolean) => {
      const request = apiKey === undefined ? { endpoint, makeDefault } : { endpoint, apiKey, makeDefault }
      const result = await api.saveEndpoint(request).catch(caught<EndpointView>('Saving the endpoint'))
      refresh()
      return result
    },
    [api, refresh]
  )

  const remove = useCallback(
    async (id: string) => {
      const result = await api.deleteEndpoint({ id }).catch(caught<null>('Deleting the endpoint'))
      refresh()
      return result.ok ? null : result.error
    },
    [api, refresh]
  )

  const test = useCallback((id: string) => api.testEndpoint({ id }).catch(caught<EndpointTestReport>('Testing the endpoint')), [api])
  const models = useCallback((id: string) => api.endpointModels({ id }).catch(caught<string[]>('Listing models')), [api])

  return {
    endpoints,
    loaded,
    error,
    defaultEndpoint: endpoints.find((e) => e.isDefault) ?? null,
    usable: endpoints.filter(isUsable),
    configured: endpoints.filter((e) => e.kind !== 'builtin'),
    refresh,
    save,
    remove,
    test,
    models
  }
}

/** Whether an endpoint can answer now (the built-in one needs its model file). */
export function isUsable(e: EndpointView): boolean {
  return e.kind !== 'builtin' || e.builtinState?.state === 'ready'
}
