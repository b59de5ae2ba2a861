/**
 * The run pool: keeps `poolSize` interpreters booted, hands each run to an idle one, enforces the
 * deadline (interrupt, then terminate after a grace), pauses the deadline while a program waits for a
 * QA answer, and replaces interpreters that die. Used inside the sandboxed executor page (Pyodide
 * workers) and in main for local CPython processes, so both behave the same.
 *
 * Tables: loading one of millions of cells into an interpreter takes seconds, so each open table is
 * loaded into an idle interpreter as soon as it arrives (one interpreter per table, not all: each copy
 * costs the interpreter's memory), runs go to an interpreter that holds their tables, and a run's
 * deadline starts when the interpreter says its program has started, after any loading. Loading has a
 * limit of its own.
 */

import {
  DEFAULT_TABLE_LOAD_LIMIT_MS,
  type ExecutorConfig,
  type HostPageRun,
  type HostToPage,
  type PageToHost,
  type TablePayload
} from './executor-protocol'
import type { BootProgress, PythonRunResult } from './python'
import { assertNever, type Result } from './result'

/** One interpreter the pool drives. */
export type Interpreter = {
  loadTable(tableId: string, payload: TablePayload): void
  dropTable(tableId: string): void
  run(request: Omit<HostPageRun, 'type' | 'timeoutMs'>): void
  /** Unblock the program waiting in `qa(...)`. */
  answerQa(answer: Result<string>): void
  /** Ask Python to raise KeyboardInterrupt. */
  interrupt(): void
  terminate(): void
}

/** What an interpreter reports back to the pool. */
export type InterpreterEvents = {
  ready(info: { pythonVersion: string; pandas: boolean; bootMs: number }): void
  /** A boot step has begun (interpreters that cannot tell their steps never call this). */
  progress(progress: BootProgress): void
  bootError(message: string): void
  /** `recycle`: the program tampered with the interpreter; it is replaced after this result. */
  result(runId: string, resultJson: string, recycle: boolean): void
  /** The run's tables are loaded and its program begins. */
  started(runId: string): void
  qa(runId: string, question: string, value: string | null): void
  crash(message: string): void
}

export type SpawnInterpreter = (events: InterpreterEvents, config: ExecutorConfig) => Interpreter

type Slot = {
  interpreter: Interpreter
  state: 'booting' | 'ready' | 'busy' | 'dead'
  tables: Set<string>
  /** Tables replaced by a new layout while this interpreter held the old one (still in its memory). */
  stale: Set<string>
  run: ActiveRun | null
}

type ActiveRun = {
  request: HostPageRun
  stopping: 'timeout' | 'stopped' | 'load-timeout' | null
  /** False while the interpreter still loads the run's tables; the deadline is armed once it starts. */
  started: boolean
  loadLimit: ReturnType<typeof setTimeout> | null
  /** Time left before the deadline; the clock runs only while the program is not waiting for QA. */
  remainingMs: number
  armedAt: number
  deadline: ReturnType<typeof setTimeout> | null
  kill: ReturnType<typeof setTimeout> | null
  qaCalls: number
  qaPending: number | null
}

const MAX_BOOT_FAILURES = 3

const LOAD_CRASH =
  'It stopped while loading the table, probably for lack of memory: filter the file first, or use the local Python executor (Settings › Where programs run).'

export class RunPool {
  private readonly slots: Slot[] = []
  private readonly queue: HostPageRun[] = []
  private readonly tables = new Map<string, TablePayload>()
  /** Tables held by an interpreter that died: loaded only when a run needs them. */
  private readonly crashedLoading = new Set<string>()
  private announced = false
  /** The furthest boot progress reported so far, as a fraction. */
  private bootShown = -1
  private bootFailures = 0
  private disposed = false

  constructor(
    private readonly config: ExecutorConfig,
    private readonly spawnInterpreter: SpawnInterpreter,
    private readonly emit: (message: PageToHost) => void
  ) {
    for (let i = 0; i < Math.max(1, config.poolSize); i++) this.spawn()
  }

