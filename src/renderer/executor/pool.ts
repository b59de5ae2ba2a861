import type {
  ExecutorConfig,
  HostPageRun,
  HostToPage,
  PageToHost,
  PageToWorker,
  WorkerToPage
} from '../../shared/executor-protocol'
import type { PythonRunResult } from '../../shared/python'
import { assertNever } from '../../shared/result'

type Urls = { indexURL: string; runtimeURL: string; createWorker: () => Worker; emit: (message: PageToHost) => void }

type Slot = {
  worker: Worker
  interrupt: Int32Array
  state: 'booting' | 'ready' | 'busy' | 'dead'
  tables: Set<string>
  run: ActiveRun | null
}

type ActiveRun = {
  request: HostPageRun
  /** Why the run is being stopped, once it is. */
  stopping: 'timeout' | 'stopped' | null
  deadline: ReturnType<typeof setTimeout>
  kill: ReturnType<typeof setTimeout> | null
  startedAt: number
}

const SIGINT = 2
const MAX_BOOT_FAILURES = 3

/** Keeps `poolSize` Pyodide workers booted; runs go to an idle one, or wait in a queue. */
export class WorkerPool {
  private readonly slots: Slot[] = []
  private readonly queue: HostPageRun[] = []
  private readonly tables = new Map<string, string>()
  private announced = false
  /** Boot failures in a row; past the limit the pool stops respawning (a broken install, not bad luck). */
  private bootFailures = 0

  constructor(
    private readonly config: ExecutorConfig,
    private readonly urls: Urls
  ) {
    for (let i = 0; i < Math.max(1, config.poolSize); i++) this.spawn()
  }

  handle(message: HostToPage): void {
    switch (message.type) {
      case 'configure':
        return
      case 'table':
        this.tables.set(message.tableId, message.payloadJson)
        return
      case 'drop-table':
        this.tables.delete(message.tableId)
        for (const slot of this.slots) {
          if (slot.tables.delete(message.tableId)) this.send(slot, { type: 'drop-table', tableId: message.tableId })
        }
        return
      case 'run':
        this.queue.push(message)
        this.dispatch()
        return
      case 'stop':
        this.stop(message.runId)
        return
      default:
        assertNever(message)
    }
  }

  dispose(): void {
    for (const slot of this.slots) slot.worker.terminate()
    this.slots.length = 0
  }

  private spawn(): void {
    const worker = this.urls.createWorker()
    const buffer = new SharedArrayBuffer(4)
    const slot: Slot = { worker, interrupt: new Int32Array(buffer), state: 'booting', tables: new Set(), run: null }
    this.slots.push(slot)
    worker.onmessage = (event: MessageEvent<WorkerToPage>) => this.fromWorker(slot, event.data)
    worker.onerror = (event) => {
      event.preventDefault()
      this.crash(slot, `The Python worker failed: ${event.message || 'unknown error'}`)
    }
    this.send(slot, {
      type: 'init',
      interruptBuffer: buffer,
      indexURL: this.urls.indexURL,
      runtimeURL: this.urls.runtimeURL,
      loadPandas: this.config.loadPandas
    })
  }

  private fromWorker(slot: Slot, message: WorkerToPage): void {
    switch (message.type) {
      case 'ready':
        slot.state = 'ready'
        this.bootFailures = 0
        if (!this.announced) {
          this.announced = true
          this.urls.emit({ type: 'ready', pythonVersion: message.pythonVersion, pandas: message.pandas, bootMs: message.bootMs })
        }
        this.dispatch()
        return
      case 'boot-error':
        this.urls.emit({ type: 'boot-error', message: message.message })
        this.bootFailures += 1
        this.retire(slot, this.bootFailures < MAX_BOOT_FAILURES)
        return
      case 'result':
        this.finish(slot, parseResult(message.resultJson), false)
        return
      default:
        assertNever(message)
    }
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
    if (request.tableId !== null && !slot.tables.has(request.tableId)) {
      const payloadJson = this.tables.get(request.tableId)
      if (payloadJson === undefined) {
        this.urls.emit({ type: 'result', runId: request.runId, killed: false, result: failure('bad-input', 'The table is no longer open.') })
        this.dispatch()
        return
      }
      this.send(slot, { type: 'table', tableId: request.tableId, payloadJson })
      slot.tables.add(request.tableId)
    }
    Atomics.store(slot.interrupt, 0, 0)
    slot.state = 'busy'
    slot.run = {
      request,
      stopping: null,
      startedAt: performance.now(),
      kill: null,
      deadline: setTimeout(() => this.halt(slot, 'timeout'), request.timeoutMs)
    }
    this.send(slot, { type: 'run', runId: request.runId, code: request.code, tableId: request.tableId })
  }

  private stop(runId: string): void {
    const queued = this.queue.findIndex((r) => r.runId === runId)
    if (queued >= 0) {
      this.queue.splice(queued, 1)
      this.urls.emit({ type: 'result', runId, killed: false, result: failure('interrupted', 'Stopped before it started.') })
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
    Atomics.store(slot.interrupt, 0, SIGINT)
    run.kill = setTimeout(() => {
      if (slot.run !== run) return
      slot.worker.terminate()
      this.finish(slot, stoppedResult(run), true)
      this.retire(slot)
    }, this.config.killGraceMs)
  }

  private finish(slot: Slot, result: PythonRunResult, killed: boolean): void {
    const run = slot.run
    if (!run) return
    clearTimeout(run.deadline)
    if (run.kill) clearTimeout(run.kill)
    slot.run = null
    if (slot.state === 'busy') slot.state = 'ready'
    const final = run.stopping && !result.ok && result.error.code === 'interrupted' ? stoppedResult(run, result) : result
    this.urls.emit({ type: 'result', runId: run.request.runId, result: final, killed })
    this.dispatch()
  }

  private crash(slot: Slot, message: string): void {
    const run = slot.run
    if (run) this.finish(slot, failure('executor-crashed', message), true)
    this.retire(slot)
  }

  /** Replace a dead or poisoned worker so the pool keeps its size. */
  private retire(slot: Slot, respawn = true): void {
    slot.state = 'dead'
    slot.worker.terminate()
    const index = this.slots.indexOf(slot)
    if (index >= 0) this.slots.splice(index, 1)
    if (respawn) this.spawn()
  }

  private send(slot: Slot, message: PageToWorker): void {
    slot.worker.postMessage(message)
  }
}

function parseResult(json: string): PythonRunResult {
  try {
    return JSON.parse(json) as PythonRunResult
  } catch {
    return failure('internal', 'The program finished but its result could not be read.')
  }
}

function failure(code: 'bad-input' | 'interrupted' | 'timeout' | 'executor-crashed' | 'internal', message: string): PythonRunResult {
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
