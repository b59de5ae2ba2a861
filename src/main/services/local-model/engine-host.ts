/**
 * Main's handle on the engine process: starts it on first use, loads the model a request names (another
 * model means a fresh process), runs one request at a time and queues the rest in order, and survives the
 * process: a crash fails the request it was serving with a clear message and the next request starts a
 * new process. Cancelling answers the caller at once; the engine is asked to stop, and if it has not
 * within the grace period (a long prompt being read, a load) it is stopped hard.
 *
 * Warm-ups (reading a prompt kind's fixed prefix before any question) wait behind questions and make way
 * for one that arrives while they run: they stop at the next chunk and keep what they read, which the
 * question then uses when it has the same prefix. When the GPU fails while the model works, the model
 * moves to the CPU for the rest of the run and the request is served again there.
 */

import type { Sample } from '../../../shared/model'
import { fail, ok, type AppError, type Result } from '../../../shared/result'
import type {
  EngineChannel,
  EngineInput,
  EngineModelSpec,
  FromEngine,
  GenerateStats,
  LoadedModel,
  PrefixStats,
  SpawnEngine
} from './engine-protocol'

export type EngineJob = {
  model: EngineModelSpec
  input: EngineInput
  n: number
  temperature: number
  maxTokens: number
  stop: string[]
  seed?: number
  signal?: AbortSignal
  /** Loading progress while the model loads for this job. */
  onLoad?: (fraction: number) => void
  /** Jobs ahead of this one, while it waits. */
  onQueued?: (ahead: number) => void
  /** Prompt tokens read so far, of those the engine has to read (it holds the rest already). */
  onPrompt?: (done: number, total: number) => void
  onTokens?: (index: number, tokens: number) => void
  /** Each sample as soon as it is complete. */
  onSample?: (index: number, sample: Sample) => void
}

export type EngineResult = {
  samples: Sample[]
  stats: GenerateStats
  model: LoadedModel
  /** Time this request waited for the model to load; null when it was loaded already. */
  loadMs: number | null
}

/** Read the fixed prefix of `input` ahead of the first question (from disk, or evaluated and saved). */
export type WarmJob = { model: EngineModelSpec; input: EngineInput; signal?: AbortSignal }

export type WarmResult = { prefix: PrefixStats; model: LoadedModel }

export type EngineStatus = {
  state: 'stopped' | 'starting' | 'loading' | 'ready' | 'busy'
  model: LoadedModel | null
  pid: number | null
  queued: number
  /** Engine processes started so far (a restart after a crash counts). */
  starts: number
  /** Set when the GPU failed and the model was moved to the CPU for the rest of this run. */
  note: string | null
}

export type EngineHostOptions = {
  /**
   * How long a cancelled request may take to stop before the process is stopped hard. Default 150 ms, so
   * that a cancel frees the engine within 200 ms however busy the machine is (a prompt chunk being read can
   * take longer than that under load); the next request then starts the engine again and reloads the model.
   */
  cancelGraceMs?: number
}

type Waiting = (
  | { kind: 'generate'; job: EngineJob; resolve: (result: Result<EngineResult>) => void }
  | { kind: 'warm'; job: WarmJob; resolve: (result: Result<WarmResult>) => void }
) & {
  settled: boolean
  /** Removes the abort listener once the caller is answered. */
  cleanup?: () => void
  /** Answers the caller once (later answers are ignored) with a failure. */
  done: (failure: { ok: false; error: AppError }) => void
}

/** Answers the caller of `w` with `result`, once. */
function answer(w: Waiting, result: Result<EngineResult> | Result<WarmResult> | { ok: false; error: AppError }): void {
  if (w.settled) return
  w.settled = true
  w.cleanup?.()
  if (w.kind === 'generate') w.resolve(result as Result<EngineResult>)
  else w.resolve(result as Result<WarmResult>)
}

type Proc = {
  channel: EngineChannel
  spec: EngineModelSpec
  state: 'starting' | 'loading' | 'ready' | 'dead'
  /** Stopped on purpose and about to exit: never handed another request. */
  doomed: boolean
  model: LoadedModel | null
  listeners: Set<(message: FromEngine) => void>
  exited: Promise<{ code: number | null; signal: string | null; detail: string }>
}