  handle(message: HostToPage): void {
    switch (message.type) {
      case 'configure':
        return
      case 'table':
        if (this.tables.get(message.tableId) === message.payloadJson) return
        // A new layout under the same id: interpreters holding the old one get the new one before their
        // next run (loading replaces). Nothing is sent now: a busy interpreter may be waiting for a QA answer.
        for (const slot of this.slots) if (slot.tables.delete(message.tableId)) slot.stale.add(message.tableId)
        this.tables.set(message.tableId, message.payloadJson)
        this.crashedLoading.delete(message.tableId)
        this.preload()
        return
      case 'drop-table':
        this.tables.delete(message.tableId)
        this.crashedLoading.delete(message.tableId)
        for (const slot of this.slots) {
          const held = slot.tables.delete(message.tableId)
          if (slot.stale.delete(message.tableId) || held) slot.interpreter.dropTable(message.tableId)
        }
        return
      case 'run':
        this.queue.push(message)
        this.dispatch()
        return
      case 'stop':
        this.stop(message.runId)
        return
      case 'qa-answer':
        this.answer(message.runId, message.callId, message.answer)
        return
      default:
        assertNever(message)
    }
  }

  dispose(): void {
    this.disposed = true
    for (const slot of this.slots) slot.interpreter.terminate()
    this.slots.length = 0
  }

  private spawn(): void {
    if (this.disposed) return
    const slot: Slot = { interpreter: null as unknown as Interpreter, state: 'booting', tables: new Set(), stale: new Set(), run: null }
    slot.interpreter = this.spawnInterpreter(
      {
        ready: (info) => {
          if (slot.state !== 'booting') return
          slot.state = 'ready'
          this.bootFailures = 0
          if (!this.announced) {
            this.announced = true
            this.emit({ type: 'ready', ...info })
          }
          this.dispatch()
          this.preload()
        },
        progress: (progress) => this.progress(progress),
        bootError: (message) => {
          this.emit({ type: 'boot-error', message })
          this.bootFailures += 1
          this.retire(slot, this.bootFailures < MAX_BOOT_FAILURES)
        },
        result: (runId, resultJson, recycle) => {
          if (slot.run?.request.runId !== runId) return
          // Out of service before finishing, so the next queued run is not handed to an interpreter about to be replaced.
          if (recycle) slot.state = 'dead'
          this.finish(slot, parseResult(resultJson), false)
          if (recycle) this.retire(slot)
        },
        started: (runId) => this.started(slot, runId),
        qa: (runId, question, value) => this.ask(slot, runId, question, value),
        crash: (message) => {
          if (slot.state === 'dead') return
          slot.state = 'dead'
          // An interpreter that dies with tables to load most likely ran out of memory loading them:
          // those are no longer loaded ahead of runs, so a too-large table cannot crash interpreters in a loop.
          const run = slot.run
          if (!run?.started) for (const tableId of slot.tables) this.crashedLoading.add(tableId)
          if (run) this.finish(slot, failure('executor-crashed', run.started ? message : `${message} ${LOAD_CRASH}`), true)
          this.retire(slot)
        }
      },
      this.config
    )
    this.slots.push(slot)
  }

