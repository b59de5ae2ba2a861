import type { Result } from '../../../shared/result'
import type { ExecutorState, PythonRunResult } from '../../../shared/python'

/** A sub-question a running program asks through the QA API: `qa(question, values)`. */
export type QaCall = { runId: string; question: string; value: string | null }

/** Answers QA API calls, usually by asking the configured model. A failure becomes a Python exception. */
export type QaHandler = (call: QaCall) => Promise<Result<string>>

/** One program to run. */
export type RunRequest = {
  runId: string
  code: string
  /** The table bound to `df` (or `rows`); null for none. */
  tableId: string | null
  /** More tables bound by variable name (a database's tables for SQL over DataFrames). */
  namedTables?: { name: string; tableId: string }[]
  /** Time limit, ms; time spent waiting for QA answers does not count. */
  timeoutMs?: number
  /** Where `qa(...)` calls go; without one they raise a clear error in the program. */
  qa?: QaHandler
  /** Most QA calls one program may make (default 20). */
  maxQaCalls?: number
  /**
   * The question the program answers: where a label of the program names several headers of the table
   * (the same label under different parents), the runtime reads the one the question names.
   */
  question?: string
  /** Time allowed for one QA answer, ms (default 60 s). */
  qaTimeoutMs?: number
  /**
   * The unit of isolation (a question's id): runs of one scope may share interpreters, and every
   * interpreter that ran one of them is destroyed at `endScope(scope)`, so nothing a program does reaches
   * another question. Without a scope the run is its own unit, ended when it finishes.
   */
  scope?: string
  /**
   * The app's own code, not a model's or a user's (evaluation with gold programs): it runs in a clean
   * interpreter that stays in service for other trusted runs. Never set for anything else.
   */
  trusted?: boolean
}

/** What a run's caller learns: the result, whether the interpreter had to be killed, how many QA calls it made. */
export type RunOutcome = { result: PythonRunResult; killed: boolean; qaCalls: number }

/**
 * One interface for every place programs run: Pyodide in the sandboxed page (default) and a local
 * CPython (opt-in, not sandboxed). Results are data; `run` never throws.
 */
export type Executor = {
  readonly kind: 'pyodide' | 'cpython'
  start(): Promise<unknown>
  status(): ExecutorState
  onStatus(listener: (state: ExecutorState) => void): () => void
  /** Make a table available to programs under `tableId`; `payload` is a ParsedTable as UTF-8 JSON (`encodeTable`). */
  loadTable(tableId: string, payload: Uint8Array): Promise<void>
  dropTable(tableId: string): Promise<void>
  run(request: RunRequest): Promise<RunOutcome>
  /** No more runs of `scope`: its interpreters are destroyed once their runs have finished. */
  endScope(scope: string): Promise<void>
  stop(runId: string): Promise<boolean>
  close(): Promise<void>
}

/**
 * A table as every executor takes it: the ParsedTable (or the part of it the runtime reads: name, columns,
 * index, values) as UTF-8 JSON. Encoded once, where the table is made, and handed on without copies.
 */
export function encodeTable(table: object): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(table))
}
