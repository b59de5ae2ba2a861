import { createReadStream, existsSync, statSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize, relative } from 'node:path'
import { timingSafeEqual } from 'node:crypto'
import type { Channel, Handlers } from '../../shared/api'
import { decodeWire, encodeWire } from '../../shared/wire'
import type { EventBus } from '../app/events'

export type WebServerOptions = {
  handlers: Handlers
  events: EventBus
  /** Built renderer (index.html + assets). */
  rendererDir: string
  token: string
  port: number
  /** Largest request body accepted (a file upload). */
  maxBodyBytes: number
}

const UI_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; worker-src 'none'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2'
}

/**
 * Browser mode: the UI and the contract on 127.0.0.1 only. Every API call carries the per-launch
 * token; the Host header must name this server (no DNS rebinding); no CORS headers are ever sent.
 */
export function startWebServer(options: WebServerOptions): Promise<{ server: Server; url: string }> {
  const channels = new Set(Object.keys(options.handlers))
  const tokenBytes = Buffer.from(options.token)
  const authorised = (given: string | null | undefined): boolean => {
    const bytes = Buffer.from(given ?? '')
    return bytes.length === tokenBytes.length && timingSafeEqual(bytes, tokenBytes)
  }

  const server = createServer((request, response) => {
    void route(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' })
      response.end(String(error))
    })
  })

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const port = (server.address() as AddressInfo).port
    const host = request.headers.host ?? ''
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) {
      response.writeHead(421, { 'content-type': 'text/plain' }).end('Wrong host.')
      return
    }
    const url = new URL(request.url ?? '/', `http://${host}`)
    if (url.pathname === '/api/events' && request.method === 'GET') {
      if (!authorised(url.searchParams.get('token'))) {
        response.writeHead(401).end()
        return
      }
      streamEvents(response)
      return
    }
    if (url.pathname.startsWith('/api/') && request.method === 'POST') {
      const channel = decodeURIComponent(url.pathname.slice('/api/'.length))
      if (!authorised(request.headers['x-tableqa-token'] as string | undefined)) {
        response.writeHead(401).end()
        return
      }
      if (!channels.has(channel)) {
        response.writeHead(404).end()
        return
      }
      const body = await readBody(request, options.maxBodyBytes)
      if (body === null) {
        response.writeHead(413, { 'content-type': 'text/plain' }).end('Request too large.')
        return
      }
      const handler = options.handlers[channel as Channel] as (request: unknown) => Promise<unknown>
      const result = await handler(decodeWire(body))
      const encoded = encodeWire(result)
      response.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-length': encoded.byteLength,
        'cache-control': 'no-store'
      })
      response.end(encoded)
      return
    }
    if (request.method === 'GET') {
      serveStatic(url.pathname, response)
      return
    }
    response.writeHead(405).end()
  }

  function streamEvents(response: ServerResponse): void {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' })
    response.write(': connected\n\n')
    const unsubscribe = options.events.subscribe((event, payload) => {
      response.write(`data: ${JSON.stringify({ event, payload })}\n\n`)
    })
    const keepAlive = setInterval(() => response.write(': keep-alive\n\n'), 15_000)
    response.on('close', () => {
      clearInterval(keepAlive)
      unsubscribe()
    })
  }

  function serveStatic(pathname: string, response: ServerResponse): void {
    const name = pathname === '/' ? 'index.html' : pathname.slice(1)
    const full = normalize(join(options.rendererDir, name))
    const inside = !relative(options.rendererDir, full).startsWith('..')
    const allowed = name === 'index.html' || name.startsWith('assets/')
    if (!inside || !allowed || !existsSync(full) || !statSync(full).isFile()) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found.')
      return
    }
    response.writeHead(200, {
      'content-type': TYPES[extname(full)] ?? 'application/octet-stream',
      'content-security-policy': UI_CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': name === 'index.html' ? 'no-store' : 'max-age=3600'
    })
    createReadStream(full).pipe(response)
  }

  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, '127.0.0.1', () => {
      const port = (server.address() as AddressInfo).port
      resolve({ server, url: `http://127.0.0.1:${port}/#token=${options.token}` })
    })
  })
}

function readBody(request: IncomingMessage, limit: number): Promise<Uint8Array | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let over = false
    request.on('data', (chunk: Buffer) => {
      size += chunk.byteLength
      if (size > limit) over = true
      else chunks.push(chunk)
    })
    request.on('end', () => {
      if (over) return resolve(null)
      // A view on the joined buffer: a 100 MB upload is copied once, not twice.
      const joined = Buffer.concat(chunks, size)
      resolve(new Uint8Array(joined.buffer, joined.byteOffset, joined.byteLength))
    })
    request.on('error', reject)
  })
}
