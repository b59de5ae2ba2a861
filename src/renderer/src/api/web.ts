import {
  apiMethods,
  type ApiMethods,
  type EventName,
  type EventSpec,
  type RequestOf,
  type ResponseOf,
  type TableQaApi
} from '../../../shared/api'
import { decodeWire, encodeWire } from '../../../shared/wire'

const TOKEN_KEY = 'tableqa-token'

/** Browser mode: the per-launch token arrives in the URL fragment printed by `npm run web`. */
function readToken(location: Location): string {
  const fromHash = new URLSearchParams(location.hash.replace(/^#/, '')).get('token')
  if (fromHash) {
    sessionStorage.setItem(TOKEN_KEY, fromHash)
    return fromHash
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? ''
}

export function createWebApi(location: Location): TableQaApi {
  const token = readToken(location)
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>()
  let source: EventSource | null = null

  async function call<M extends keyof ApiMethods>(method: M, request: RequestOf<ApiMethods[M]>): Promise<ResponseOf<ApiMethods[M]>> {
    const channel = apiMethods[method]
    let response: Response
    try {
      response = await fetch(`/api/${encodeURIComponent(channel)}`, {
        method: 'POST',
        headers: { 'x-tableqa-token': token, 'content-type': 'application/octet-stream' },
        body: encodeWire(request ?? null)
      })
    } catch (cause) {
      return transportFailure(`The TableQA server did not answer (${String(cause)}). Is \`npm run web\` still running?`)
    }
    if (response.status === 401) {
      return transportFailure('This page has no valid access token. Open the URL that `npm run web` printed, including its #token= part.')
    }
    if (!response.ok) return transportFailure(`The TableQA server answered HTTP ${response.status}.`)
    return decodeWire(new Uint8Array(await response.arrayBuffer())) as ResponseOf<ApiMethods[M]>
  }

  function ensureEvents(): void {
    if (source) return
    source = new EventSource(`/api/events?token=${encodeURIComponent(token)}`)
    source.onmessage = (message: MessageEvent<string>) => {
      const { event, payload } = JSON.parse(message.data) as { event: EventName; payload: unknown }
      for (const listener of listeners.get(event) ?? []) listener(payload)
    }
  }

  const methods = Object.fromEntries(
    (Object.keys(apiMethods) as (keyof ApiMethods)[]).map((method) => [method, (request?: unknown) => call(method, request as never)])
  ) as Omit<TableQaApi, 'on'>

  return {
    ...methods,
    on<E extends EventName>(event: E, listener: (payload: EventSpec[E]) => void): () => void {
      ensureEvents()
      const set = listeners.get(event) ?? new Set()
      set.add(listener as (payload: unknown) => void)
      listeners.set(event, set)
      return () => set.delete(listener as (payload: unknown) => void)
    }
  }
}

/** Transport failures look like any other failed operation, so the UI has one error path. */
function transportFailure<T>(message: string): T {
  return { ok: false, error: { code: 'internal', message } } as T
}
