/// <reference lib="webworker" />
/**
 * A booted Pyodide worker: the runtime library's host module (`python/tableqa/host.py`) reached through
 * checked bindings, and the handling of the pool's commands. Everything a program could touch on the
 * way back to the page is checked first: the interpreter against its boot snapshots before each run,
 * every value Python returns for its type, and the result for its size.
 */

import { QA_QUESTION_LIMIT, QA_VALUE_LIMIT, type HostMessage } from '../../shared/python-host'
import { answerTooLarge, RESULT_LIMIT_CHARS, runFailure } from '../../shared/run-result'
import { isFields } from '../../shared/check'
import { QA_STATE_ANSWERED, QA_STATE_WAITING, type WorkerRun, type WorkerTable } from './worker-commands'

/**
 * What one interpreter can hold. Pyodide's heap is wasm32 memory (4 GB at most); loading a table as row
 * dicts peaks at about 80 bytes per cell plus 190 per row there (1.3 GB for the 100 MB CSV's 1.56
 * million rows × 8 columns, 1.8 GB for 5 million rows × 2), so these limits keep the peak near 2.6 GB
 * and leave the rest to the program. Larger tables are refused with a message naming size and limit.
 */
const SANDBOX_MAX_CELLS = 20_000_000
const SANDBOX_MAX_ROWS = 6_000_000
const SANDBOX_MAX_TABLE_BYTES = 512 * 1024 * 1024

/** The functions of `tableqa.host` the worker calls, each checked to be there and to return what it should. */
export type TableqaHost = {
  runJson(
    code: string,
    tableId: string | null,
    namedTablesJson: string,
    maxQaCalls: number,
    onStart: () => void,
    question: string | null
  ): string
  loadTable(tableId: string, payload: unknown): void
  dropTable(tableId: string): void
  /** Free the last run's namespace; called once its result is posted. */
  release(): void
  installQaBridge(bridge: (question: unknown, value: unknown) => string): void
  pandasAvailable(): boolean
  seal(): string
  integrity(): string
  tablesIntact(): boolean
}

/** Bind `tableqa.host` (a PyProxy of the module); throws when a function is missing. */
export function bindHost(module: unknown): TableqaHost {
  const call = (name: string, ...args: unknown[]): unknown => {
    const fn: unknown = Reflect.get(Object(module), name)
    if (typeof fn !== 'function') throw new Error(`tableqa.host.${name} is missing`)
    return Reflect.apply(fn, undefined, args)
  }
  const text = (value: unknown, what: string): string => {
    if (typeof value !== 'string') throw new Error(`tableqa.host.${what} did not return text`)
    return value
  }
  const flag = (value: unknown, what: string): boolean => {
    if (typeof value !== 'boolean') throw new Error(`tableqa.host.${what} did not return a boolean`)
    return value
  }
  return {
    // JS null would arrive as Python's `jsnull`; undefined arrives as None.
    runJson: (code, tableId, named, max, onStart, question) =>
      text(call('run_json', code, tableId ?? undefined, named, max, onStart, question ?? undefined), 'run_json'),
    loadTable: (tableId, payload) =>
      void call('load_table', tableId, payload, SANDBOX_MAX_CELLS, SANDBOX_MAX_TABLE_BYTES, SANDBOX_MAX_ROWS),
    dropTable: (tableId) => void call('drop_table', tableId),
    release: () => void call('release'),
    installQaBridge: (bridge) => void call('install_qa_bridge', bridge),
    pandasAvailable: () => flag(call('pandas_available'), 'pandas_available'),
    seal: () => text(call('seal'), 'seal'),
    integrity: () => text(call('integrity'), 'integrity'),
    tablesIntact: () => flag(call('tables_intact'), 'tables_intact')
  }
}

/** The shared QA buffer: [state:i32][length:i32][utf-8 bytes…]. */
export type QaBuffer = { header: Int32Array; bytes: Uint8Array }

export type RuntimeParts = {
  host: TableqaHost
  qa: QaBuffer
  post: (message: HostMessage) => void
}

const decoder = new TextDecoder()

export class Runtime {
  /** The run in flight, for the QA bridge. */
  private current: string | null = null
  /** Whether a program has run here: until then the interpreter is as sealed, by construction. */
  private ran = false
  /** What each run is checked against; until the worker is sealed, every check fails. */
  private boot: { digest: string; intrinsicsIntact: () => boolean } | null = null

