import { BrowserWindow, MessageChannelMain, protocol, session } from 'electron'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { EXECUTOR_HEADERS, type ExecutorAssets } from '../services/python/assets'
import { channelSignals, type ChannelFactory, type PageChannel } from '../services/python/channel'
import { allowPermission, executorRequestAllowed, executorWindowPreferences } from './security'

export const EXECUTOR_SCHEME = 'tableqa-exec'
const PARTITION = 'tableqa-executor'

/** Must run before app 'ready': the executor origin is secure and standard so it can be cross-origin isolated. */
export function registerExecutorScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: EXECUTOR_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true } }
  ])
}

/**
 * Hosts the executor page in a hidden, sandboxed window on its own in-memory session: it can load
 * only the executor asset set from its own scheme; every other request is cancelled and every
 * permission refused. Main talks to it over a MessagePort.
 */
export function electronChannelFactory(assets: ExecutorAssets, preloadDir: string): ChannelFactory {
  let prepared = false
  return async () => {
    const executorSession = session.fromPartition(PARTITION)
    if (!prepared) {
      prepared = true
      executorSession.protocol.handle(EXECUTOR_SCHEME, (request) => {
        const asset = assets.resolve(new URL(request.url).pathname)
        if (!asset) return new Response(null, { status: 404, headers: EXECUTOR_HEADERS })
        const body = asset.open()
        const stream = Buffer.isBuffer(body) ? body : (Readable.toWeb(body) as ReadableStream<Uint8Array>)
        return new Response(stream, { status: 200, headers: { ...EXECUTOR_HEADERS, 'content-type': asset.contentType } })
      })
      executorSession.webRequest.onBeforeRequest((details, callback) => {
        callback({ cancel: !executorRequestAllowed(details.url, EXECUTOR_SCHEME) })
      })
      executorSession.setPermissionRequestHandler((_contents, permission, callback) => callback(allowPermission(permission)))
      executorSession.setPermissionCheckHandler((_contents, permission) => allowPermission(permission))
    }
    const window = new BrowserWindow({
      show: false,
      webPreferences: { ...executorWindowPreferences(join(preloadDir, 'executor.cjs')), session: executorSession }
    })
    window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }))
    window.webContents.on('will-navigate', (event) => event.preventDefault())
    window.webContents.on('will-redirect', (event) => event.preventDefault())

    const signals = channelSignals()
    const exit = signals.exit
    window.webContents.on('render-process-gone', (_event, details) => exit(`The Python sandbox stopped (${details.reason}).`))
    window.on('closed', () => exit('The Python sandbox window closed.'))

    await window.loadURL(`${EXECUTOR_SCHEME}://app/executor.html`)
    const { port1, port2 } = new MessageChannelMain()
    port1.on('message', (event) => {
      signals.emit(event.data)
    })
    port1.start()
    window.webContents.postMessage('executor:port', null, [port2])

    const channel: PageChannel = {
      post: (message) => {
        port1.postMessage(message)
        return Promise.resolve()
      },
      sendTable: (tableId, payload) => {
        // Bytes, as the Chromium and CPython channels send them: the interpreter decodes UTF-8 itself.
        port1.postMessage({ type: 'table', tableId, payloadJson: payload })
        return Promise.resolve()
      },
      onMessage: signals.onMessage,
      onExit: signals.onExit,
      close: () => {
        signals.silence()
        port1.close()
        if (!window.isDestroyed()) window.destroy()
        return Promise.resolve()
      }
    }
    return channel
  }
}
