import type { HostToPage } from '../../../shared/executor-protocol'

/** A live connection to one executor page, whatever hosts it (hidden Electron window, headless Chromium). */
export type PageChannel = {
  /** Deliver a message to the page. */
  post(message: HostToPage): Promise<void>
  /**
   * Deliver a table (a ParsedTable as UTF-8 JSON). Its own method because tables can be hundreds of MB:
   * each channel moves them the way that keeps the host's event loop free, in order with `post`.
   */
  sendTable(tableId: string, payload: Uint8Array): Promise<void>
  /** What the page sends, as it arrived: the executor decodes it (`decodePageMessage`). */
  onMessage(listener: (message: unknown) => void): void
  /** The page or its browser died; the channel is unusable afterwards. */
  onExit(listener: (reason: string) => void): void
  close(): Promise<void>
}

/** Opens a fresh executor page. Called at start and after a crash. */
export type ChannelFactory = () => Promise<PageChannel>

/**
 * The listener bookkeeping every channel needs: messages fanned out to subscribers, and an exit
 * reported once (a closed channel reports nothing).
 */
export function channelSignals(): {
  emit: (message: unknown) => void
  exit: (reason: string) => void
  /** Called on a deliberate close: no exit is reported afterwards. */
  silence: () => void
  onMessage: (listener: (message: unknown) => void) => void
  onExit: (listener: (reason: string) => void) => void
} {
  const messageListeners: ((message: unknown) => void)[] = []
  const exitListeners: ((reason: string) => void)[] = []
  let exited = false
  return {
    emit: (message) => {
      for (const listener of messageListeners) listener(message)
    },
    exit: (reason) => {
      if (exited) return
      exited = true
      for (const listener of exitListeners) listener(reason)
    },
    silence: () => {
      exited = true
    },
    onMessage: (listener) => {
      messageListeners.push(listener)
    },
    onExit: (listener) => {
      exitListeners.push(listener)
    }
  }
}
