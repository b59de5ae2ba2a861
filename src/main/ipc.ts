import { ipcMain, type WebContents } from 'electron'
import { apiMethods, type Channel, type Handlers } from '../shared/api'
import type { EventBus } from './app/events'

/**
 * Register every contract handler. Only the app's own window may call: a message from any other
 * frame or web contents is refused.
 */
export function registerIpc(
  handlers: Handlers,
  events: EventBus,
  isTrusted: (sender: WebContents, frameUrl: string) => boolean
): () => void {
  const channels = Object.values(apiMethods) as Channel[]
  for (const channel of channels) {
    ipcMain.handle(channel, async (event, request: unknown) => {
      if (!isTrusted(event.sender, event.senderFrame?.url ?? '')) {
        return { ok: false, error: { code: 'unauthorized', message: 'This window may not use the TableQA API.' } }
      }
      const handler = handlers[channel] as (request: unknown) => Promise<unknown>
      try {
        return await handler(request)
      } catch (error) {
        // Thrown errors would reach the renderer as "Error invoking remote method": send data instead.
        return { ok: false, error: { code: 'internal', message: 'Something went wrong in the app.', detail: String(error) } }
      }
    })
  }
  const unsubscribe = events.subscribe((event, payload) => {
    for (const contents of trustedContents) if (!contents.isDestroyed()) contents.send(`event:${event}`, payload)
  })
  return () => {
    unsubscribe()
    for (const channel of channels) ipcMain.removeHandler(channel)
  }
}

/** Web contents that receive pushed events (the main window). */
export const trustedContents = new Set<WebContents>()
