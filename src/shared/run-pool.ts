/**
 * The run pool: keeps `poolSize` interpreters booted, hands each run to an idle one, enforces the
 * deadline (interrupt, then terminate after a grace), pauses the deadline while a program waits for a
 * QA answer, and replaces interpreters that die. Used inside the sandboxed executor page (Pyodide
 * workers) and in main for local CPython processes, so both behave the same.
 */

import type { ExecutorConfig, HostPageRun, HostToPage, PageToHost } from './executor-protocol'
import type { BootProgress, PythonRunResult } from './python'
import { assertNever, type Result } from './result'

/** One interpreter the pool drives. */
export type Interpreter = {
  loadTable(tableId: string, payloadJson: string): void
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
  qa(runId: string, question: string, value: string | null): void
  crash(message: string): void
}

export type SpawnInterpreter = (events: InterpreterEvents, config: ExecutorConfig) => Interpreter

type Slot = {
  interpreter: Interpreter
  state: 'booting' | 'ready' | 'busy' | 'dead'
  tables: Set<string>
  run: ActiveRun | null
}

type ActiveRun = {
  request: HostPageRun
  stopping: 'timeout' | 'stopped' | null
  /** Time left before the deadline; the clock runs only while the program is not waiting for QA. */
  remainingMs: number
  armedAt: number
  deadline: ReturnType<typeof setTimeout> | null
  kill: ReturnType<typeof setTimeout> | null
  qaCalls: number
  qaPending: number | null
}

const MAX_BOOT_FAILURES = 3

export class RunPool {
  private readonly slots: Slot[] = []
  private readonly queue: HostPageRun[] = []
  private readonly tables = new Map<string, string>()
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
        for (const slot of this.slots) slot.tables.delete(message.tableId)
        this.tables.set(message.tableId, message.payloadJson)
        return
      case 'drop-table':
        this.tables.delete(message.tableId)
        for (const slot of this.slots) if (slot.tables.delete(message.tableId)) slot.interpreter.dropTable(message.tableId)
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
    const slot: Slot = { interpreter: null as unknown as Interpreter, state: 'booting', tables: new Set(), run: null }
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
        qa: (runId, question, value) => this.ask(slot, runId, question, value),
        crash: (message) => {
          if (slot.state === 'dead') return
          if (slot.run) this.finish(slot, failure('executor-crashed', message), true)
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
    for (const slot of this.slots) {
      if (this.queue.length === 0) return
      if (slot.state !== 'ready') continue
      const request = this.queue.shift()
      if (request) this.start(slot, request)
    }
  }

  private start(slot: Slot, request: HostPageRun): void {
    const needed = [request.tableId, ...request.namedTables.map((t) => t.tableId)].filter((id): id is string => id !== null)
    for (const tableId of needed) {
      if (slot.tables.has(tableId)) continue
      const payloadJson = this.tables.get(tableId)
      if (payloadJson === undefined) {
        this.emit({ type: 'result', runId: request.runId, killed: false, qaCalls: 0, result: failure('bad-input', 'The table is no longer open.') })
        this.dispatch()
        return
      }
      slot.interpreter.loadTable(tableId, payloadJson)
      slot.tables.add(tableId)
    }
    slot.state = 'busy'
    slot.run = { request, stopping: null, remainingMs: request.timeoutMs, armedAt: 0, deadline: null, kill: null, qaCalls: 0, qaPending: null }
    this.arm(slot)
    slot.interpreter.run({ runId: request.runId, code: request.code, tableId: request.tableId, namedTables: request.namedTables, maxQaCalls: request.maxQaCalls })
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
      slot.interpreter.answerQa({ ok: false, error: { code: 'bad-input', message: `This program made more than ${run.request.maxQaCalls} QA calls.` } })
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

  /** Interrupt first (Python-level loops stop in ms); terminate if the program does not yield. */
  private halt(slot: Slot, why: 'timeout' | 'stopped'): void {
    const run = slot.run
    if (!run || run.stopping) return
    run.stopping = why
    slot.interpreter.interrupt()
    run.kill = setTimeout(() => {
      if (slot.run !== run) return
      slot.interpreter.terminate()
      this.finish(slot, stoppedResult(run), true)
      this.retire(slot)
    }, this.config.killGraceMs)
  }

  private finish(slot: Slot, result: PythonRunResult, killed: boolean): void {
    const run = slot.run
    if (!run) return
    if (run.deadline) clearTimeout(run.deadline)
    if (run.kill) clearTimeout(run.kill)
    slot.run = null
    if (slot.state === 'busy') slot.state = 'ready'
    const final = run.stopping && !result.ok && result.error.code === 'interrupted' ? stoppedResult(run, result) : result
    this.emit({ type: 'result', runId: run.request.runId, result: final, killed, qaCalls: Math.min(run.qaCalls, run.request.maxQaCalls) })
    this.dispatch()
  }

  /** Replace a dead or poisoned interpreter so the pool keeps its size. */
  private retire(slot: Slot, respawn = true): void {
    slot.state = 'dead'
    slot.interpreter.terminate()
    const index = this.slots.indexOf(slot)
    if (index >= 0) this.slots.splice(index, 1)
    if (respawn) this.spawn()
  }
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

function stoppedResult(run: ActiveRun, partial?: PythonRunResult): PythonRunResult {
  const stdout = partial && !partial.ok ? partial.error.stdout : ''
  const stderr = partial && !partial.ok ? partial.error.stderr : ''
  const seconds = (run.request.timeoutMs / 1000).toLocaleString('en-US', { maximumFractionDigits: 1 })
  return run.stopping === 'timeout'
    ? { ok: false, error: { code: 'timeout', message: `Stopped after ${seconds} s: the program ran past its time limit.`, stdout, stderr } }
    : { ok: false, error: { code: 'interrupted', message: 'Stopped by you.', stdout, stderr } }
}