  /** Interpreters boot side by side: report the one furthest along, so the host's bar only moves forward. */
  private progress(progress: BootProgress): void {
    if (this.announced || !(progress.total > 0)) return
    const fraction = Math.min(1, Math.max(0, progress.done / progress.total))
    if (fraction <= this.bootShown) return
    this.bootShown = fraction
    this.emit({ type: 'progress', progress })
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const request = this.queue[0] as HostPageRun
      const needed = neededTables(request)
      // The idle interpreter that already holds (or is loading) most of the run's tables.
      let best: Slot | null = null
      let bestHeld = -1
      for (const slot of this.slots) {
        if (slot.state !== 'ready') continue
        const held = needed.filter((id) => slot.tables.has(id)).length
        if (held > bestHeld) [best, bestHeld] = [slot, held]
      }
      if (!best) return
      this.queue.shift()
      this.start(best, request)
    }
  }

  /**
   * Give each open table to one idle interpreter, unless a live one already holds it (preferring one
   * that holds its old layout, which loading replaces, then the one holding fewest tables); then free old
   * layouts idle interpreters still hold.
   */
  private preload(): void {
    const live = this.slots.filter((s) => s.state === 'ready' || s.state === 'busy')
    const idle = live.filter((s) => s.state === 'ready')
    for (const [tableId, payload] of this.tables) {
      if (this.crashedLoading.has(tableId) || live.some((s) => s.tables.has(tableId))) continue
      // Spread over interpreters: each holds its tables in its own, limited memory.
      const slot =
        idle.find((s) => s.stale.has(tableId)) ??
        idle.reduce<Slot | undefined>((best, s) => (best && best.tables.size <= s.tables.size ? best : s), undefined)
      if (!slot) break
      slot.interpreter.loadTable(tableId, payload)
      slot.tables.add(tableId)
      slot.stale.delete(tableId)
    }
    for (const slot of idle) {
      for (const tableId of slot.stale) slot.interpreter.dropTable(tableId)
      slot.stale.clear()
    }
  }

  private start(slot: Slot, request: HostPageRun): void {
    for (const tableId of neededTables(request)) {
      if (slot.tables.has(tableId)) continue
      const payloadJson = this.tables.get(tableId)
      if (payloadJson === undefined) {
        this.emit({
          type: 'result',
          runId: request.runId,
          killed: false,
          qaCalls: 0,
          result: failure('bad-input', 'The table is no longer open.')
        })
        this.dispatch()
        return
      }
      slot.interpreter.loadTable(tableId, payloadJson)
      slot.tables.add(tableId)
      slot.stale.delete(tableId)
    }
    slot.state = 'busy'
    const run: ActiveRun = {
      request,
      stopping: null,
      started: false,
      loadLimit: null,
      remainingMs: request.timeoutMs,
      armedAt: 0,
      deadline: null,
      kill: null,
      qaCalls: 0,
      qaPending: null
    }
    slot.run = run
    run.loadLimit = setTimeout(() => this.halt(slot, 'load-timeout'), this.config.tableLoadLimitMs ?? DEFAULT_TABLE_LOAD_LIMIT_MS)
    slot.interpreter.run({
      runId: request.runId,
      code: request.code,
      tableId: request.tableId,
      namedTables: request.namedTables,
      maxQaCalls: request.maxQaCalls
    })
  }

  private started(slot: Slot, runId: string): void {
    const run = slot.run
    if (!run || run.request.runId !== runId || run.started || run.stopping) return
    run.started = true
    if (run.loadLimit) clearTimeout(run.loadLimit)
    run.loadLimit = null
    this.arm(slot)
  }

  private arm(slot: Slot): void {
    const run = slot.run
    if (!run) return
    run.armedAt = Date.now()
    run.deadline = setTimeout(() => this.halt(slot, 'timeout'), Math.max(0, run.remainingMs))
  }

  private ask(slot: Slot, runId: string, question: string, value: string | null): void {
    const run = slot.run
    if (!run || run.request.runId !== runId || run.stopping) return
    run.qaCalls += 1
    if (run.qaCalls > run.request.maxQaCalls) {
      slot.interpreter.answerQa({
        ok: false,
        error: { code: 'bad-input', message: `This program made more than ${run.request.maxQaCalls} QA calls.` }
      })
      return
    }
    if (run.deadline) clearTimeout(run.deadline)
    run.deadline = null
    run.remainingMs -= Date.now() - run.armedAt
    run.qaPending = run.qaCalls
    this.emit({ type: 'qa', runId, callId: run.qaCalls, question, value })
  }

  private answer(runId: string, callId: number, answer: Result<string>): void {
    const slot = this.slots.find((s) => s.run?.request.runId === runId)
    const run = slot?.run
    if (!slot || !run || run.qaPending !== callId) return
    run.qaPending = null
    slot.interpreter.answerQa(answer)
    if (!run.stopping) this.arm(slot)
  }

  private stop(runId: string): void {
    const queued = this.queue.findIndex((r) => r.runId === runId)
    if (queued >= 0) {
      this.queue.splice(queued, 1)
      this.emit({ type: 'result', runId, killed: false, qaCalls: 0, result: failure('interrupted', 'Stopped before it started.') })
      return
    }
    const slot = this.slots.find((s) => s.run?.request.runId === runId)
    if (slot) this.halt(slot, 'stopped')
  }

  /**
   * Interrupt first (Python-level loops stop in ms); terminate if the program does not yield. Before
   * the program has started the interpreter is loading tables and is terminated at once: an interrupt
   * there would leave it with a table half loaded.
   */
  private halt(slot: Slot, why: 'timeout' | 'stopped' | 'load-timeout'): void {
    const run = slot.run
    if (!run || run.stopping) return
    run.stopping = why
    if (!run.started) {
      slot.interpreter.terminate()
      slot.state = 'dead'
      this.finish(slot, stoppedResult(run, this.config), true)
      this.retire(slot)
      return
    }
    slot.interpreter.interrupt()
    run.kill = setTimeout(() => {
      if (slot.run !== run) return
      slot.interpreter.terminate()
      // Out of service first, so finishing does not hand the next queued run to the terminated interpreter.
      slot.state = 'dead'
      this.finish(slot, stoppedResult(run, this.config), true)
      this.retire(slot)
    }, this.config.killGraceMs)
  }

  private finish(slot: Slot, result: PythonRunResult, killed: boolean): void {
    const run = slot.run
    if (!run) return
    if (run.deadline) clearTimeout(run.deadline)
    if (run.kill) clearTimeout(run.kill)
    if (run.loadLimit) clearTimeout(run.loadLimit)
    slot.run = null
    if (slot.state === 'busy') slot.state = 'ready'
    const final = run.stopping && !result.ok && result.error.code === 'interrupted' ? stoppedResult(run, this.config, result) : result
    this.emit({ type: 'result', runId: run.request.runId, result: final, killed, qaCalls: Math.min(run.qaCalls, run.request.maxQaCalls) })
    this.dispatch()
    this.preload()
  }

  /** Replace a dead or poisoned interpreter so the pool keeps its size. */
  private retire(slot: Slot, respawn = true): void {
    slot.state = 'dead'
    slot.interpreter.terminate()
    const index = this.slots.indexOf(slot)
    if (index >= 0) this.slots.splice(index, 1)
    if (respawn) this.spawn()
    this.preload()
  }
}

