import type { TableQaApi } from '../../../shared/api'
import { createWebApi } from './web'

declare global {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- merging into Window needs an interface
  interface Window {
    /** Set by the preload script in the desktop app. */
    tableqa?: TableQaApi
  }
}

/** The contract, whichever process serves it: preload in Electron, the local server in browser mode. */
export const api: TableQaApi = window.tableqa ?? createWebApi(window.location)
