/**
 * Messages between main (the host) and an executor: the sandboxed executor page (Pyodide workers) or
 * the local CPython pool. Names say the direction: Host→Page, Page→Host. Only JSON-able data crosses;
 * tables travel as JSON (text, or its UTF-8 bytes, which need no decoding on the way) so the
 * interpreter can `json.loads` them in one call. What one interpreter says to the pool is the Python
 * host protocol (`python-host.ts`).
 */

import { isCount, isFields, isOneOf, isText } from './check'
import type { BootProgress, PythonRunResult } from './python'
import { QA_QUESTION_LIMIT, QA_VALUE_LIMIT } from './python-host'
import { assertNever, type Result } from './result'
import { checkRunResult } from './run-result'

/** How an executor should set itself up. */
export type ExecutorConfig = {
  /** Clean interpreters kept booted and loaded with the open tables, ready for the next question. */
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
  /**
   * How long past its own time limit a run may wait for its interpreter to start it once its tables are
   * loaded (default DEFAULT_START_GRACE_MS); then the interpreter is replaced and the run fails.
   */
  startGraceMs?: number
  /** Most interpreters one question's runs use at once (default DEFAULT_SCOPE_PARALLELISM). */
  scopeParallelism?: number
  /** Most table JSON, in bytes, loaded into each spare ahead of questions (default DEFAULT_PRELOAD_BYTES). */
  preloadBytes?: number
}

/** Defaults of the optional `ExecutorConfig` fields. */
export const DEFAULT_TABLE_LOAD_LIMIT_MS = 180_000
export const DEFAULT_START_GRACE_MS = 2_000
export const DEFAULT_SCOPE_PARALLELISM = 2
export const DEFAULT_PRELOAD_BYTES = 512 * 1024 * 1024

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
  /** The question the program answers, when there is one (it settles labels that name several headers). */
  question?: string
  /**
   * The unit of isolation the run belongs to (a question, or the run alone). Runs of one scope may share
   * interpreters; an interpreter that ran a program of a scope serves no other and is destroyed at
   * `end-scope`. Null: the app's own trusted code (evaluation with gold programs), which runs in clean
   * interpreters and leaves them in service.
   */
  scope: string | null
}
export type HostPageStop = { type: 'stop'; runId: string }
/** The answer to a QA call (or why there is none). */
export type HostPageQaAnswer = { type: 'qa-answer'; runId: string; callId: number; answer: Result<string> }
/** No more runs of this scope: its interpreters are destroyed once their runs have finished. */
export type HostPageEndScope = { type: 'end-scope'; scope: string }
export type HostToPage =
  HostPageConfigure | HostPageTable | HostPageDropTable | HostPageRun | HostPageStop | HostPageQaAnswer | HostPageEndScope

/** Why interpreters could not boot; main words it (`bootFailureText`). */
export type BootFailure = 'runtime' | 'packages' | 'library' | 'interpreter'

export type PageHostReady = { type: 'ready'; pythonVersion: string; pandas: boolean; bootMs: number }
/** Interpreters failed to boot; only before the executor is ready. `detail` is for logs. */
export type PageHostBootError = { type: 'boot-error'; failure: BootFailure; detail: string }
export type PageHostResult = { type: 'result'; runId: string; result: PythonRunResult; killed: boolean; qaCalls: number }
/** A running program asked a sub-question; the run's deadline is paused until the answer arrives. */
export type PageHostQa = { type: 'qa'; runId: string; callId: number; question: string; value: string | null }
/** A boot step has begun; only sent before `ready`, and never moving backwards. */
export type PageHostProgress = { type: 'progress'; progress: BootProgress }
/** How many clean interpreters are booted with every open table loaded, out of the pool size. */
export type PageHostSpares = { type: 'spares'; warm: number; size: number }
export type PageToHost = PageHostReady | PageHostBootError | PageHostResult | PageHostQa | PageHostProgress | PageHostSpares

const FAILURES: readonly BootFailure[] = ['runtime', 'packages', 'library', 'interpreter']

/** What main tells the user when interpreters cannot boot: the app's words, whatever the page said. */
export function bootFailureText(failure: BootFailure): string {
  switch (failure) {
    case 'runtime':
      return 'Python could not start: the Pyodide runtime did not load.'
    case 'packages':
      return 'Python could not start: its packages did not load.'
    case 'library':
      return 'Python could not start: the runtime library did not install.'
    case 'interpreter':
      return 'Python could not start: the interpreter ended before it was ready.'
    default:
      return assertNever(failure)
  }
}

/** Check a message from an executor page (main's edge). Null for anything that is not a `PageToHost`. */
export function decodePageMessage(data: unknown): PageToHost | null {
  if (!isFields(data)) return null
  switch (data.type) {
    case 'ready':
      return isText(data.pythonVersion, 40) && typeof data.pandas === 'boolean' && isCount(data.bootMs)
        ? { type: 'ready', pythonVersion: data.pythonVersion, pandas: data.pandas, bootMs: data.bootMs }
        : null
    case 'boot-error':
      return isOneOf(data.failure, FAILURES) && typeof data.detail === 'string'
        ? { type: 'boot-error', failure: data.failure, detail: data.detail.slice(0, 2_000) }
        : null
    case 'result':
      // Checked and capped again here: the page does it too, but main trusts no page with its memory.
      return isText(data.runId, 1_000) && typeof data.killed === 'boolean' && isCount(data.qaCalls)
        ? { type: 'result', runId: data.runId, result: checkRunResult(data.result, 'pool'), killed: data.killed, qaCalls: data.qaCalls }
        : null
    case 'qa':
      return isText(data.runId, 1_000) &&
        isCount(data.callId) &&
        isText(data.question, QA_QUESTION_LIMIT) &&
        (data.value === null || isText(data.value, QA_VALUE_LIMIT))
        ? { type: 'qa', runId: data.runId, callId: data.callId, question: data.question, value: data.value }
        : null
    case 'progress': {
      const p = data.progress
      return isFields(p) && isCount(p.done) && isCount(p.total) && isText(p.label, 200)
        ? { type: 'progress', progress: { done: p.done, total: p.total, label: p.label } }
        : null
    }
    case 'spares':
      return isCount(data.warm) && isCount(data.size) ? { type: 'spares', warm: data.warm, size: data.size } : null
    default:
      return null
  }
}
