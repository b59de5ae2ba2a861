/** Types of the Python executor, shared by main (which owns it) and the UI (which shows its results). */

import type { AppError } from './result'

/** Caps applied to what a program prints. */
export const OUTPUT_CAP_CHARS = 100_000

/** The value of the program's last expression, or of its `answer` variable. */
export type PythonValue = {
  /** `repr()` of the value, capped. */
  repr: string
  /** The value as JSON when it converts cleanly (numbers, strings, lists, dicts, DataFrames as records). */
  json?: unknown
  /** Python type name, e.g. "int", "DataFrame". */
  type: string
}

/** What a finished program produced. */
export type PythonOutput = {
  stdout: string
  stderr: string
  value: PythonValue | null
  /** True when stdout or stderr was cut at OUTPUT_CAP_CHARS. */
  truncated: boolean
  /** Wall time inside the executor, ms. */
  durationMs: number
  /** Whether the table was a pandas DataFrame (`df`) or plain Python rows (`rows`). */
  tableKind: 'pandas' | 'rows' | 'none'
  /**
   * Conditions on text that matched no row (`df['Town'] == 'North Carolina' matched no row; cells … that
   * contain it: …`), set only when the answer is zero, nothing or empty: then the value was most often
   * written differently from the cells.
   */
  unmatched?: string[]
  /**
   * How the runtime read words of the program that pandas refused (`.loc['services', 'men'] read as header
   * paths: …`, text that no cell equals read as the cells that hold it as words), and the answer as its question
   * asks for it (a difference as a size): what the answer rests on.
   */
  readings?: string[]
}

/** A failed program: the error plus whatever it printed before failing. */
export type PythonFailure = AppError & { stdout: string; stderr: string; traceback?: string }

export type PythonRunResult = { ok: true; value: PythonOutput } | { ok: false; error: PythonFailure }

/** How far an executor has got while starting: `done` of `total` boot steps, and the step under way. */
export type BootProgress = { done: number; total: number; label: string }

/** Runtime state shown in the status bar. */
export type ExecutorState =
  | { state: 'starting'; detail: string; progress?: BootProgress }
  | { state: 'ready'; pandas: boolean; pythonVersion: string }
  | { state: 'busy'; runId: string }
  | { state: 'error'; message: string }

/** One Python run kept in history. */
export type RunRecord = {
  id: string
  code: string
  tableName: string | null
  /** ISO-8601 time the run started. */
  startedAt: string
  result: PythonRunResult
}
