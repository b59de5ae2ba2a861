/**
 * Main's handle on the engine process: starts it on first use, loads the model a request names (another
 * model means a fresh process), runs one request at a time and queues the rest in order, and survives the
 * process: a crash fails the request it was serving with a clear message and the next request starts a
 * new process. Cancelling answers the caller at once; the engine is asked to stop, and if it has not
 * within the grace period (a long prompt being read, a load) it is stopped hard.
 */

import type { Sample } from '../../../shared/model'
import { fail, ok, type AppError, type Result } from '../../../shared/result'
import type { EngineChannel, EngineInput, EngineModelSpec, FromEngine, GenerateStats, LoadedModel, SpawnEngine } from './engine-protocol'

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
  onTokens?: (index: number, tokens: number) => void
  /** Each sample as soon as it is complete. */
  onSample?: (index: number, sample: Sample) => void
}

export type EngineResult = { samples: Sample[]; stats: GenerateStats; model: LoadedModel }

export type EngineStatus = {
  state: 'stopped' | 'starting' | 'loading' | 'ready' | 'busy'
  model: LoadedModel | null
  pid: number | null
  queued: number
  /** Engine processes started so far (a restart after a crash counts). */
  starts: number
}

export type EngineHostOptions = {
  /**
   * How long a cancelled request may take to stop before the process is stopped hard. Default 150 ms, so
   * that a cancel frees the engine within 200 ms however busy the machine is (a prompt chunk being read can
   * take longer than that under load); the next request then starts the engine again and reloads the model.
   */
  cancelGraceMs?: number
}

type Waiting = { job: EngineJob; done: (result: Result<EngineResult>) => void; settled: boolean }

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
  a.file === b.file && a.contextSize === b.contextSize && a.threads === b.threads && a.memoryLimitBytes === b.memoryLimitBytes

export const DEFAULT_CANCEL_GRACE_MS = 150

const cancelledResult = (): Result<EngineResult> => fail('cancelled', 'The question was cancelled.')

export class EngineHost {
  private proc: Proc | null = null
  private readonly queue: Waiting[] = []
  private active: Waiting | null = null
  private running = false
  private nextId = 1
  private starts = 0
  private closed = false
  private readonly cancelGraceMs: number

  constructor(
    private readonly spawn: SpawnEngine,
    options: EngineHostOptions = {}
  ) {
    this.cancelGraceMs = options.cancelGraceMs ?? DEFAULT_CANCEL_GRACE_MS
  }

  status(): EngineStatus {
    const p = this.proc
    const state: EngineStatus['state'] =
      p === null || p.state === 'dead' || p.doomed ? 'stopped' : p.state === 'ready' ? (this.active === null ? 'ready' : 'busy') : p.state
    return { state, model: p?.model ?? null, pid: p?.channel.pid ?? null, queued: this.queue.length, starts: this.starts }
  }

  generate(job: EngineJob): Promise<Result<EngineResult>> {
    if (this.closed) return Promise.resolve(fail('model-unreachable', 'The built-in model has been shut down.'))
    if (job.signal?.aborted === true) return Promise.resolve(cancelledResult())
    return new Promise((resolve) => {
      const waiting: Waiting = {
        job,
        settled: false,
        done: (result) => {
          if (waiting.settled) return
          waiting.settled = true
          job.signal?.removeEventListener('abort', onAbort)
          resolve(result)
        }
      }
      const onAbort = (): void => this.abort(waiting)
      job.signal?.addEventListener('abort', onAbort, { once: true })
      this.queue.push(waiting)
      if (this.running || this.active !== null) job.onQueued?.(this.queue.length - 1 + (this.active === null ? 0 : 1))
      void this.pump()
    })
  }

