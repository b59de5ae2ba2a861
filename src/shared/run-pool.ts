/**
 * The run pool: the same code inside the sandboxed executor page (Pyodide workers) and in main for local
 * CPython processes, so both behave alike.
 *
 * The question is the unit of isolation. Every run belongs to a scope (a question, or one scratch run);
 * an interpreter that has run a program of a scope serves that scope only and is destroyed when the scope
 * ends, so a program can neither change what a later question's programs run on nor see a table opened
 * after its question began. Clean interpreters, never given a program, are kept booted (`poolSize`) and
 * already loaded with the open tables (within `preloadBytes` each), so a question starts at once: when one
 * is taken, a replacement boots. A question may use up to `scopeParallelism` interpreters, so its
 * candidates run side by side. Trusted runs (scope null: the app's own gold programs) run in clean
 * interpreters and leave them clean.
 *
 * Nothing an interpreter says is taken beyond the run in flight: messages are decoded at the edge
 * (`decodeHostMessage`), a boot error counts only while booting, a result or QA call only for the run
 * that interpreter is running, and results are checked and capped (`readRunResult`). Text shown for
 * failures is the pool's own. The run's clock (`run-clock.ts`) covers the whole wait.
 */

import {
  DEFAULT_PRELOAD_BYTES,
  DEFAULT_SCOPE_PARALLELISM,
  DEFAULT_START_GRACE_MS,
  DEFAULT_TABLE_LOAD_LIMIT_MS,
  type BootFailure,
  type ExecutorConfig,
  type HostPageRun,
  type HostToPage,
  type PageToHost,
  type TablePayload
} from './executor-protocol'
import { bootPackages } from './boot-steps'
import type { HostCrash, HostMessage, SpawnHost } from './python-host'
import type { BootProgress, PythonRunResult } from './python'
import { assertNever, type Result } from './result'
import { RunClock, stoppedResult, type ClockLimits, type StopReason } from './run-clock'
import { readRunResult, runFailure } from './run-result'
import { bestSlot, dropFrom, holds, isWarm, loadInto, neededTables, newSlot, type Slot } from './run-slots'
import { PoolTables } from './run-tables'

const MAX_BOOT_FAILURES = 3
/** Interpreters taken by questions beyond the pool; past this, replacements wait for a question to end. */
const MAX_TAKEN = 8
const MAX_ENDED_KEPT = 1_000
/** Times a run is handed to another interpreter after failing the integrity check, before it fails. */
const MAX_REQUEUES = 2

const LOAD_CRASH =
  'It stopped while loading the table, probably for lack of memory: filter the file first, or use the local Python executor (Settings › Where programs run).'
const MISBEHAVED = 'The Python interpreter sent a message the app does not accept, so it was replaced.'

export class RunPool {
  private readonly slots: Slot[] = []
  private readonly queue: HostPageRun[] = []
  private readonly tables: PoolTables
  private readonly ended = new Set<string>()
  /** Times each run was handed back because its interpreter failed the integrity check before starting it. */
  private readonly requeues = new Map<string, number>()
  private readonly limits: ClockLimits
  private readonly parallelism: number
  private announced = false
  private bootShown = -1
  private bootFailures = 0
  private sparesShown = -1
  private disposed = false

  constructor(
    private readonly config: ExecutorConfig,
    private readonly spawnHost: SpawnHost,
    private readonly emit: (message: PageToHost) => void
  ) {
    this.limits = {
      tableLoadLimitMs: config.tableLoadLimitMs ?? DEFAULT_TABLE_LOAD_LIMIT_MS,
      startGraceMs: config.startGraceMs ?? DEFAULT_START_GRACE_MS
    }
    this.parallelism = Math.max(1, config.scopeParallelism ?? DEFAULT_SCOPE_PARALLELISM)
    this.tables = new PoolTables(config.preloadBytes ?? DEFAULT_PRELOAD_BYTES)
    this.refill()
  }

  handle(message: HostToPage): void {
    switch (message.type) {
      case 'configure':
        return
      case 'table':
        this.putTable(message.tableId, message.payloadJson)
        return
      case 'drop-table':
        this.dropTable(message.tableId)
        return
      case 'run':
        if (message.scope !== null && this.ended.has(message.scope)) {
          this.emitResult(message.runId, runFailure('interrupted', 'The question had already ended.'), false, 0)
          return
        }
        this.queue.push(message)
        this.dispatch()
        this.refill()
        return
      case 'stop':
        this.stop(message.runId)
        return
      case 'qa-answer':
        this.answer(message.runId, message.callId, message.answer)
        return
      case 'end-scope':
        this.endScope(message.scope)
        return
      default:
        assertNever(message)
    }
  }

  dispose(): void {
    this.disposed = true
    for (const slot of this.slots) {
      slot.run?.clear()
      slot.host.terminate()
    }
    this.slots.length = 0
  }