  constructor(private readonly parts: RuntimeParts) {
    parts.host.installQaBridge((question, value) => this.askHost(question, value))
  }

  /** The worker is sealed: `digest` is the Python snapshot (`host.seal()`), `intrinsicsIntact` the JS one. */
  sealed(digest: string, intrinsicsIntact: () => boolean): void {
    this.boot ??= { digest, intrinsicsIntact }
  }

  load(message: WorkerTable): void {
    try {
      // A refusal is kept in Python and reported by every run that needs the table.
      this.parts.host.loadTable(message.tableId, message.payloadJson)
    } catch {
      // Python recorded nothing usable; the run that needs the table reports it as not loaded.
    }
    this.parts.post({ type: 'loaded', tableId: message.tableId })
  }

  drop(tableId: string): void {
    this.parts.host.dropTable(tableId)
  }

  run(message: WorkerRun): void {
    const { post, host } = this.parts
    const runId = message.runId
    // Before the first program nothing but the host's own code has run since the snapshots were taken,
    // so the first run skips the comparison (a few milliseconds in Pyodide, on every question's path).
    if (this.boot === null || (this.ran && !this.intact())) {
      post({ type: 'tampered', runId })
      return
    }
    let resultJson: string
    this.ran = true
    this.current = runId
    try {
      resultJson = host.runJson(
        message.code,
        message.tableId,
        JSON.stringify(message.namedTables),
        message.maxQaCalls,
        () => post({ type: 'started', runId }),
        message.question ?? null
      )
    } catch (error) {
      resultJson = JSON.stringify(runFailure('internal', `The runtime library failed: ${String(error).slice(0, 500)}`))
    } finally {
      this.current = null
    }
    // The page refuses longer results too; not sending them keeps the page's memory out of the program's reach.
    if (resultJson.length > RESULT_LIMIT_CHARS) resultJson = JSON.stringify(answerTooLarge(resultJson.length))
    post({ type: 'result', runId, resultJson })
    // Freed after the result is on its way; a failure here shows at the next run's integrity check.
    try {
      host.release()
    } catch {
      // Nothing to report to: the next run checks the interpreter first.
    }
  }

  private intact(): boolean {
    try {
      const boot = this.boot
      return boot !== null && boot.intrinsicsIntact() && this.parts.host.integrity() === boot.digest && this.parts.host.tablesIntact()
    } catch {
      return false
    }
  }

  /**
   * The QA bridge: Python calls this synchronously. The worker blocks on the shared buffer until the page
   * writes the host's answer there; a failure becomes an exception in the program.
   */
  private askHost(question: unknown, value: unknown): string {
    const { header, bytes } = this.parts.qa
    if (this.current === null) throw new Error('QA calls are only possible while a program runs.')
    // The runtime library passes text (or None for no value); anything else is a program calling the bridge itself.
    if (typeof question !== 'string' || (value !== undefined && value !== null && typeof value !== 'string'))
      throw new TypeError('qa() takes text.')
    const q = question
    const v = typeof value === 'string' ? value : null
    if (q.length > QA_QUESTION_LIMIT) throw new Error(`the question is longer than ${QA_QUESTION_LIMIT.toLocaleString('en-US')} characters`)
    if (v !== null && v.length > QA_VALUE_LIMIT)
      throw new Error(`the value is longer than ${QA_VALUE_LIMIT.toLocaleString('en-US')} characters`)
    Atomics.store(header, 0, QA_STATE_WAITING)
    this.parts.post({ type: 'qa', runId: this.current, question: q, value: v })
    Atomics.wait(header, 0, QA_STATE_WAITING)
    const length = Atomics.load(header, 1)
    const state = Atomics.load(header, 0)
    Atomics.store(header, 0, QA_STATE_WAITING)
    const answer: unknown = JSON.parse(decoder.decode(bytes.slice(0, length)))
    if (state === QA_STATE_ANSWERED && isFields(answer) && answer.ok === true && typeof answer.value === 'string') return answer.value
    const error =
      isFields(answer) && isFields(answer.error) && typeof answer.error.message === 'string' ? answer.error.message : 'The QA call failed.'
    throw new Error(error)
  }
}