  /** Stops the engine process; later requests fail. */
  async close(): Promise<void> {
    this.closed = true
    for (const w of this.queue.splice(0)) w.done(fail('model-unreachable', 'The built-in model has been shut down.'))
    this.active?.done(fail('model-unreachable', 'The built-in model has been shut down.'))
    const p = this.proc
    if (p !== null && p.state !== 'dead') {
      stop(p)
      await p.exited
    }
  }

  private abort(w: Waiting): void {
    const queued = this.queue.indexOf(w)
    if (queued >= 0) this.queue.splice(queued, 1)
    w.done(cancelledResult())
  }

  private async pump(): Promise<void> {
    if (this.running) return
    this.running = true
    try {
      for (let w = this.queue.shift(); w !== undefined; w = this.queue.shift()) {
        this.queue.forEach((q, i) => q.job.onQueued?.(i + 1))
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

  /** Starts a process for `spec` (or keeps the one that has it) and waits until the model is loaded. */
  private async engineFor(w: Waiting): Promise<Result<Proc>> {
    const spec = w.job.model
    let p = this.proc
    if (p !== null && p.state !== 'dead' && !p.doomed && !sameSpec(p.spec, spec)) {
      stop(p)
      await p.exited
      p = null
    }
    if (p === null || p.state === 'dead' || p.doomed) p = this.start(spec)
    if (p.state === 'ready') return ok(p)
    const proc = p
    return new Promise((resolve) => {
      const finish = (result: Result<Proc>): void => {
        proc.listeners.delete(listen)
        w.job.signal?.removeEventListener('abort', onAbort)
        resolve(result)
      }
      const listen = (m: FromEngine): void => {
        if (m.type === 'load-progress') w.job.onLoad?.(m.fraction)
        else if (m.type === 'loaded') finish(ok(proc))
        else if (m.type === 'load-failed') {
          // The process holds a half-set-up engine; the next request starts a clean one.
          stop(proc)
          finish({ ok: false, error: m.error })
        }
      }
      const onAbort = (): void => {
        // Cancelled while loading: keep loading only if the next request wants the same model.
        if (!this.queue.some((q) => !q.settled && sameSpec(q.job.model, spec))) stop(proc)
        finish(cancelledResult() as Result<Proc>)
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
    const engine = await this.engineFor(w)
    if (!engine.ok) return w.done(engine)
    if (w.settled) return
    const proc = engine.value
    const id = this.nextId++
    const { job } = w
    const samples: (Sample | null)[] = Array.from({ length: job.n }, () => null)
    await new Promise<void>((release) => {
      let grace: NodeJS.Timeout | null = null
      const finish = (result: Result<EngineResult> | null): void => {
        proc.listeners.delete(listen)
        job.signal?.removeEventListener('abort', onAbort)
        if (grace !== null) clearTimeout(grace)
        // Idle before the caller hears back, so that what it does next sees a free engine.
        if (this.active === w) this.active = null
        if (result !== null) w.done(result)
        release()
      }
      const listen = (m: FromEngine): void => {
        if (!('id' in m) || m.id !== id) return
        switch (m.type) {
          case 'tokens':
            if (!w.settled) job.onTokens?.(m.index, m.tokens)
            return
          case 'sample':
            samples[m.index] = m.sample
            if (!w.settled) job.onSample?.(m.index, m.sample)
            return
          case 'done':
            return finish(ok({ samples: samples.filter((s): s is Sample => s !== null), stats: m.stats, model: proc.model as LoadedModel }))
          case 'failed':
            return finish({ ok: false, error: m.error })
          case 'cancelled':
            return finish(cancelledResult())
        }
      }
      const onAbort = (): void => {
        w.done(cancelledResult())
        proc.channel.send({ type: 'cancel', id })
        // The caller is answered; the engine gets a moment to stop by itself before it is stopped hard.
        grace = setTimeout(() => stop(proc), this.cancelGraceMs)
      }
      proc.listeners.add(listen)
      job.signal?.addEventListener('abort', onAbort, { once: true })
      void proc.exited.then((exit) => finish(crashed('while answering', exit)))
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
      })
    })
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
