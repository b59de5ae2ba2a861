/**
 * What the executor page sends a Pyodide worker: the `PythonHost` methods as messages (`pool.ts` sends
 * them, `worker.ts` handles them). Interrupts and QA answers go through shared memory instead, because
 * the worker is busy (or blocked) when they are needed.
 */

import type { TablePayload } from '../../shared/executor-protocol'
import type { HostRun } from '../../shared/python-host'

export type WorkerInit = {
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
export type WorkerTable = { type: 'table'; tableId: string; payloadJson: TablePayload }
export type WorkerDropTable = { type: 'drop-table'; tableId: string }
export type WorkerRun = { type: 'run' } & HostRun
export type WorkerCommand = WorkerInit | WorkerTable | WorkerDropTable | WorkerRun

/** Layout of the QA answer buffer shared with a blocked worker. */
export const QA_BUFFER_BYTES = 256 * 1024
export const QA_STATE_WAITING = 0
export const QA_STATE_ANSWERED = 1
export const QA_STATE_FAILED = 2
