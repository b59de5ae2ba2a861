/**
 * The executor page: a pool of Pyodide workers inside a sandboxed Chromium page with no network
 * beyond its own origin. Main drives it (Electron: a MessagePort from the preload; Node: playwright's
 * evaluate/exposeFunction). The run pool owns isolation (one question's interpreters serve no other) and
 * the time limits: interrupt at the deadline, terminate after a grace.
 */

import type { ExecutorConfig, HostPageTableUrl, HostToPage, PageToHost } from '../../shared/executor-protocol'
import { RunPool } from '../../shared/run-pool'
import { pyodideHosts } from './pool'

declare global {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- merging into Window needs an interface
  interface Window {
    /** Node hosts call this through page.evaluate; settles once the message has been handled. */
    __executorPost?: (message: HostToPage | HostPageTableUrl) => Promise<void>
    /** Node hosts install this with page.exposeFunction. */
    __executorEmit?: (message: PageToHost) => void
  }
}

let pool: RunPool | null = null
let emit: (message: PageToHost) => void = (message) => pending.push(message)
const pending: PageToHost[] = []
const early: HostToPage[] = []

function handle(message: HostToPage): void {
  if (message.type === 'configure') {
    start(message.config)
    return
  }
  if (!pool) {
    early.push(message)
    return
  }
  pool.handle(message)
}

// Messages are handled one after another: a fetched table reaches the pool before the run that needs it.
let inbox: Promise<void> = Promise.resolve()

function receive(message: HostToPage | HostPageTableUrl): Promise<void> {
  const done = inbox.then(() => deliver(message))
  inbox = done.catch(() => {})
  return done
}

async function deliver(message: HostToPage | HostPageTableUrl): Promise<void> {
  if (message.type !== 'table-url') return handle(message)
  const response = await fetch(message.url, { cache: 'no-store' })
  if (!response.ok) throw new Error(`Could not fetch table ${message.tableId}: HTTP ${response.status}`)
  // Bytes, not text: the interpreter parses UTF-8 itself, and a copy of bytes to a worker is one memcpy.
  handle({ type: 'table', tableId: message.tableId, payloadJson: new Uint8Array(await response.arrayBuffer()) })
}

function start(config: ExecutorConfig): void {
  pool?.dispose()
  const base = new URL('.', window.location.href).href
  const spawn = pyodideHosts({
    indexURL: `${base}pyodide/`,
    runtimeURL: `${base}runtime/tableqa.json`,
    // Written out in full so the bundler recognises and builds the worker.
    createWorker: () => new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'pyodide' })
  })
  pool = new RunPool(config, spawn, (message) => emit(message))
  for (const message of early.splice(0)) pool.handle(message)
}

function connect(send: (message: PageToHost) => void): void {
  emit = send
  for (const message of pending.splice(0)) send(message)
}

window.__executorPost = receive
if (window.__executorEmit) {
  const send = window.__executorEmit
  connect((message) => send(message))
}

// Electron: the preload forwards a MessagePort from main.
window.addEventListener('message', (event: MessageEvent) => {
  if (event.source !== window || event.data !== 'tableqa-executor-port') return
  const port = event.ports[0]
  if (!port) return
  port.onmessage = (m: MessageEvent<HostToPage>) => void receive(m.data)
  connect((message) => port.postMessage(message))
})
