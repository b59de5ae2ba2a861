/**
 * Messages between main (the host) and the sandboxed executor page, and between that page and its
 * Pyodide workers. Names say the direction: Host→Page, Page→Host, Page→Worker, Worker→Page.
 * Only JSON-able data crosses; tables travel as JSON text so the worker can `json.loads` them in one call.
 */

import type { PythonRunResult } from './python'

/** How the executor page should set itself up. */
export type ExecutorConfig = {
  /** Number of Pyodide workers kept booted: one runs, the rest are warm spares. */
  poolSize: number
  /** Load numpy + pandas from the package source; false when the wheels are not present. */
  loadPandas: boolean
  /** Grace after an interrupt before the worker is terminated (C-level loops ignore interrupts). */
  killGraceMs: number
}

export type HostPageConfigure = { type: 'configure'; config: ExecutorConfig }
export type HostPageTable = { type: 'table'; tableId: string; payloadJson: string }
export type HostPageDropTable = { type: 'drop-table'; tableId: string }
export type HostPageRun = { type: 'run'; runId: string; code: string; tableId: string | null; timeoutMs: number }
export type HostPageStop = { type: 'stop'; runId: string }
export type HostToPage = HostPageConfigure | HostPageTable | HostPageDropTable | HostPageRun | HostPageStop

export type PageHostReady = { type: 'ready'; pythonVersion: string; pandas: boolean; bootMs: number }
export type PageHostBootError = { type: 'boot-error'; message: string }
export type PageHostResult = { type: 'result'; runId: string; result: PythonRunResult; killed: boolean }
export type PageHostLog = { type: 'log'; level: 'info' | 'warn'; message: string }
export type PageToHost = PageHostReady | PageHostBootError | PageHostResult | PageHostLog

export type PageWorkerInit = {
  type: 'init'
  interruptBuffer: SharedArrayBuffer
  /** Absolute URL of the folder holding pyodide.mjs, the stdlib and any wheels. */
  indexURL: string
  /** Absolute URL of the runtime library bundle (JSON: { files: { "tableqa/x.py": source } }). */
  runtimeURL: string
  loadPandas: boolean
}
export type PageWorkerTable = { type: 'table'; tableId: string; payloadJson: string }
export type PageWorkerDropTable = { type: 'drop-table'; tableId: string }
export type PageWorkerRun = { type: 'run'; runId: string; code: string; tableId: string | null }
export type PageToWorker = PageWorkerInit | PageWorkerTable | PageWorkerDropTable | PageWorkerRun

export type WorkerPageReady = { type: 'ready'; pythonVersion: string; pandas: boolean; bootMs: number }
export type WorkerPageBootError = { type: 'boot-error'; message: string }
export type WorkerPageResult = { type: 'result'; runId: string; resultJson: string }
export type WorkerToPage = WorkerPageReady | WorkerPageBootError | WorkerPageResult
