import { useEffect, useState } from 'react'
import type { EndpointView } from '../../../shared/ask'
import type { EndpointsState } from './useEndpoints'

export type EndpointHealth =
  | { state: 'not-set-up' }
  | { state: 'checking'; name: string }
  | { state: 'reachable'; name: string; checkedAt: number }
  | { state: 'unreachable'; name: string; message: string; checkedAt: number }

/** The default endpoint is tested at most this often. */
export const HEALTH_INTERVAL_MS = 60_000

type Checked = { version: string; ok: boolean; message: string; checkedAt: number }

/** Whether the default endpoint answers: tested when it changes and then every minute. */
export function useEndpointHealth(defaultEndpoint: EndpointView | null, loaded: boolean, test: EndpointsState['test']): EndpointHealth {
  const [checked, setChecked] = useState<Checked | null>(null)
  const id = defaultEndpoint?.id ?? null
  // A saved change (new URL, new model, new key) deserves a new check.
  const version = defaultEndpoint
    ? `${defaultEndpoint.id}|${defaultEndpoint.baseUrl}|${defaultEndpoint.model}|${defaultEndpoint.api}|${defaultEndpoint.hasKey}|${defaultEndpoint.builtinState?.state ?? ''}`
    : ''

  useEffect(() => {
    if (!loaded || id === null) return
    let live = true
    const check = (): void => {
      test(id).then(
        (result) => {
          if (live)
            setChecked({ version, ok: result.ok, message: result.ok ? result.value.message : result.error.message, checkedAt: Date.now() })
        },
        () => undefined
      )
    }
    check()
    const timer = setInterval(check, HEALTH_INTERVAL_MS)
    return () => {
      live = false
      clearInterval(timer)
    }
  }, [id, version, loaded, test])

  if (!defaultEndpoint) return { state: 'not-set-up' }
  // The built-in endpoint without its model file is not set up yet, rather than unreachable.
  if (defaultEndpoint.kind === 'builtin' && defaultEndpoint.builtinState?.state === 'missing') return { state: 'not-set-up' }
  const name = defaultEndpoint.name
  if (checked === null || checked.version !== version) return { state: 'checking', name }
  return checked.ok
    ? { state: 'reachable', name, checkedAt: checked.checkedAt }
    : { state: 'unreachable', name, message: checked.message, checkedAt: checked.checkedAt }
}
