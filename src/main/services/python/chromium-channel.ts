import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { chromium, type Browser, type Page } from 'playwright-core'
import type { HostPageTableUrl } from '../../../shared/executor-protocol'
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

/**
 * Serves exactly the executor asset set on a loopback port, plus the tables on their way to the page
 * (each under an unguessable path, removed once fetched); everything else is 404.
 */
function serveAssets(assets: ExecutorAssets, tables: Map<string, Uint8Array>): Promise<Server> {
  const server = createServer((request, response) => {
    const table = request.method === 'GET' ? tables.get(request.url ?? '') : undefined
    if (table) {
      tables.delete(request.url ?? '')
      response.writeHead(200, { ...EXECUTOR_HEADERS, 'content-type': 'application/json; charset=utf-8', 'content-length': table.byteLength })
      response.end(table)
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
    const tables = new Map<string, Uint8Array>()
    const server = await serveAssets(assets, tables)
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    let browser: Browser | null = null
    try {
      browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true })
      const context = await browser.newContext({ serviceWorkers: 'block', acceptDownloads: false })
      await context.route('**/*', (route) =>
        route.request().url().startsWith(`${origin}/`) ? route.continue() : route.abort('blockedbyclient')
      )
      const signals = channelSignals()
      const exit = signals.exit
      await context.exposeFunction('__executorEmit', (message: unknown) => signals.emit(message))
      const page = await context.newPage()
      // TABLEQA_DEBUG_PAGE=1 shows what the page and its workers log, for looking into the sandbox itself.
      if (process.env.TABLEQA_DEBUG_PAGE) {
        page.on('console', (m) => console.log('[executor page]', m.text()))
        page.on('pageerror', (e) => console.log('[executor page error]', e.message))
      }
      page.on('crash', () => exit('The Python sandbox page crashed (out of memory?).'))
      page.on('close', () => exit('The Python sandbox page closed.'))
      browser.on('disconnected', () => exit('The Python sandbox browser exited.'))
      await page.goto(`${origin}/executor.html`)
      onPage?.(page)
      const owned = browser
      const channel: PageChannel = {
        async post(message) {
          // Runs in the page: its global is the page's window.
          await page.evaluate((m) => (globalThis as { __executorPost?: (m: unknown) => Promise<void> }).__executorPost?.(m), message)
        },
        async sendTable(tableId, payload) {
          // Over HTTP rather than in an evaluate: the protocol would serialise the whole table on this thread.
          const path = `/table/${randomUUID()}.json`
          tables.set(path, payload)
          const message: HostPageTableUrl = { type: 'table-url', tableId, url: `${origin}${path}` }
          try {
            await page.evaluate((m) => (globalThis as { __executorPost?: (m: unknown) => Promise<void> }).__executorPost?.(m), message)
          } finally {
            tables.delete(path)
          }
        },
        onMessage: signals.onMessage,
        onExit: signals.onExit,
        async close() {
          signals.silence()
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