  private spawn(): void {
    const slot = newSlot()
    this.slots.push(slot)
    slot.host = this.spawnHost(
      {
        message: (message) => this.fromHost(slot, message),
        malformed: () => this.misbehaved(slot),
        crash: (crash) => this.crashed(slot, crash)
      },
      { loadPandas: this.config.loadPandas, packages: bootPackages(this.config) }
    )
  }

  /**
   * Keep `poolSize` clean interpreters booted or booting. A boot takes seconds of both cores, so while
   * programs run (or wait their turn) replacements wait for them to end, unless a waiting run has no clean
   * interpreter to go to but one that boots.
   */
  private refill(): void {
    if (this.disposed || this.bootFailures >= MAX_BOOT_FAILURES) return
    const working = this.queue.length > 0 || this.slots.some((s) => s.state === 'busy')
    if (working && !this.starved()) return
    const live = this.slots.filter((s) => s.state !== 'dead')
    let clean = live.filter((s) => s.scope === null).length
    const taken = live.length - clean
    while (clean < Math.max(1, this.config.poolSize) && taken + clean < Math.max(1, this.config.poolSize) + MAX_TAKEN) {
      this.spawn()
      clean += 1
    }
  }

  /** A queued run may take a clean interpreter, and none is booted or booting. */
  private starved(): boolean {
    const waiting = this.queue.some(
      (r) => r.scope === null || this.slots.filter((s) => s.scope === r.scope && s.state !== 'dead').length < this.parallelism
    )
    return waiting && !this.slots.some((s) => s.scope === null && (s.state === 'booting' || s.state === 'ready'))
  }

  private fromHost(slot: Slot, message: HostMessage): void {
    if (slot.state === 'dead') return
    const run = slot.run
    switch (message.type) {
      case 'ready':
        if (slot.state !== 'booting') return this.misbehaved(slot)
        slot.state = 'ready'
        this.bootFailures = 0
        if (!this.announced) {
          this.announced = true
          this.emit({ type: 'ready', pythonVersion: message.pythonVersion, pandas: message.pandas, bootMs: message.bootMs })
        }
        this.settle()
        return
      case 'progress':
        if (slot.state !== 'booting') return this.misbehaved(slot)
        this.progress(message.progress)
        return
      case 'boot-error':
        if (slot.state !== 'booting') return this.misbehaved(slot)
        this.bootFailed(slot, message.step, message.detail)
        return
      case 'loaded':
        if (slot.state === 'booting' || slot.loads === 0) return this.misbehaved(slot)
        slot.loads -= 1
        if (slot.loads === 0 && run) run.awaitStart()
        this.showSpares()
        return
      case 'started':
        if (!run || run.request.runId !== message.runId || run.started || slot.loads > 0) return this.misbehaved(slot)
        if (!run.stopping) run.begin()
        else run.started = true
        return
      case 'qa':
        if (!run || run.request.runId !== message.runId || !run.started || run.qaPending !== null) return this.misbehaved(slot)
        this.ask(slot, run, message.question, message.value)
        return
      case 'result':
        if (!run || run.request.runId !== message.runId || slot.loads > 0) return this.misbehaved(slot)
        this.finish(slot, readRunResult(message.resultJson), false)
        return
      case 'tampered':
        if (!run || run.request.runId !== message.runId || run.started) return this.misbehaved(slot)
        this.requeue(slot, run)
        return
      default:
        assertNever(message)
    }
  }

  /** Interpreters boot side by side: report the one furthest along, so the host's bar only moves forward. */
  private progress(progress: BootProgress): void {
    if (this.announced || !(progress.total > 0)) return
    const fraction = Math.min(1, Math.max(0, progress.done / progress.total))
    if (fraction <= this.bootShown) return
    this.bootShown = fraction
    this.emit({ type: 'progress', progress })
  }

  private bootFailed(slot: Slot, failure: BootFailure, detail: string): void {
    this.bootFailures += 1
    if (!this.announced) this.emit({ type: 'boot-error', failure, detail })
    this.retire(slot)
    if (this.bootFailures >= MAX_BOOT_FAILURES) this.failUnservable()
  }

  /** A run that no interpreter can take any more (none boots) fails instead of waiting forever. */
  private failUnservable(): void {
    if (this.slots.some((s) => s.state === 'ready' || s.state === 'busy' || s.state === 'booting')) return
    for (const request of this.queue.splice(0)) {
      this.emitResult(
        request.runId,
        runFailure('executor-unavailable', 'Python interpreters failed to start three times in a row.'),
        false,
        0
      )
    }
  }

  private misbehaved(slot: Slot): void {
    if (slot.state === 'dead') return
    if (slot.state === 'booting') return this.bootFailed(slot, 'runtime', 'malformed message while booting')
    slot.state = 'dead'
    slot.host.terminate()
    if (slot.run) this.finish(slot, runFailure('executor-crashed', MISBEHAVED), true)
    this.retire(slot)
  }

