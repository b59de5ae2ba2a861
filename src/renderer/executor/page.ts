/**
 * The executor page: a pool of Pyodide workers inside a sandboxed Chromium page with no network
 * beyond its own origin. Main drives it (Electron: a MessagePort from the preload; Node: a WebSocket on
 * the page's own origin, under the path its URL's fragment names). The run pool owns isolation (one
 * question's interpreters serve no other) and the time limits: interrupt at the deadline, terminate
 * after a grace.
 */

import type { ExecutorConfig, HostPageTableUrl, HostToPage, PageToHost } from '../../shared/executor-protocol'
import { RunPool } from '../../shared/run-pool'
import { pyodideHosts } from './pool'

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

/**
 * Node hosts: one WebSocket on this page's own origin, under the path the URL's fragment names. What the
 * page sends before it opens waits, in order.
 */
function connectSocket(path: string): void {
  const socket = new WebSocket(`ws://${window.location.host}${path}`)
  const waiting: string[] = []
  socket.onopen = () => {
    for (const frame of waiting.splice(0)) socket.send(frame)
  }
  socket.onmessage = (event: MessageEvent<unknown>) => {
    if (typeof event.data !== 'string') return
    // A table that cannot be fetched never reaches the pool; runs that need it say it is not open.
    receive(JSON.parse(event.data) as HostToPage | HostPageTableUrl).catch(() => {})
  }
  connect((message) => {
    const frame = JSON.stringify(message)
    if (socket.readyState === WebSocket.OPEN) socket.send(frame)
    else if (socket.readyState === WebSocket.CONNECTING) waiting.push(frame)
  })
}

const channelPath = new URLSearchParams(window.location.hash.slice(1)).get('channel')
if (channelPath !== null && /^\/channel\/[0-9a-f-]{36}$/.test(channelPath)) connectSocket(channelPath)

// Electron: the preload forwards a MessagePort from main.
window.addEventListener('message', (event: MessageEvent) => {
  if (event.source !== window || event.data !== 'tableqa-executor-port') return
  const port = event.ports[0]
  if (!port) return
  port.onmessage = (m: MessageEvent<HostToPage>) => void receive(m.data).catch(() => {})
  connect((message) => port.postMessage(message))
})