const sameSpec = (a: EngineModelSpec, b: EngineModelSpec): boolean =>
  a.file === b.file &&
  a.contextSize === b.contextSize &&
  a.threads === b.threads &&
  a.memoryLimitBytes === b.memoryLimitBytes &&
  (a.sequences ?? 1) === (b.sequences ?? 1) &&
  (a.gpu ?? 'cpu') === (b.gpu ?? 'cpu') &&
  a.stateDir === b.stateDir

export const DEFAULT_CANCEL_GRACE_MS = 150

const cancelledResult = (): { ok: false; error: AppError } => ({
  ok: false,
  error: { code: 'cancelled', message: 'The question was cancelled.' }
})

export class EngineHost {
  private proc: Proc | null = null
  private readonly queue: Waiting[] = []
  private active: Waiting | null = null
  private running = false
  private nextId = 1
  private starts = 0
  private closed = false
  private readonly cancelGraceMs: number
  /** Model files whose GPU failed: they run on the CPU from then on. */
  private readonly gpuFailed = new Map<string, string>()

  constructor(
    private readonly spawn: SpawnEngine,
    options: EngineHostOptions = {}
  ) {
    this.cancelGraceMs = options.cancelGraceMs ?? DEFAULT_CANCEL_GRACE_MS
  }

  status(): EngineStatus {
    const p = this.proc
    const state: EngineStatus['state'] =
      p === null || p.state === 'dead' || p.doomed
        ? 'stopped'
        : p.state === 'ready'
          ? this.active === null || this.active.kind === 'warm'
            ? 'ready'
            : 'busy'
          : p.state
    const note = p === null ? null : (this.gpuFailed.get(p.spec.file) ?? null)
    return { state, model: p?.model ?? null, pid: p?.channel.pid ?? null, queued: this.queue.length, starts: this.starts, note }
  }

  generate(job: EngineJob): Promise<Result<EngineResult>> {
    if (this.closed) return Promise.resolve(fail('model-unreachable', 'The built-in model has been shut down.'))
    if (job.signal?.aborted === true) return Promise.resolve(cancelledResult())
    return new Promise((resolve) => {
      const waiting: Waiting = { kind: 'generate', job, resolve, settled: false, done: (f) => answer(waiting, f) }
      this.watch(waiting)
      // Questions go before warm-ups that have not started; one that is running makes way.
      const firstWarm = this.queue.findIndex((q) => q.kind === 'warm')
      if (firstWarm < 0) this.queue.push(waiting)
      else this.queue.splice(firstWarm, 0, waiting)
      if (this.active?.kind === 'warm' && this.activeId !== null) this.proc?.channel.send({ type: 'yield', id: this.activeId })
      const ahead = this.queue.indexOf(waiting) + (this.active === null || this.active.kind === 'warm' ? 0 : 1)
      if (ahead > 0) job.onQueued?.(ahead)
      void this.pump()
    })
  }

  /** Reads the fixed prefix of a prompt kind in the background, ahead of the first question of that kind. */
  warm(job: WarmJob): Promise<Result<WarmResult>> {
    if (this.closed) return Promise.resolve(fail('model-unreachable', 'The built-in model has been shut down.'))
    if (job.signal?.aborted === true) return Promise.resolve(cancelledResult())
    return new Promise((resolve) => {
      const waiting: Waiting = { kind: 'warm', job, resolve, settled: false, done: (f) => answer(waiting, f) }
      this.watch(waiting)
      this.queue.push(waiting)
      void this.pump()
    })
  }

  /** Stops the engine process; later requests fail. */
  async close(): Promise<void> {
    this.closed = true
    const shut = { ok: false as const, error: { code: 'model-unreachable' as const, message: 'The built-in model has been shut down.' } }
    for (const w of this.queue.splice(0)) w.done(shut)
    this.active?.done(shut)
    const p = this.proc
    if (p !== null && p.state !== 'dead') {
      stop(p)
      await p.exited
    }
  }

  /** The id of the engine request being served, while one is. */
  private activeId: number | null = null

  /** Cancelling a request that waits takes it out of the queue and answers at once. */
  private watch(w: Waiting): void {
    const signal = w.job.signal
    if (signal === undefined) return
    const onAbort = (): void => {
      const queued = this.queue.indexOf(w)
      if (queued >= 0) this.queue.splice(queued, 1)
      w.done(cancelledResult())
    }
    signal.addEventListener('abort', onAbort, { once: true })
    w.cleanup = () => signal.removeEventListener('abort', onAbort)
  }