function neededTables(request: HostPageRun): string[] {
  return [request.tableId, ...request.namedTables.map((t) => t.tableId)].filter((id): id is string => id !== null)
}

function parseResult(json: string): PythonRunResult {
  try {
    return JSON.parse(json) as PythonRunResult
  } catch {
    return failure('internal', 'The program finished but its result could not be read.')
  }
}

export function failure(code: 'bad-input' | 'interrupted' | 'timeout' | 'executor-crashed' | 'internal', message: string): PythonRunResult {
  return { ok: false, error: { code, message, stdout: '', stderr: '' } }
}

function stoppedResult(run: ActiveRun, config: ExecutorConfig, partial?: PythonRunResult): PythonRunResult {
  const stdout = partial && !partial.ok ? partial.error.stdout : ''
  const stderr = partial && !partial.ok ? partial.error.stderr : ''
  switch (run.stopping) {
    case 'timeout':
      return {
        ok: false,
        error: {
          code: 'timeout',
          message: `Stopped after ${seconds(run.request.timeoutMs)} s: the program ran past its time limit.`,
          stdout,
          stderr
        }
      }
    case 'load-timeout': {
      const limit = seconds(config.tableLoadLimitMs ?? DEFAULT_TABLE_LOAD_LIMIT_MS)
      const message = `Loading the table into Python took longer than ${limit} s, so the program did not start. The table is probably too large for this executor: filter the file first, or use the local Python executor (Settings › Where programs run).`
      return { ok: false, error: { code: 'timeout', message, stdout, stderr } }
    }
    case 'stopped':
    case null:
      return {
        ok: false,
        error: {
          code: 'interrupted',
          message: run.started ? 'Stopped by you.' : 'Stopped by you, while the table was loading.',
          stdout,
          stderr
        }
      }
    default:
      return assertNever(run.stopping)
  }
}

function seconds(ms: number): string {
  return (ms / 1000).toLocaleString('en-US', { maximumFractionDigits: 1 })
}
