import type { HostToPage, PageToHost } from '../../../shared/executor-protocol'

/** A live connection to one executor page, whatever hosts it (hidden Electron window, headless Chromium). */
export type PageChannel = {
  /** Deliver a message to the page. */
  post(message: HostToPage): Promise<void>
  onMessage(listener: (message: PageToHost) => void): void
  /** The page or its browser died; the channel is unusable afterwards. */
  onExit(listener: (reason: string) => void): void
  close(): Promise<void>
}

/** Opens a fresh executor page. Called at start and after a crash. */
export type ChannelFactory = () => Promise<PageChannel>
