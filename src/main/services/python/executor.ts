import {
  bootFailureText,
  decodePageMessage,
  DEFAULT_START_GRACE_MS,
  DEFAULT_TABLE_LOAD_LIMIT_MS,
  type ExecutorConfig,
  type PageHostQa
} from '../../../shared/executor-protocol'
import type { ExecutorState, PythonRunResult } from '../../../shared/python'
import { assertNever, fail, type Result } from '../../../shared/result'
import { runFailure } from '../../../shared/run-result'
import type { ChannelFactory, PageChannel } from './channel'
import type { Executor, QaHandler, RunOutcome, RunRequest } from './types'

export type { RunOutcome, RunRequest } from './types'

const DEFAULT_MAX_QA_CALLS = 20
const DEFAULT_QA_TIMEOUT_MS = 60_000

export type ExecutorOptions = {
  config: ExecutorConfig
  /** Time limit of a run when the request gives none. */
  defaultTimeoutMs: number
  /** How long to wait for Python to boot before a run fails with executor-unavailable. */
  bootTimeoutMs: number
}

type Pending = {
  resolve: (outcome: RunOutcome) => void
  backstop: ReturnType<typeof setTimeout>
  qa: QaHandler | undefined
  qaTimeoutMs: number
  killed: boolean
  qaCalls: number
  /** The scope this executor made for a run that named none; ended with the run. */
  ownScope: string | null
}

/**
 * Main's handle on an executor: the sandboxed Pyodide page, or the local CPython pool behind the same
 * channel. Results are data, never exceptions: a run always resolves, with `timeout`, `interrupted`,
 * `executor-crashed` or `executor-unavailable` when it must. The pool enforces isolation and time
 * limits; a backstop here restarts the whole channel if it stops answering. QA calls are answered here,
 * by the run's handler. Every message from the page is decoded before it is believed, results are
 * checked and capped again, and status text is this file's own words.
 */
export class PythonExecutor implements Executor {
  private channel: PageChannel | null = null
  private starting: Promise<PageChannel> | null = null
  private ready: { promise: Promise<void>; resolve: () => void } = deferred()
  private state: ExecutorState = { state: 'starting', detail: 'Starting Python…' }
  private readonly pending = new Map<string, Pending>()
  private readonly tables = new Map<string, Uint8Array>()
  private readonly listeners = new Set<(state: ExecutorState) => void>()
  private closed = false
  private generation = 0
  /** The last 'ready' state, restored when the executor goes idle again. */
  private lastReady: ExecutorState | null = null
  private spares = { warm: 0, size: 1 }
  private readonly sparesWaiting = new Set<() => void>()

  constructor(
    private readonly factory: ChannelFactory,
    private readonly options: ExecutorOptions,
    readonly kind: Executor['kind'] = 'pyodide'
  ) {}

  status(): ExecutorState {
    return this.state
  }