  private async pump(): Promise<void> {
    if (this.running) return
    this.running = true
    try {
      for (let w = this.queue.shift(); w !== undefined; w = this.queue.shift()) {
        this.queue.forEach((q, i) => {
          if (q.kind === 'generate') q.job.onQueued?.(i + 1)
        })
        if (w.settled) continue
        this.active = w
        await this.serve(w)
        this.active = null
      }
    } finally {
      this.running = false
      this.active = null
    }
  }

  /** The spec a job runs with: on the CPU once its model's GPU has failed. */
  private specFor(spec: EngineModelSpec): EngineModelSpec {
    return this.gpuFailed.has(spec.file) && spec.gpu === 'auto' ? { ...spec, gpu: 'cpu' } : spec
  }

  /** Starts a process for `spec` (or keeps the one that has it) and waits until the model is loaded. */
  private async engineFor(w: Waiting, spec: EngineModelSpec): Promise<Result<Proc>> {
    let p = this.proc
    if (p !== null && p.state !== 'dead' && !p.doomed && !sameSpec(p.spec, spec)) {
      stop(p)
      await p.exited
      p = null
    }
    if (p === null || p.state === 'dead' || p.doomed) p = this.start(spec)
    if (p.state === 'ready') return ok(p)
    const proc = p
    const onLoad = w.kind === 'generate' ? w.job.onLoad : undefined
    return new Promise((resolve) => {
      const finish = (result: Result<Proc>): void => {
        proc.listeners.delete(listen)
        w.job.signal?.removeEventListener('abort', onAbort)
        resolve(result)
      }
      const listen = (m: FromEngine): void => {
        if (m.type === 'load-progress') onLoad?.(m.fraction)
        else if (m.type === 'loaded') finish(ok(proc))
        else if (m.type === 'load-failed') {
          // The process holds a half-set-up engine; the next request starts a clean one.
          stop(proc)
          finish({ ok: false, error: m.error })
        }
      }
      const onAbort = (): void => {
        // Cancelled while loading: keep loading only if the next request wants the same model.
        if (!this.queue.some((q) => !q.settled && sameSpec(this.specFor(q.job.model), spec))) stop(proc)
        finish(cancelledResult())
      }
      proc.listeners.add(listen)
      w.job.signal?.addEventListener('abort', onAbort, { once: true })
      void proc.exited.then((exit) => finish(crashed('while loading the model', exit)))
    })
  }

  private start(spec: EngineModelSpec): Proc {
    const channel = this.spawn()
    this.starts += 1
    let exitedWith: (exit: { code: number | null; signal: string | null; detail: string }) => void = () => undefined
    const exited = new Promise<{ code: number | null; signal: string | null; detail: string }>((r) => (exitedWith = r))
    const proc: Proc = { channel, spec, state: 'starting', doomed: false, model: null, listeners: new Set(), exited }
    channel.onMessage((m) => {
      if (m.type === 'ready') {
        proc.state = 'loading'
        channel.send({ type: 'load', model: spec })
      } else if (m.type === 'loaded') {
        proc.state = 'ready'
        proc.model = m.model
      }
      for (const l of [...proc.listeners]) l(m)
    })
    channel.onExit((exit) => {
      proc.state = 'dead'
      exitedWith(exit)
    })
    this.proc = proc
    return proc
  }

  private async serve(w: Waiting): Promise<void> {
    for (let attempt = 0; ; attempt += 1) {
      const spec = this.specFor(w.job.model)
      const p = this.proc
      const loaded = p !== null && p.state === 'ready' && !p.doomed && sameSpec(p.spec, spec)
      const loadStart = Date.now()
      const engine = await this.engineFor(w, spec)
      const loadMs = loaded ? null : Date.now() - loadStart
      if (!engine.ok) return w.done(engine)
      if (w.settled) return
      const outcome = w.kind === 'generate' ? await this.serveGenerate(w, engine.value, loadMs) : await this.serveWarm(w, engine.value)
      // The GPU failed under the model: it moves to the CPU, and the request is served again there.
      if (outcome !== null && !outcome.ok && outcome.error.code === 'model-gpu' && spec.gpu === 'auto' && attempt === 0) {
        this.gpuFailed.set(spec.file, `${outcome.error.message} The model runs on the CPU until the app is restarted.`)
        continue
      }
      if (outcome !== null) answer(w, outcome)
      return
    }
  }

