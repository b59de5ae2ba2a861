/**
 * The Python host protocol: how the run pool drives one interpreter and what the interpreter may say
 * back. Two kinds of interpreter speak it: a Pyodide Web Worker in the sandboxed executor page
 * (`src/renderer/executor/worker.ts`) and a local CPython process (`python/tableqa/serve.py`). The pool
 * (`run-pool.ts`) holds a `PythonHost` per interpreter; every message from one is read by
 * `decodeHostMessage` before the pool sees it, and the pool then accepts only what fits the interpreter's
 * state (a boot error only while booting, a result only for the run it is running).
 *
 * An interpreter that has run a program is the program's: it may say anything. Nothing it says is shown
 * to the user as status text, and nothing it says outlives the question it serves.
 */

import { isCount, isFields, isText } from './check'
import type { NamedTable, TablePayload } from './executor-protocol'
import type { BootProgress } from './python'
import type { Result } from './result'

/** A program for an interpreter to run. */
export type HostRun = {
  /** The pool's id for the run; every message about it carries this id. */
  runId: string
  /** The program text. */
  code: string
  /** The table bound to `df` (or `rows`), or null for none. */
  tableId: string | null
  /** More tables bound by variable name. */
  namedTables: NamedTable[]
  /** Most `qa(...)` calls the program may make; later ones raise in Python. */
  maxQaCalls: number
  /** The question the program answers, when there is one (it settles labels that name several headers). */
  question?: string
}

/** One interpreter as the pool drives it. Methods never throw and never wait. */
export type PythonHost = {
  /**
   * Load a table (a ParsedTable as JSON) under `tableId`, replacing a table of that id. Loads are handled
   * in order with runs; each ends with a `loaded` message, also when Python refused the table (a refusal
   * is kept and reported by the runs that need it).
   */
  loadTable(tableId: string, payload: TablePayload): void
  /** Forget a table; nothing is sent back. */
  dropTable(tableId: string): void
  /**
   * Check the interpreter against the snapshot it took at boot and, when it still matches, run the
   * program: `started` once the program's namespace is ready, then `result`. When it no longer matches,
   * `tampered` instead, and the program is not run.
   */
  run(request: HostRun): void
  /** Unblock the program waiting in `qa(...)` with the host's answer (or why there is none). */
  answerQa(answer: Result<string>): void
  /** Ask Python to raise KeyboardInterrupt in the running program (C-level work does not notice). */
  interrupt(): void
  /** End the interpreter at once. Nothing is reported afterwards. */
  terminate(): void
}

/** The boot steps an interpreter can fail at. */
export type BootStep = 'runtime' | 'packages' | 'library'

/** What an interpreter may send, after `decodeHostMessage` has checked it. */
export type HostMessage =
  /** Booted: the runtime library is installed and the boot snapshot taken. */
  | { type: 'ready'; pythonVersion: string; pandas: boolean; bootMs: number }
  /** A boot step has begun (before `ready` only). */
  | { type: 'progress'; progress: BootProgress }
  /** Booting failed at `step`; `detail` is for logs, never shown as it is. */
  | { type: 'boot-error'; step: BootStep; detail: string }
  /** A `loadTable` has been handled. */
  | { type: 'loaded'; tableId: string }
  /** The run's namespace is ready and its program begins: its time limit starts now. */
  | { type: 'started'; runId: string }
  /** The running program asked a sub-question; it waits for `answerQa`. */
  | { type: 'qa'; runId: string; question: string; value: string | null }
  /** The run finished; `resultJson` is a `PythonRunResult` as JSON text, read by `readRunResult`. */
  | { type: 'result'; runId: string; resultJson: string }
  /** The interpreter no longer matched its boot snapshot when the run came, so the run did not start. */
  | { type: 'tampered'; runId: string }

/** Why an interpreter ended without being told to. */
export type HostCrash = {
  /** `error`: an uncaught error in the worker; `exited`: the process ended; `out-of-memory`: it ran out; `spawn`: it could not be started. */
  code: 'error' | 'exited' | 'out-of-memory' | 'spawn'
  /** What the platform said (exit status, spawn error), for logs. */
  detail: string
}

/** How a `PythonHost` reports to the pool. */
export type HostEvents = {
  /** A well-formed message. */
  message(message: HostMessage): void
  /** Something that is not a `HostMessage`: the interpreter is misbehaving and is replaced. */
  malformed(): void
  /** The interpreter died. */
  crash(crash: HostCrash): void
}

/** How an executor starts interpreters. */
export type SpawnHost = (
  events: HostEvents,
  /** `packages`: what a Pyodide interpreter loads at start (`bootPackages`); CPython has its own. */
  options: { loadPandas: boolean; packages: string[] }
) => PythonHost

/** Longest sub-question and value a program may send through `qa(...)`. */
export const QA_QUESTION_LIMIT = 2_000
export const QA_VALUE_LIMIT = 20_000
const ID_LIMIT = 1_000
const VERSION_LIMIT = 40
const DETAIL_LIMIT = 2_000
/** Boot step labels are shown in the status bar, so only the app's own labels pass (`boot-steps.ts`). */
const LABEL = /^(Loading the Pyodide runtime|Installing the runtime library|Loading [A-Za-z0-9_.-]{1,64})$/

/**
 * Check a message from an interpreter. Returns null for anything that is not exactly a `HostMessage`
 * within its size limits. Results are checked further by `readRunResult`.
 */
export function decodeHostMessage(data: unknown): HostMessage | null {
  if (!isFields(data)) return null
  switch (data.type) {
    case 'ready':
      return isText(data.pythonVersion, VERSION_LIMIT) && typeof data.pandas === 'boolean' && isCount(data.bootMs)
        ? { type: 'ready', pythonVersion: data.pythonVersion, pandas: data.pandas, bootMs: data.bootMs }
        : null
    case 'progress': {
      const p = data.progress
      if (!isFields(p) || !isCount(p.done) || !isCount(p.total) || p.done > p.total || typeof p.label !== 'string') return null
      return LABEL.test(p.label) || p.label === '' ? { type: 'progress', progress: { done: p.done, total: p.total, label: p.label } } : null
    }
    case 'boot-error':
      return (data.step === 'runtime' || data.step === 'packages' || data.step === 'library') && typeof data.detail === 'string'
        ? { type: 'boot-error', step: data.step, detail: data.detail.slice(0, DETAIL_LIMIT) }
        : null
    case 'loaded':
      return isText(data.tableId, ID_LIMIT) ? { type: 'loaded', tableId: data.tableId } : null
    case 'started':
    case 'tampered':
      return isText(data.runId, ID_LIMIT) ? { type: data.type, runId: data.runId } : null
    case 'qa':
      return isText(data.runId, ID_LIMIT) &&
        isText(data.question, QA_QUESTION_LIMIT) &&
        (data.value === null || isText(data.value, QA_VALUE_LIMIT))
        ? { type: 'qa', runId: data.runId, question: data.question, value: data.value }
        : null
    case 'result':
      return isText(data.runId, ID_LIMIT) && typeof data.resultJson === 'string'
        ? { type: 'result', runId: data.runId, resultJson: data.resultJson }
        : null
    default:
      return null
  }
}