  onStatus(listener: (state: ExecutorState) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Boot the page (idempotent). */
  start(): Promise<PageChannel> {
    if (this.channel) return Promise.resolve(this.channel)
    if (!this.starting) {
      const generation = ++this.generation
      this.setState({ state: 'starting', detail: 'Starting Python…' })
      this.starting = this.factory()
        .then(async (channel) => {
          channel.onMessage((message) => this.fromPage(message))
          channel.onExit((reason) => void this.lost(generation, reason))
          this.channel = channel
          await channel.post({ type: 'configure', config: this.options.config })
          for (const [tableId, payload] of this.tables) await channel.sendTable(tableId, payload)
          return channel
        })
        .catch((error: unknown) => {
          this.setState({ state: 'error', message: `Python could not start: ${String(error)}` })
          throw error
        })
        .finally(() => {
          this.starting = null
        })
    }
    return this.starting
  }

  /** Make a table available to programs under `tableId` (kept across page restarts). */
  async loadTable(tableId: string, payload: Uint8Array): Promise<void> {
    this.tables.set(tableId, payload)
    if (this.channel) await this.channel.sendTable(tableId, payload)
  }

  async dropTable(tableId: string): Promise<void> {
    if (!this.tables.delete(tableId)) return
    if (this.channel) await this.channel.post({ type: 'drop-table', tableId })
  }

  /** Resolves once every clean interpreter of the pool is booted with the open tables loaded (or at `ms`). */
  whenWarm(ms = 120_000): Promise<boolean> {
    if (this.spares.warm >= this.spares.size && this.state.state !== 'starting') return Promise.resolve(true)
    return new Promise((resolve) => {
      const done = (warm: boolean): void => {
        clearTimeout(timer)
        this.sparesWaiting.delete(check)
        resolve(warm)
      }
      const check = (): void => {
        if (this.spares.warm >= this.spares.size) done(true)
      }
      const timer = setTimeout(() => done(false), ms)
      this.sparesWaiting.add(check)
    })
  }

  async endScope(scope: string): Promise<void> {
    await this.channel?.post({ type: 'end-scope', scope }).catch(() => {})
  }

  async run(request: RunRequest): Promise<RunOutcome> {
    if (this.closed) return { result: runFailure('executor-unavailable', 'The Python executor has been shut down.'), killed: false, qaCalls: 0 }
    if (this.pending.has(request.runId)) return { result: runFailure('bad-input', 'A run with this id is already going.'), killed: false, qaCalls: 0 }
    let channel: PageChannel
    try {
      channel = await this.start()
      await withTimeout(this.ready.promise, this.options.bootTimeoutMs)
    } catch {
      const detail = this.state.state === 'error' ? this.state.message : 'Python did not become ready in time.'
      return { result: runFailure('executor-unavailable', detail), killed: false, qaCalls: 0 }
    }
    const timeoutMs = request.timeoutMs ?? this.options.defaultTimeoutMs
    const maxQaCalls = request.maxQaCalls ?? DEFAULT_MAX_QA_CALLS
    const qaTimeoutMs = request.qaTimeoutMs ?? DEFAULT_QA_TIMEOUT_MS
    const ownScope = request.trusted === true || request.scope !== undefined ? null : `run:${request.runId}`
    const scope = request.trusted === true ? null : (request.scope ?? ownScope)
    const config = this.options.config
    return new Promise<RunOutcome>((resolve) => {
      const entry: Pending = {
        resolve,
        // The pool enforces the limit; this only fires if the channel itself is wedged. QA waits and
        // loading the run's tables do not count towards the limit, so the backstop allows for them.
        backstop: setTimeout(
          () => void this.restart('The Python sandbox stopped answering.'),
          2 * timeoutMs +
            (config.startGraceMs ?? DEFAULT_START_GRACE_MS) +
            config.killGraceMs +
            10_000 +
            maxQaCalls * qaTimeoutMs +
            (config.tableLoadLimitMs ?? DEFAULT_TABLE_LOAD_LIMIT_MS)
        ),
        qa: request.qa,
        qaTimeoutMs,
        killed: false,
        qaCalls: 0,
        ownScope
      }
      this.pending.set(request.runId, entry)
      this.setState({ state: 'busy', runId: request.runId })
      channel
        .post({
          type: 'run',
          runId: request.runId,
          code: request.code,
          tableId: request.tableId,
          namedTables: request.namedTables ?? [],
          timeoutMs,
          maxQaCalls,
          ...(request.question === undefined ? {} : { question: request.question }),
          scope
        })
        .catch((error: unknown) => {
          this.settle(request.runId, runFailure('executor-crashed', `Could not reach the Python sandbox: ${String(error)}`))
        })
    })
  }

  async stop(runId: string): Promise<boolean> {
    if (!this.pending.has(runId) || !this.channel) return false
    await this.channel.post({ type: 'stop', runId })
    return true
  }

  async close(): Promise<void> {
    this.closed = true
    this.failAll('The Python executor has been shut down.')
    const channel = this.channel
    this.channel = null
    await channel?.close()
  }

  private fromPage(data: unknown): void {
    const message = decodePageMessage(data)
    if (message === null) return
    switch (message.type) {
      case 'ready':
        this.setState({ state: 'ready', pandas: message.pandas, pythonVersion: message.pythonVersion })
        this.ready.resolve()
        return
      case 'boot-error':
        // Only while starting, and in the app's own words: the page's detail goes to the log.
        if (this.state.state !== 'starting' && this.state.state !== 'error') return
        console.warn(`Python interpreter failed to boot (${message.failure}): ${message.detail}`)
        this.setState({ state: 'error', message: bootFailureText(message.failure) })
        return
      case 'progress':
        if (this.state.state === 'starting') this.setState({ state: 'starting', detail: message.progress.label, progress: message.progress })
        return
      case 'result': {
        const entry = this.pending.get(message.runId)
        if (entry) {
          entry.killed = message.killed
          entry.qaCalls = message.qaCalls
        }
        this.settle(message.runId, message.result)
        return
      }
      case 'qa':
        void this.answerQa(message)
        return
      case 'spares':
        this.spares = { warm: message.warm, size: message.size }
        for (const check of [...this.sparesWaiting]) check()
        return
      default:
        assertNever(message)
    }
  }

  /** Answer a program's sub-question with the run's handler, within the QA time limit. */
  private async answerQa(message: PageHostQa): Promise<void> {
    const entry = this.pending.get(message.runId)
    let answer: Result<string>
    if (!entry) return
    if (!entry.qa) {
      answer = fail('bad-input', 'No model is set up to answer qa() calls for this run.')
    } else {
      answer = await withDeadline(entry.qa({ runId: message.runId, question: message.question, value: message.value }), entry.qaTimeoutMs)
    }
    await this.channel?.post({ type: 'qa-answer', runId: message.runId, callId: message.callId, answer }).catch(() => {})
  }

  private settle(runId: string, result: PythonRunResult): void {
    const entry = this.pending.get(runId)
    if (!entry) return
    clearTimeout(entry.backstop)
    this.pending.delete(runId)
    if (entry.ownScope !== null) void this.endScope(entry.ownScope)
    entry.resolve({ result, killed: entry.killed, qaCalls: entry.qaCalls })
    if (this.pending.size === 0 && this.state.state === 'busy') this.setState(this.lastReady ?? { state: 'starting', detail: 'Starting Python…' })
  }

  private setState(state: ExecutorState): void {
    if (state.state === 'ready') this.lastReady = state
    this.state = state
    for (const listener of this.listeners) listener(state)
  }

  private failAll(message: string): void {
    for (const runId of [...this.pending.keys()]) this.settle(runId, runFailure('executor-crashed', message))
  }

  /**
   * The page is gone (it crashed, its connection closed) or is being replaced: its runs fail, its channel is
   * closed (what the page left behind, a browser and its asset server, does not outlive it) and a new page
   * starts. Resolves once the old channel is closed.
   */
  private lost(generation: number, reason: string): Promise<void> {
    if (generation !== this.generation || this.closed) return Promise.resolve()
    const old = this.channel
    this.channel = null
    this.lastReady = null
    this.spares = { warm: 0, size: 1 }
    this.ready = deferred()
    this.failAll(reason)
    this.start().catch(() => {})
    return old === null ? Promise.resolve() : old.close().catch(() => {})
  }

  private restart(reason: string): Promise<void> {
    return this.lost(this.generation, reason)
  }
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => {}
  const promise = new Promise<void>((r) => (resolve = r))
  return { promise, resolve }
}

function withTimeout(promise: Promise<void>, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timeout')), ms)
    promise.then(
      () => {
        clearTimeout(timer)
        resolve()
      },
      (error: unknown) => {
        clearTimeout(timer)
        reject(error instanceof Error ? error : new Error(String(error)))
      }
    )
  })
}

function withDeadline(promise: Promise<Result<string>>, ms: number): Promise<Result<string>> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(fail('model-timeout', `No answer to the QA call within ${Math.round(ms / 1000)} s.`)), ms)
    promise.then(
      (answer) => {
        clearTimeout(timer)
        resolve(answer)
      },
      (error: unknown) => {
        clearTimeout(timer)
        resolve(fail('internal', `The QA call failed: ${String(error)}`))
      }
    )
  })
}
