/**
 * The run pool: the same code inside the sandboxed executor page (Pyodide workers) and in main for local
 * CPython processes, so both behave alike.
 *
 * The question is the unit of isolation. Every run belongs to a scope (a question, or one scratch run);
 * an interpreter that has run a program of a scope serves that scope only and is destroyed when the scope
 * ends, so a program can neither change what a later question's programs run on nor see a table opened
 * after its question began. Clean interpreters, never given a program, are kept booted (`poolSize`) and
 * already loaded with the open tables (within `preloadBytes` each), so a question starts at once; the
 * replacements of those it took boot once its programs are done. A question may use up to
 * `scopeParallelism` interpreters, so its candidates run side by side. Trusted runs (scope null: the
 * app's own gold programs) run in clean interpreters and leave them clean.
 *
 * Nothing an interpreter says is taken beyond the run in flight: messages are decoded at the edge
 * (`decodeHostMessage`), must fit the interpreter's state (`fits` in `run-slots.ts`, with the choice of
 * interpreter for a run), and results are checked and capped (`readRunResult`). Text shown for failures
 * is the pool's own (`run-boots.ts`). The run's clock (`run-clock.ts`) covers the whole wait. */

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
import { BootReports, crashText } from './run-boots'
import type { HostCrash, HostMessage, SpawnHost } from './python-host'
import type { PythonRunResult } from './python'
import { assertNever } from './result'
import { RunClock, stoppedResult, type ClockLimits, type StopReason } from './run-clock'
import { readRunResult, runFailure } from './run-result'
import { dropFrom, fits, forgetInClean, holds, isWarm, loadInto, markStale, neededTables, newSlot, type Slot } from './run-slots'
import { pickSlot, preloadClean, replacementsWanted, starved } from './run-slots'
import { relayAnswer, relayQuestion } from './run-qa'
import { EndedScopes, PoolTables } from './run-tables'

/** Times a run is handed to another interpreter after failing the integrity check, before it fails. */
const MAX_REQUEUES = 2

const MISBEHAVED = 'The Python interpreter sent a message the app does not accept, so it was replaced.'

export class RunPool {
  private readonly slots: Slot[] = []
  private readonly queue: HostPageRun[] = []
  private readonly tables: PoolTables
  private readonly ended = new EndedScopes()
  /** Times each run was handed back because its interpreter failed the integrity check before starting it. */
  private readonly requeues = new Map<string, number>()
  private readonly limits: ClockLimits
  private readonly parallelism: number
  private readonly boots: BootReports
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
    this.boots = new BootReports(emit)
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
        relayAnswer(this.slots, message.runId, message.callId, message.answer)
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
    if (this.disposed || this.boots.givenUp) return
    const working = this.queue.length > 0 || this.slots.some((s) => s.state === 'busy')
    if (working && !starved(this.slots, this.queue, this.parallelism)) return
    for (let k = replacementsWanted(this.slots, this.config.poolSize); k > 0; k -= 1) this.spawn()
  }

  private fromHost(slot: Slot, message: HostMessage): void {
    if (slot.state === 'dead') return
    if (!fits(slot, message)) return this.misbehaved(slot)
    const run = slot.run
    switch (message.type) {
      case 'ready':
        slot.state = 'ready'
        this.boots.booted(message)
        this.settle()
        return
      case 'progress':
        this.boots.progress(message.progress)
        return
      case 'boot-error':
        this.bootFailed(slot, message.step, message.detail)
        return
      case 'loaded':
        slot.loads -= 1
        if (slot.loads === 0 && run) run.awaitStart()
        this.showSpares()
        return
      case 'started':
        if (!run) return
        if (!run.stopping) run.begin()
        else run.started = true
        return
      case 'qa':
        if (run) relayQuestion(slot, run, message.question, message.value, this.emit)
        return
      case 'result':
        this.finish(slot, readRunResult(message.resultJson), false)
        return
      case 'tampered':
        if (run) this.requeue(slot, run)
        return
      default:
        assertNever(message)
    }
  }

  private bootFailed(slot: Slot, failure: BootFailure, detail: string): void {
    this.boots.failed(failure, detail)
    this.retire(slot)
    if (this.boots.givenUp) this.failUnservable()
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
    if (run) this.finish(slot, runFailure('executor-crashed', crashText(crash, loading && !run.started)), true)
    this.retire(slot)
  }

  private dispatch(): void {
    for (let i = 0; i < this.queue.length;) {
      const request = this.queue[i] as HostPageRun
      const slot = pickSlot(this.slots, request, this.parallelism)
      if (!slot) {
        i += 1
        continue
      }
      this.queue.splice(i, 1)
      this.start(slot, request)
    }
  }

  private start(slot: Slot, request: HostPageRun): void {
    const needed = neededTables(request)
    if (request.scope !== null && slot.scope === null) {
      // Taken by a question: it keeps only that question's tables (a clean replacement boots once its programs are done).
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
      maxQaCalls: request.maxQaCalls,
      ...(request.question === undefined ? {} : { question: request.question })
    })
    if (slot.loads > 0) run.awaitLoads()
    else run.awaitStart()
    this.refill()
    this.showSpares()
  }

  private putTable(tableId: string, payload: TablePayload): void {
    if (!this.tables.put(tableId, payload)) return
    markStale(this.slots, tableId)
    this.settle()
  }

  private dropTable(tableId: string): void {
    this.tables.drop(tableId)
    forgetInClean(this.slots, tableId)
    this.showSpares()
  }

  /** After any change: hand out queued runs, then fill idle interpreters with tables. */
  private settle(): void {
    this.dispatch()
    this.refill()
    preloadClean(this.slots, this.tables)
    this.showSpares()
  }

  private showSpares(): void {
    const wanted = this.tables.preloadSet()
    const warm = this.slots.filter((s) => isWarm(s, wanted)).length
    if (warm === this.sparesShown) return
    this.sparesShown = warm
    this.emit({ type: 'spares', warm, size: Math.max(1, this.config.poolSize) })
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
    this.ended.forget(this.slots)
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
