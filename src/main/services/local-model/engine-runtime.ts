/**
 * The engine process's work: load one GGUF model with node-llama-cpp and serve requests one at a time:
 * sample completions with the log-probability of every sampled token, and warm the fixed prefix of a
 * prompt kind ahead of the first question. Runs only inside the engine process (src/main/engine.ts);
 * main never loads node-llama-cpp itself, so a crash or a hard stop here never takes main down.
 *
 * Log-probabilities: each token's `confidence` from `evaluateWithMetadata(..., {confidence: true})` is
 * its probability in the distribution it was actually drawn from (after temperature and top-k), so their
 * log-sum ranks samples by how likely the sampler found them. It costs nothing extra; a scoring pass for
 * the raw model probabilities would need the whole vocabulary's probabilities per token (measured in
 * docs/BENCHMARKS.md) and is not made.
 */

import type { Token } from 'node-llama-cpp'
import type { AppError } from '../../../shared/result'
import { loadEngine, messageOf, type Engine } from './engine-load'
import type { EngineModelSpec, FromEngine, GenerateRequest, ToEngine, WarmRequest } from './engine-protocol'
import { promptTokens } from './engine-prompt'
import { copyPrompt, drawSamples, holdPrompt, type Hooks } from './engine-sample'

export { firstStop } from './engine-sample'

export type EnginePort = { send(message: FromEngine): void; onMessage(listener: (message: ToEngine) => void): void }

type Job = { kind: 'generate'; request: GenerateRequest } | { kind: 'warm'; request: WarmRequest }

function problem(code: AppError['code'], message: string, detail?: string): AppError {
  return detail === undefined ? { code, message } : { code, message, detail }
}

export function startEngine(port: EnginePort): void {
  let engine: Engine | null = null
  let loading: Promise<void> | null = null
  const cancelled = new Set<number>()
  const yielded = new Set<number>()
  const queue: Job[] = []
  let working = false

  const load = async (spec: EngineModelSpec): Promise<void> => {
    const result = await loadEngine(spec, (fraction) => port.send({ type: 'load-progress', fraction }))
    if (!result.ok) return port.send({ type: 'load-failed', error: result.error })
    engine = result.value
    port.send({ type: 'loaded', model: engine.info })
  }

  /** A failure while the model works; on a GPU it is the GPU's, and the host moves the model to the CPU. */
  const failure = (e: Engine, what: string, error: unknown): AppError =>
    e.info.backend === 'cpu'
      ? problem('internal', `${what} failed: ${messageOf(error)}`)
      : problem('model-gpu', `${what} failed on the GPU (${e.info.backend}): ${messageOf(error)}`)

  /** The request's prompt as tokens and the length of its fixed part; null (and the request failed) when it cannot be laid out. */
  const layOut = (e: Engine, request: GenerateRequest | WarmRequest): { tokens: Token[]; fixed: number } | null => {
    try {
      return promptTokens(e.model, e.wrapper, request.input)
    } catch (error) {
      port.send({ type: 'failed', id: request.id, error: problem('bad-input', `The prompt could not be laid out: ${messageOf(error)}`) })
      return null
    }
  }

  const generate = async (e: Engine, request: GenerateRequest): Promise<void> => {
    const { id } = request
    const laid = layOut(e, request)
    if (laid === null) return
    const { tokens, fixed } = laid
    const room = e.info.contextSize - tokens.length
    if (room < 16)
      return port.send({
        type: 'failed',
        id,
        error: problem(
          'bad-input',
          `The prompt is ${tokens.length.toLocaleString('en-US')} tokens and the model's context holds ${e.info.contextSize.toLocaleString('en-US')}. Raise the context size in the endpoint settings, or lower the prompt token budget.`
        )
      })
    const hooks: Hooks = {
      cancelled: () => cancelled.has(id),
      onPrompt: (done, total) => port.send({ type: 'prompt', id, done, total }),
      onTokens: (index, count) => port.send({ type: 'tokens', id, index, tokens: count }),
      onSample: (index, sample) => port.send({ type: 'sample', id, index, sample })
    }
    const target = tokens.slice(0, -1)
    const held = await holdPrompt(e, target, Math.min(fixed, target.length), hooks)
    if (held === null) return port.send({ type: 'cancelled', id })
    const width = Math.min(request.n, e.sequences.length)
    const others = e.sequences.filter((s) => s !== held.sequence).slice(0, width - 1)
    const copyMs = await copyPrompt(held.sequence, others, target)
    if (cancelled.has(id)) return port.send({ type: 'cancelled', id })
    const sampleStart = Date.now()
    const drawn = await drawSamples(
      e,
      [held.sequence, ...others],
      {
        last: tokens[tokens.length - 1] as Token,
        n: request.n,
        temperature: request.temperature,
        budget: Math.min(request.maxTokens, room),
        stop: request.stop,
        seed: request.seed
      },
      hooks
    )
    if (drawn === null) return port.send({ type: 'cancelled', id })
    port.send({
      type: 'done',
      id,
      stats: {
        promptTokens: tokens.length,
        promptEvaluatedTokens: held.evaluated,
        promptMs: held.ms + copyMs,
        prefix: held.prefix,
        sequences: width,
        copyMs,
        samples: drawn.stats,
        generatedTokens: drawn.stats.reduce((a, s) => a + s.tokens, 0),
        generateMs: Date.now() - sampleStart,
        rssBytes: process.memoryUsage().rss
      }
    })
  }

  const warm = async (e: Engine, request: WarmRequest): Promise<void> => {
    const { id } = request
    const laid = layOut(e, request)
    if (laid === null) return
    const { tokens, fixed } = laid
    if (fixed === 0) return port.send({ type: 'warmed', id, prefix: { tokens: 0, source: 'none', ms: 0, saved: false } })
    const prefix = tokens.slice(0, fixed)
    const held = await holdPrompt(e, prefix, fixed, { cancelled: () => cancelled.has(id) }, () => yielded.has(id))
    if (held === null) return port.send({ type: 'cancelled', id })
    port.send({ type: 'warmed', id, prefix: held.prefix })
  }

  const work = async (): Promise<void> => {
    if (working) return
    working = true
    try {
      for (let job = queue.shift(); job !== undefined; job = queue.shift()) {
        if (loading !== null) await loading
        const id = job.request.id
        if (cancelled.has(id)) port.send({ type: 'cancelled', id })
        else if (engine === null) port.send({ type: 'failed', id, error: problem('internal', 'No model is loaded in the engine.') })
        else {
          const e = engine
          const run = job.kind === 'generate' ? generate(e, job.request) : warm(e, job.request)
          await run.catch((error: unknown) =>
            port.send({ type: 'failed', id, error: failure(e, job.kind === 'generate' ? 'Generation' : 'Reading the prompt', error) })
          )
        }
        cancelled.delete(id)
        yielded.delete(id)
      }
    } finally {
      working = false
    }
  }

  port.onMessage((message) => {
    switch (message.type) {
      case 'load':
        loading = load(message.model)
          .catch((error: unknown) =>
            port.send({ type: 'load-failed', error: problem('internal', `The engine failed: ${messageOf(error)}`) })
          )
          .finally(() => {
            loading = null
          })
        return
      case 'generate':
        queue.push({ kind: 'generate', request: message.request })
        void work()
        return
      case 'warm':
        queue.push({ kind: 'warm', request: message.request })
        void work()
        return
      case 'cancel':
        cancelled.add(message.id)
        return
      case 'yield':
        yielded.add(message.id)
        return
    }
  })
  port.send({ type: 'ready', pid: process.pid })
}