  private crashed(slot: Slot, crash: HostCrash): void {
    if (slot.state === 'dead') return
    if (slot.state === 'booting') return this.bootFailed(slot, 'interpreter', `${crash.code}: ${crash.detail}`)
    // An interpreter that dies while loading tables most likely ran out of memory loading them: those are
    // no longer loaded ahead of runs, so a too-large table cannot crash interpreters in a loop.
    const loading = slot.loads > 0
    if (loading) this.tables.crashedWhileLoading(slot.held)
    slot.state = 'dead'
    const run = slot.run
    if (run) {
      const what =
        crash.code === 'out-of-memory' ? 'The Python interpreter ran out of memory.' : 'The Python interpreter stopped unexpectedly.'
      this.finish(slot, runFailure('executor-crashed', run.started || !loading ? what : `${what} ${LOAD_CRASH}`), true)
    }
    this.retire(slot)
  }

  private dispatch(): void {
    for (let i = 0; i < this.queue.length;) {
      const request = this.queue[i] as HostPageRun
      const slot = this.pick(request)
      if (!slot) {
        i += 1
        continue
      }
      this.queue.splice(i, 1)
      this.start(slot, request)
    }
  }

  /** An idle interpreter for the run: one its scope already holds, else a clean one if the scope may take another. */
  private pick(request: HostPageRun): Slot | null {
    const { scope } = request
    let choices: Slot[]
    if (scope === null) {
      choices = this.slots.filter((s) => s.state === 'ready' && s.scope === null)
    } else {
      const own = this.slots.filter((s) => s.scope === scope && s.state !== 'dead')
      choices = own.filter((s) => s.state === 'ready')
      if (choices.length === 0 && own.length < this.parallelism) choices = this.slots.filter((s) => s.state === 'ready' && s.scope === null)
    }
    return bestSlot(choices, request)
  }

  private start(slot: Slot, request: HostPageRun): void {
    const needed = neededTables(request)
    if (request.scope !== null && slot.scope === null) {
      // Taken by a question: it keeps only that question's tables, and a clean replacement boots.
      slot.scope = request.scope
      for (const tableId of [...slot.held]) if (!needed.includes(tableId)) dropFrom(slot, tableId)
    }
    for (const tableId of needed) {
      const payload = this.tables.use(tableId)
      if (payload === undefined) {
        this.emitResult(request.runId, runFailure('bad-input', 'The table is no longer open.'), false, 0)
        this.settle()
        return
      }
      if (!holds(slot, tableId)) loadInto(slot, tableId, payload)
    }
    slot.state = 'busy'
    const run = new RunClock(request, this.limits, (why) => this.halt(slot, why))
    slot.run = run
    slot.host.run({
      runId: request.runId,
      code: request.code,
      tableId: request.tableId,
      namedTables: request.namedTables,
      maxQaCalls: request.maxQaCalls
    })
    if (slot.loads > 0) run.awaitLoads()
    else run.awaitStart()
    this.refill()
    this.showSpares()
  }

  private putTable(tableId: string, payload: TablePayload): void {
    if (!this.tables.put(tableId, payload)) return
    // A new layout under the same id: clean interpreters holding the old one reload it when idle.
    for (const slot of this.slots) if (slot.scope === null && slot.held.has(tableId)) slot.stale.add(tableId)
    this.settle()
  }

  private dropTable(tableId: string): void {
    this.tables.drop(tableId)
    // A question that is running keeps what it started with; clean interpreters let it go.
    for (const slot of this.slots) {
      if (slot.scope !== null || !slot.held.delete(tableId)) continue
      slot.stale.delete(tableId)
      slot.host.dropTable(tableId)
    }
    this.showSpares()
  }

  /** Load the open tables into every idle clean interpreter, and free layouts they no longer need. */
  private preload(): void {
    const wanted = this.tables.preloadSet()
    for (const slot of this.slots) {
      if (slot.state !== 'ready' || slot.scope !== null) continue
      for (const tableId of wanted) {
        const payload = this.tables.payload(tableId)
        if (payload !== undefined && !holds(slot, tableId)) loadInto(slot, tableId, payload)
      }
      for (const tableId of [...slot.stale]) dropFrom(slot, tableId)
    }
  }

  /** After any change: hand out queued runs, then fill idle interpreters with tables. */
  private settle(): void {
    this.dispatch()
    this.refill()
    this.preload()
    this.showSpares()
  }

  private showSpares(): void {
    const wanted = this.tables.preloadSet()
    const warm = this.slots.filter((s) => isWarm(s, wanted)).length
    if (warm === this.sparesShown) return
    this.sparesShown = warm
    this.emit({ type: 'spares', warm, size: Math.max(1, this.config.poolSize) })
  }

