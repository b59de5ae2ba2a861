import { ipcRenderer } from 'electron'

type PageWindow = { postMessage(message: string, targetOrigin: string, transfer: unknown[]): void }

/** The executor window's only bridge: hand the MessagePort from main to the page, once. */
ipcRenderer.once('executor:port', (event) => {
  ;(globalThis as unknown as PageWindow).postMessage('tableqa-executor-port', '*', event.ports)
})
