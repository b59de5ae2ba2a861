/**
 * Messages between main (the host) and an executor: the sandboxed executor page (Pyodide workers) or
 * the local CPython pool. Names say the direction: Host→Page, Page→Host, Page→Worker, Worker→Page.
 * Only JSON-able data crosses; tables travel as JSON (text, or its UTF-8 bytes, which need no decoding
 * on the way) so the interpreter can `json.loads` them in one call.
 */

import type { BootProgress, PythonRunResult } from './python'
import type { Result } from './result'

/** How an executor should set itself up. */
export type ExecutorConfig = {
  /** Number of interpreters kept booted: one runs, the rest are warm spares. */
  poolSize: number
  /** Load numpy + pandas from the package source; false when the wheels are not present. */
  loadPandas: boolean
  /**
   * Packages from Pyodide's lock file each interpreter loads at start (their dependencies come along).
   * Default: numpy and pandas when `loadPandas`, none otherwise.
   */
  packages?: string[]
  /** Grace after an interrupt before the interpreter is terminated (C-level loops ignore interrupts). */
  killGraceMs: number
  /**
   * Longest wait for an interpreter to load a run's tables before the program starts (default
   * DEFAULT_TABLE_LOAD_LIMIT_MS). Loading is not charged to the program's own time limit.
   */
  tableLoadLimitMs?: number
}

/** A ParsedTable as JSON: text, or its UTF-8 bytes. */
export type TablePayload = string | Uint8Array

/** A table bound to a variable name in the program's namespace. */
export type NamedTable = { name: string; tableId: string }

export type HostPageConfigure = { type: 'configure'; config: ExecutorConfig }
export type HostPageTable = { type: 'table'; tableId: string; payloadJson: TablePayload }
export type HostPageDropTable = { type: 'drop-table'; tableId: string }
/**
 * A table the page fetches from its own origin instead of receiving it in the message: a Node host moves
 * hundreds of MB over HTTP without blocking, where a message would be serialised in one piece. The page
 * turns it into a `table` message, in order with everything else.
 */
export type HostPageTableUrl = { type: 'table-url'; tableId: string; url: string }
export type HostPageRun = {
  type: 'run'
  runId: string
  code: string
  tableId: string | null
  namedTables: NamedTable[]
  timeoutMs: number
  /** Most QA calls this program may make; later calls fail in Python. */
  maxQaCalls: number
}
export type HostPageStop = { type: 'stop'; runId: string }
/** The answer to a QA call (or why there is none). */
export type HostPageQaAnswer = { type: 'qa-answer'; runId: string; callId: number; answer: Result<string> }
export type HostToPage = HostPageConfigure | HostPageTable | HostPageDropTable | HostPageRun | HostPageStop | HostPageQaAnswer

export type PageHostReady = { type: 'ready'; pythonVersion: string; pandas: boolean; bootMs: number }
export type PageHostBootError = { type: 'boot-error'; message: string }
export type PageHostResult = { type: 'result'; runId: string; result: PythonRunResult; killed: boolean; qaCalls: number }
/** A running program asked a sub-question; the run's deadline is paused until the answer arrives. */
export type PageHostQa = { type: 'qa'; runId: string; callId: number; question: string; value: string | null }
export type PageHostLog = { type: 'log'; level: 'info' | 'warn'; message: string }
/** A boot step has begun; only sent before `ready`, and never moving backwards. */
export type PageHostProgress = { type: 'progress'; progress: BootProgress }
export type PageToHost = PageHostReady | PageHostBootError | PageHostResult | PageHostQa | PageHostLog | PageHostProgress

export type PageWorkerInit = {
  type: 'init'
  interruptBuffer: SharedArrayBuffer
  /** Where QA answers are written for the blocked worker: [state:i32][length:i32][utf-8 bytes…]. */
  qaBuffer: SharedArrayBuffer
  /** Absolute URL of the folder holding pyodide.mjs, the stdlib and any wheels. */
  indexURL: string
  /** Absolute URL of the runtime library bundle (JSON: { files: { "tableqa/x.py": source } }). */
  runtimeURL: string
  loadPandas: boolean
  /** Packages to load from the lock file at `${indexURL}pyodide-lock.json`, whose files lie beside it. */
  packages: string[]
}
export type PageWorkerTable = { type: 'table'; tableId: string; payloadJson: TablePayload }
export type PageWorkerDropTable = { type: 'drop-table'; tableId: string }
export type PageWorkerRun = {
  type: 'run'
  runId: string
  code: string
  tableId: string | null
  namedTables: NamedTable[]
  maxQaCalls: number
}
export type PageToWorker = PageWorkerInit | PageWorkerTable | PageWorkerDropTable | PageWorkerRun

export type WorkerPageReady = { type: 'ready'; pythonVersion: string; pandas: boolean; bootMs: number }
export type WorkerPageBootError = { type: 'boot-error'; message: string }
/** `recycle`: the program changed shared interpreter state, so this worker must not run another program. */
export type WorkerPageResult = { type: 'result'; runId: string; resultJson: string; recycle: boolean }
export type WorkerPageQa = { type: 'qa'; runId: string; question: string; value: string | null }
export type WorkerPageProgress = { type: 'progress'; progress: BootProgress }
/** The run's tables are in place and its program begins: its time limit starts now. */
export type WorkerPageStarted = { type: 'started'; runId: string }
export type WorkerToPage = WorkerPageReady | WorkerPageBootError | WorkerPageResult | WorkerPageQa | WorkerPageProgress | WorkerPageStarted

/** Default of `ExecutorConfig.tableLoadLimitMs`. */
export const DEFAULT_TABLE_LOAD_LIMIT_MS = 180_000

/** Layout of the QA answer buffer shared with a blocked worker. */
export const QA_BUFFER_BYTES = 256 * 1024
export const QA_STATE_WAITING = 0
export const QA_STATE_ANSWERED = 1
export const QA_STATE_FAILED = 2