  private ask(slot: Slot, run: RunClock, question: string, value: string | null): void {
    if (run.stopping) return
    run.qaCalls += 1
    if (run.qaCalls > run.request.maxQaCalls) {
      slot.host.answerQa({
        ok: false,
        error: { code: 'bad-input', message: `This program made more than ${run.request.maxQaCalls} QA calls.` }
      })
      return
    }
    run.pause()
    run.qaPending = run.qaCalls
    this.emit({ type: 'qa', runId: run.request.runId, callId: run.qaCalls, question, value })
  }

  private answer(runId: string, callId: number, answer: Result<string>): void {
    const slot = this.slots.find((s) => s.run?.request.runId === runId)
    const run = slot?.run
    if (!slot || !run || run.qaPending !== callId) return
    run.qaPending = null
    slot.host.answerQa(answer)
    if (!run.stopping) run.resume()
  }

  private stop(runId: string): void {
    const queued = this.queue.findIndex((r) => r.runId === runId)
    if (queued >= 0) {
      this.queue.splice(queued, 1)
      this.emitResult(runId, runFailure('interrupted', 'Stopped before it started.'), false, 0)
      return
    }
    const slot = this.slots.find((s) => s.run?.request.runId === runId)
    if (slot) this.halt(slot, 'stopped')
  }

  private endScope(scope: string): void {
    this.ended.add(scope)
    for (let i = this.queue.length - 1; i >= 0; i--) {
      const request = this.queue[i] as HostPageRun
      if (request.scope !== scope) continue
      this.queue.splice(i, 1)
      this.emitResult(request.runId, runFailure('interrupted', 'The question ended before this program started.'), false, 0)
    }
    for (const slot of [...this.slots]) if (slot.scope === scope && slot.state === 'ready') this.retire(slot)
    this.forgetScope()
  }

  /** Ended scopes are remembered (the most recent ones) so that a late run of one is refused. */
  private forgetScope(): void {
    for (const scope of this.ended) {
      if (this.ended.size <= MAX_ENDED_KEPT) return
      if (!this.slots.some((s) => s.scope === scope)) this.ended.delete(scope)
    }
  }

  /**
   * Interrupt first (Python-level loops stop in ms); terminate if the program does not yield. Before
   * the program has started the interpreter is loading tables or busy with something else, and is
   * terminated at once: an interrupt there would leave it with a table half loaded.
   */
  private halt(slot: Slot, why: StopReason): void {
    const run = slot.run
    if (!run || run.stopping) return
    run.stopping = why
    run.clear()
    const kill = (): void => {
      if (slot.run !== run) return
      // Out of service first, so finishing does not hand the next queued run to the terminated interpreter.
      slot.state = 'dead'
      slot.host.terminate()
      this.finish(slot, stoppedResult(run, this.limits), true)
      this.retire(slot)
    }
    if (!run.started) return kill()
    slot.host.interrupt()
    run.killAfter(this.config.killGraceMs, kill)
  }

  /** The integrity check failed before the run started: replace the interpreter and give the run to another. */
  private requeue(slot: Slot, run: RunClock): void {
    run.clear()
    slot.run = null
    slot.state = 'dead'
    this.retire(slot)
    const times = (this.requeues.get(run.request.runId) ?? 0) + 1
    this.requeues.set(run.request.runId, times)
    if (times > MAX_REQUEUES) {
      this.emitResult(
        run.request.runId,
        runFailure('internal', 'Python interpreters kept failing their integrity check; the program was not run.'),
        false,
        0
      )
      return
    }
    this.queue.unshift(run.request)
    this.settle()
  }

  private finish(slot: Slot, result: PythonRunResult, killed: boolean): void {
    const run = slot.run
    if (!run) return
    run.clear()
    slot.run = null
    if (slot.state === 'busy') slot.state = 'ready'
    const final = run.stopping && !result.ok && result.error.code === 'interrupted' ? stoppedResult(run, this.limits, result) : result
    this.emitResult(run.request.runId, final, killed, Math.min(run.qaCalls, run.request.maxQaCalls))
    if (slot.scope !== null && this.ended.has(slot.scope) && slot.state === 'ready') this.retire(slot)
    else this.settle()
  }

  private emitResult(runId: string, result: PythonRunResult, killed: boolean, qaCalls: number): void {
    this.requeues.delete(runId)
    this.emit({ type: 'result', runId, result, killed, qaCalls })
  }

  /** Take an interpreter out of service for good; clean replacements keep the pool at its size. */
  private retire(slot: Slot): void {
    slot.state = 'dead'
    slot.run?.clear()
    slot.host.terminate()
    const index = this.slots.indexOf(slot)
    if (index >= 0) this.slots.splice(index, 1)
    this.refill()
    this.settle()
  }
}
