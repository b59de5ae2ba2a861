import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import { chromium, type Browser, type Page } from 'playwright-core'
import { WebSocketServer, type WebSocket } from 'ws'
import type { HostPageTableUrl, HostToPage } from '../../../shared/executor-protocol'
import { EXECUTOR_HEADERS, type ExecutorAssets } from './assets'
import { channelSignals, type ChannelFactory, type PageChannel } from './channel'

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable']

/** The Chromium used to host the executor outside Electron: $TABLEQA_CHROMIUM or a system install. */
export function findChromium(): string | null {
  const fromEnv = process.env.TABLEQA_CHROMIUM
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : null
  return CANDIDATES.find((path) => existsSync(path)) ?? null
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-extensions',
  '--disable-dev-shm-usage'
]

/** Most bytes one message from the page may carry (a result is capped far below); a larger one ends the channel. */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024

/**
 * The message link between main and the page: one WebSocket on the page's own origin, under an
 * unguessable path given to the page in its URL's fragment. The first connection with the page's origin
 * takes it; any other is refused, and the socket closing ends the channel. Messages go in order both ways
 * without the devtools protocol, whose evaluate and exposed-function round trips cost milliseconds each
 * on main's thread (and requests the page fetches pass through its route check, which sockets skip).
 */
class SocketLink {
  readonly path = `/channel/${randomUUID()}`
  private readonly sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES, perMessageDeflate: false })
  private socket: WebSocket | null = null
  private taken = false
  private ended = false
  private readonly backlog: string[] = []

  constructor(
    private readonly emit: (message: unknown) => void,
    private readonly lost: (reason: string) => void
  ) {}

  /** Attach to the page's server; `origin` is the only Origin a connection may come from. */
  attach(server: Server, origin: string): void {
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      if (this.taken || this.ended || request.url !== this.path || request.headers.origin !== origin) {
        socket.destroy()
        return
      }
      this.taken = true
      this.sockets.handleUpgrade(request, socket, head, (ws) => this.open(ws))
    })
  }

  send(message: HostToPage | HostPageTableUrl): void {
    if (this.ended) throw new Error('the channel to the Python sandbox page is closed')
    const frame = JSON.stringify(message)
    if (this.socket) this.socket.send(frame)
    else this.backlog.push(frame)
  }

  end(): void {
    this.ended = true
    this.socket?.close()
    this.socket = null
    this.backlog.length = 0
    this.sockets.close()
  }

  private open(ws: WebSocket): void {
    if (this.ended) {
      ws.terminate()
      return
    }
    this.socket = ws
    for (const frame of this.backlog.splice(0)) ws.send(frame)
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary || this.ended) return
      let message: unknown
      try {
        message = JSON.parse(data.toString('utf8'))
      } catch {
        return
      }
      // The executor decodes every message before believing it.
      this.emit(message)
    })
    const closed = (reason: string): void => {
      if (this.ended) return
      this.end()
      this.lost(reason)
    }
    ws.on('close', () => closed('The Python sandbox page lost its connection.'))
    ws.on('error', () => closed('The Python sandbox page sent a message the app does not accept.'))
  }
}

type PendingTable = { payload: Uint8Array; fetched: () => void }

/**
 * Serves exactly the executor asset set on a loopback port, plus the tables on their way to the page (each under an unguessable path, removed once fetched); everything else is 404.
 */
function serveAssets(assets: ExecutorAssets, tables: Map<string, PendingTable>): Promise<Server> {
  const server = createServer({ noDelay: true }, (request, response) => {
    const table = request.method === 'GET' ? tables.get(request.url ?? '') : undefined
    if (table) {
      tables.delete(request.url ?? '')
      response.writeHead(200, { ...EXECUTOR_HEADERS, 'content-type': 'application/json; charset=utf-8', 'content-length': table.payload.byteLength })
      response.on('close', table.fetched)
      response.end(table.payload)
      return
    }
    const asset = request.method === 'GET' ? assets.resolve(request.url ?? '/') : null
    if (!asset) {
      response.writeHead(404, EXECUTOR_HEADERS).end()
      return
    }
    response.writeHead(asset.status, { ...EXECUTOR_HEADERS, 'content-type': asset.contentType, 'content-length': asset.size })
    const body = asset.open()
    if (Buffer.isBuffer(body)) response.end(body)
    else body.pipe(response)
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve(server))
  })
}

/**
 * Hosts the executor page in headless Chromium (browser mode, command line, tests). The page gets
 * only its own origin: every other request is aborted, on top of the page's connect-src policy.
 */
export function chromiumChannelFactory(
  assets: ExecutorAssets,
  executablePath: string,
  /** Tests of the sandbox itself reach into the page here (e.g. to keep its workers busy); nothing else should. */
  onPage?: (page: Page) => void
): ChannelFactory {
  return async () => {
    const tables = new Map<string, PendingTable>()
    const signals = channelSignals()
    const exit = signals.exit
    const link = new SocketLink(signals.emit, exit)
    const server = await serveAssets(assets, tables)
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    link.attach(server, origin)
    const release = (): void => {
      link.end()
      for (const table of tables.values()) table.fetched()
      tables.clear()
    }
    signals.onExit(release)
    let browser: Browser | null = null
    try {
      browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true })
      const context = await browser.newContext({ serviceWorkers: 'block', acceptDownloads: false })
      await context.route('**/*', (route) =>
        route.request().url().startsWith(`${origin}/`) ? route.continue() : route.abort('blockedbyclient')
      )
      const page = await context.newPage()
      // TABLEQA_DEBUG_PAGE=1 shows what the page and its workers log, for looking into the sandbox itself.
      if (process.env.TABLEQA_DEBUG_PAGE) {
        page.on('console', (m) => console.log('[executor page]', m.text()))
        page.on('pageerror', (e) => console.log('[executor page error]', e.message))
      }
      page.on('crash', () => exit('The Python sandbox page crashed (out of memory?).'))
      page.on('close', () => exit('The Python sandbox page closed.'))
      browser.on('disconnected', () => exit('The Python sandbox browser exited.'))
      await page.goto(`${origin}/executor.html#channel=${link.path}`)
      onPage?.(page)
      const owned = browser
      const channel: PageChannel = {
        post(message) {
          try {
            link.send(message)
            return Promise.resolve()
          } catch (error) {
            return Promise.reject(error instanceof Error ? error : new Error(String(error)))
          }
        },
        sendTable(tableId, payload) {
          // Fetched by the page rather than sent in a message: one frame of hundreds of MB would be built on this thread.
          const path = `/table/${randomUUID()}.json`
          return new Promise<void>((resolve, reject) => {
            tables.set(path, { payload, fetched: resolve })
            try {
              link.send({ type: 'table-url', tableId, url: `${origin}${path}` })
            } catch (error) {
              tables.delete(path)
              reject(error instanceof Error ? error : new Error(String(error)))
            }
          })
        },
        onMessage: signals.onMessage,
        onExit: signals.onExit,
        async close() {
          signals.silence()
          release()
          await owned.close().catch(() => {})
          server.close()
        }
      }
      return channel
    } catch (error) {
      await browser?.close().catch(() => {})
      server.close()
      throw error
    }
  }
}