  /**
   * Sends one request and follows it to its end; the result, or null when the caller was answered already
   * (cancelled). The engine is free again when this returns.
   */
  private request<T>(
    w: Waiting,
    proc: Proc,
    send: (id: number) => void,
    handle: (m: FromEngine, finish: (result: Result<T>) => void) => void,
    onCancel: (id: number) => void
  ): Promise<Result<T> | null> {
    const id = this.nextId++
    this.activeId = id
    return new Promise((release) => {
      let grace: NodeJS.Timeout | null = null
      let outcome: Result<T> | null = null
      const finish = (result: Result<T> | null): void => {
        proc.listeners.delete(listen)
        w.job.signal?.removeEventListener('abort', onAbort)
        if (grace !== null) clearTimeout(grace)
        this.activeId = null
        // Idle before the caller hears back, so that what it does next sees a free engine.
        if (this.active === w) this.active = null
        outcome = w.settled ? null : result
        release(outcome)
      }
      const listen = (m: FromEngine): void => {
        if (!('id' in m) || m.id !== id) return
        if (m.type === 'failed') return finish({ ok: false, error: m.error })
        if (m.type === 'cancelled') return finish(cancelledResult())
        handle(m, finish)
      }
      const onAbort = (): void => {
        w.done(cancelledResult())
        onCancel(id)
        // The caller is answered; the engine gets a moment to stop by itself before it is stopped hard.
        grace = setTimeout(() => stop(proc), this.cancelGraceMs)
      }
      proc.listeners.add(listen)
      w.job.signal?.addEventListener('abort', onAbort, { once: true })
      void proc.exited.then((exit) => finish(crashed(w.kind === 'warm' ? 'while reading a prompt' : 'while answering', exit)))
      send(id)
    })
  }

  private serveGenerate(
    w: Extract<Waiting, { kind: 'generate' }>,
    proc: Proc,
    loadMs: number | null
  ): Promise<Result<EngineResult> | null> {
    const { job } = w
    const samples: (Sample | null)[] = Array.from({ length: job.n }, () => null)
    return this.request<EngineResult>(
      w,
      proc,
      (id) =>
        proc.channel.send({
          type: 'generate',
          request: {
            id,
            input: job.input,
            n: job.n,
            temperature: job.temperature,
            maxTokens: job.maxTokens,
            stop: job.stop,
            seed: job.seed ?? Math.floor(Math.random() * 2 ** 31)
          }
        }),
      (m, finish) => {
        switch (m.type) {
          case 'prompt':
            if (!w.settled) job.onPrompt?.(m.done, m.total)
            return
          case 'tokens':
            if (!w.settled) job.onTokens?.(m.index, m.tokens)
            return
          case 'sample':
            samples[m.index] = m.sample
            if (!w.settled) job.onSample?.(m.index, m.sample)
            return
          case 'done':
            return finish(
              ok({ samples: samples.filter((s): s is Sample => s !== null), stats: m.stats, model: proc.model as LoadedModel, loadMs })
            )
          default:
            return
        }
      },
      (id) => proc.channel.send({ type: 'cancel', id })
    )
  }

  private serveWarm(w: Extract<Waiting, { kind: 'warm' }>, proc: Proc): Promise<Result<WarmResult> | null> {
    return this.request<WarmResult>(
      w,
      proc,
      (id) => proc.channel.send({ type: 'warm', request: { id, input: w.job.input } }),
      (m, finish) => {
        if (m.type === 'warmed') finish(ok({ prefix: m.prefix, model: proc.model as LoadedModel }))
      },
      (id) => proc.channel.send({ type: 'cancel', id })
    )
  }
}

function stop(p: Proc): void {
  p.doomed = true
  p.channel.kill()
}

function crashed<T>(when: string, exit: { code: number | null; signal: string | null; detail: string }): Result<T> {
  const how = exit.signal !== null ? `was stopped by ${exit.signal}` : `exited with code ${exit.code ?? 'unknown'}`
  const error: AppError = {
    code: 'model-engine-crashed',
    message: `The built-in model's engine stopped ${when} (it ${how}). It starts again for the next question.`
  }
  if (exit.detail !== '') error.detail = exit.detail
  return { ok: false, error }
}
