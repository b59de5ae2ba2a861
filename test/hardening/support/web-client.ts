import type { Channel, RequestOf, ResponseOf } from '../../../src/shared/api'
import { decodeWire, encodeWire } from '../../../src/shared/wire'

/** Calls the browser-mode server's contract over HTTP, as the UI does. */
export function webClient(
  url: string
): <C extends Channel>(channel: C, request: RequestOf<C>, signal?: AbortSignal) => Promise<ResponseOf<C>> {
  const parsed = new URL(url)
  const token = new URLSearchParams(parsed.hash.slice(1)).get('token') ?? ''
  return async (channel, request, signal) => {
    const response = await fetch(`${parsed.origin}/api/${encodeURIComponent(channel)}`, {
      method: 'POST',
      headers: { 'x-tableqa-token': token, 'content-type': 'application/octet-stream' },
      body: encodeWire(request),
      ...(signal === undefined ? {} : { signal })
    })
    if (!response.ok) throw new Error(`${channel}: HTTP ${response.status}`)
    return decodeWire(new Uint8Array(await response.arrayBuffer())) as ResponseOf<typeof channel>
  }
}
