/**
 * The engine process's work: load one GGUF model with node-llama-cpp on the CPU and sample completions
 * with the log-probability of every sampled token. Runs only inside the engine process (src/main/engine.ts);
 * main never loads node-llama-cpp itself, so a crash or a hard stop here never takes main down.
 *
 * Log-probabilities: each token's `confidence` from `evaluateWithMetadata(..., {confidence: true})` is
 * its probability in the distribution it was actually drawn from (after temperature), so their log-sum
 * ranks samples by how likely the sampler found them. It costs nothing extra; a scoring pass for the raw
 * model probabilities would need the whole vocabulary's probabilities per token (measured in
 * docs/BENCHMARKS.md) and is not made.
 */

import { freemem } from 'node:os'
import { basename } from 'node:path'
import type { ChatHistoryItem, ChatWrapper, Llama, LlamaContext, LlamaContextSequence, LlamaModel, Token } from 'node-llama-cpp'
import type { ChatMessage, Sample } from '../../../shared/model'
import type { AppError } from '../../../shared/result'
import type { EngineModelSpec, FromEngine, GenerateRequest, LoadedModel, ToEngine } from './engine-protocol'

export type EnginePort = { send(message: FromEngine): void; onMessage(listener: (message: ToEngine) => void): void }

type Loaded = {
  model: LlamaModel
  context: LlamaContext
  sequence: LlamaContextSequence
  wrapper: ChatWrapper | null
  info: LoadedModel
}

/**
 * Prompt tokens are evaluated in chunks sized to take about this long, so that a cancel is seen within
 * it however fast the model reads (a fixed chunk takes 10 ms on a tiny model and seconds on a large one).
 */
const PROMPT_CHUNK_MS = 100
const PROMPT_CHUNK_MIN = 8
const PROMPT_CHUNK_MAX = 512
/** A `tokens` progress message every this many generated tokens. */
const PROGRESS_EVERY = 16

const gb = (bytes: number): string => `${(bytes / 1e9).toFixed(1)} GB`

function problem(code: AppError['code'], message: string, detail?: string): AppError {
  return detail === undefined ? { code, message } : { code, message, detail }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

export function startEngine(port: EnginePort): void {
  let llama: Llama | null = null
  let loaded: Loaded | null = null
  let loading: Promise<void> | null = null
  const cancelled = new Set<number>()
  const queue: GenerateRequest[] = []
  let working = false
  let promptChunk = PROMPT_CHUNK_MIN

  const load = async (spec: EngineModelSpec): Promise<void> => {
    const started = Date.now()
    const lib = await import('node-llama-cpp')
    llama ??= await lib.getLlama({
      gpu: false,
      build: 'never',
      maxThreads: spec.threads,
      logLevel: lib.LlamaLogLevel.error,
      progressLogs: false
    })
    const file = basename(spec.file)
    let info
    try {
      info = await lib.readGgufFileInfo(spec.file)
    } catch (error) {
      return port.send({ type: 'load-failed', error: problem('model-file', `llama.cpp cannot read ${file}: ${messageOf(error)}`) })
    }
    const insights = await lib.GgufInsights.from(info, llama)
    const trainContext = insights.trainContextSize ?? spec.contextSize
    const contextSize = Math.min(spec.contextSize, trainContext)
    const weights = insights.estimateModelResourceRequirements({ gpuLayers: 0 }).cpuRam
    const context = insights.estimateContextResourceRequirements({ contextSize, modelGpuLayers: 0, sequences: 1 }).cpuRam
    const free = spec.memoryLimitBytes ?? freemem()
    if (weights + context > free) {
      return port.send({
        type: 'load-failed',
        error: problem(
          'model-memory',
          `${file} needs about ${gb(weights + context)} of memory (${gb(weights)} for the model, ${gb(context)} for a ${contextSize.toLocaleString('en-US')}-token context) and ${gb(free)} is free. Close other programs, lower the context size in the endpoint settings, or choose a smaller model.`
        )
      })
    }
    let model: LlamaModel
    let reported = -1
    try {
      model = await llama.loadModel({
        modelPath: spec.file,
        gpuLayers: 0,
        onLoadProgress: (fraction) => {
          // llama.cpp reports hundreds of steps; a twentieth is enough for a progress bar.
          if (fraction < 1 && fraction - reported < 0.05) return
          reported = fraction
          port.send({ type: 'load-progress', fraction })
        }
      })
    } catch (error) {
      return port.send({ type: 'load-failed', error: problem('model-file', `llama.cpp could not load ${file}: ${messageOf(error)}`) })
    }
    let ctx: LlamaContext
    try {
      ctx = await model.createContext({ contextSize, threads: spec.threads, sequences: 1, batchSize: Math.min(512, contextSize) })
    } catch (error) {
      await model.dispose()
      return port.send({
        type: 'load-failed',
        error: problem('model-memory', `The model loaded, but its ${contextSize}-token context could not be made: ${messageOf(error)}`)
      })
    }
    const wrapper = lib.resolveChatWrapper(model) ?? null
    const infoOut: LoadedModel = {
      name: typeof info.metadata.general.name === 'string' ? info.metadata.general.name : file,
      architecture: String(info.metadata.general.architecture),
      contextSize: ctx.contextSize,
      trainContext,
      threads: spec.threads,
      chatWrapper: wrapper?.wrapperName ?? null,
      loadMs: Date.now() - started,
      rssBytes: process.memoryUsage().rss
    }
    loaded = { model, context: ctx, sequence: ctx.getSequence(), wrapper, info: infoOut }
    port.send({ type: 'loaded', model: infoOut })
  }

  const promptTokens = (l: Loaded, request: GenerateRequest): Token[] => {
    const { input } = request
    if (input.kind === 'text') {
      const tokens = l.model.tokenize(input.text, false)
      const bos = l.model.tokens.bos
      return l.model.tokens.shouldPrependBosToken && bos !== null ? [bos, ...tokens] : tokens
    }
    if (l.wrapper === null) throw new Error('the model has no chat template; use it in completion mode')
    const history: ChatHistoryItem[] = [...chatHistory(input.messages), { type: 'model', response: [] }]
    return l.wrapper.generateContextState({ chatHistory: history }).contextText.tokenize(l.model.tokenizer)
  }

  /**
   * Makes the sequence hold exactly `prefix`, reusing what it already holds (the instructions and examples
   * a previous question shared); the number of tokens it evaluated, or null when cancelled.
   */
  const holdPrefix = async (l: Loaded, prefix: Token[], id: number): Promise<number | null> => {
    const held = l.sequence.contextTokens
    let common = 0
    while (common < held.length && common < prefix.length && held[common] === prefix[common]) common += 1
    if (common < l.sequence.nextTokenIndex) await l.sequence.eraseContextTokenRanges([{ start: common, end: l.sequence.nextTokenIndex }])
    // The first chunk is sized by the speed seen in the request before (8 tokens before any was seen).
    let chunk = promptChunk
    for (let at = common; at < prefix.length;) {
      if (cancelled.has(id)) return null
      const part = prefix.slice(at, at + chunk)
      const started = Date.now()
      await l.sequence.evaluateWithoutGeneratingNewTokens(part)
      const msPerToken = Math.max(Date.now() - started, 1) / part.length
      at += part.length
      chunk = Math.min(PROMPT_CHUNK_MAX, Math.max(PROMPT_CHUNK_MIN, Math.floor(PROMPT_CHUNK_MS / msPerToken)))
      promptChunk = chunk
    }
    return cancelled.has(id) ? null : prefix.length - common
  }

  const generate = async (l: Loaded, request: GenerateRequest): Promise<void> => {
    const { id } = request
    let prompt: Token[]
    try {
      prompt = promptTokens(l, request)
    } catch (error) {
      return port.send({ type: 'failed', id, error: problem('bad-input', `The prompt could not be laid out: ${messageOf(error)}`) })
    }
    const room = l.info.contextSize - prompt.length
    if (room < 16)
      return port.send({
        type: 'failed',
        id,
        error: problem(
          'bad-input',
          `The prompt is ${prompt.length.toLocaleString('en-US')} tokens and the model's context holds ${l.info.contextSize.toLocaleString('en-US')}. Raise the context size in the endpoint settings, or lower the prompt token budget.`
        )
      })
    const budget = Math.min(request.maxTokens, room)
    const promptStart = Date.now()
    let promptMs = 0
    let promptEvaluated = 0
    let generated = 0
    let generateMs = 0
    for (let index = 0; index < request.n; index += 1) {
      const evalStart = Date.now()
      const evaluated = await holdPrefix(l, prompt.slice(0, -1), id)
      if (evaluated === null) return port.send({ type: 'cancelled', id })
      if (index === 0) {
        promptMs = Date.now() - promptStart
        promptEvaluated = evaluated
      }
      const last = prompt[prompt.length - 1] as Token
      const tokens: Token[] = []
      // Tokens whose probability is counted: all but one a stop string cut into.
      let scored = 0
      let logprobSum = 0
      let text = ''
      let finishReason = 'stop'
      const sampling =
        request.temperature === 0
          ? { temperature: 0 }
          : { temperature: request.temperature, topK: 0, topP: 1, minP: 0, seed: request.seed + index }
      for await (const out of l.sequence.evaluateWithMetadata([last], { confidence: true }, sampling)) {
        if (cancelled.has(id)) return port.send({ type: 'cancelled', id })
        tokens.push(out.token)
        const next = l.model.detokenize(tokens)
        const stop = firstStop(next, request.stop, text.length)
        if (stop !== null) {
          text = next.slice(0, stop)
          break
        }
        text = next
        // A sampled token's probability can round to 0 in float32; keep the sum finite.
        logprobSum += Math.log(Math.max(out.confidence, 1e-30))
        scored += 1
        if (tokens.length % PROGRESS_EVERY === 0) port.send({ type: 'tokens', id, index, tokens: tokens.length })
        if (tokens.length >= budget) {
          finishReason = 'length'
          break
        }
      }
      generated += tokens.length
      generateMs += Date.now() - evalStart
      const sample: Sample = {
        text,
        logprobSum,
        logprobMean: scored === 0 ? 0 : logprobSum / scored,
        tokens: tokens.length,
        finishReason
      }
      port.send({ type: 'sample', id, index, sample })
    }
    port.send({
      type: 'done',
      id,
      stats: {
        promptTokens: prompt.length,
        promptEvaluatedTokens: promptEvaluated,
        promptMs,
        generatedTokens: generated,
        generateMs: generateMs - promptMs,
        rssBytes: process.memoryUsage().rss
      }
    })
  }

  const work = async (): Promise<void> => {
    if (working) return
    working = true
    try {
      for (let request = queue.shift(); request !== undefined; request = queue.shift()) {
        if (loading !== null) await loading
        const id = request.id
        if (cancelled.has(id)) {
          port.send({ type: 'cancelled', id })
        } else if (loaded === null) {
          port.send({ type: 'failed', id, error: problem('internal', 'No model is loaded in the engine.') })
        } else {
          await generate(loaded, request).catch((error: unknown) =>
            port.send({ type: 'failed', id, error: problem('internal', `Generation failed: ${messageOf(error)}`) })
          )
        }
        cancelled.delete(id)
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
        queue.push(message.request)
        void work()
        return
      case 'cancel':
        cancelled.add(message.id)
        return
    }
  })
  port.send({ type: 'ready', pid: process.pid })
}

function chatHistory(messages: ChatMessage[]): ChatHistoryItem[] {
  return messages.map((m): ChatHistoryItem => {
    switch (m.role) {
      case 'system':
        return { type: 'system', text: m.content }
      case 'user':
        return { type: 'user', text: m.content }
      case 'assistant':
        return { type: 'model', response: [m.content] }
    }
  })
}

/** Where the first stop string begins in `text`, looking only where a new one can have appeared. */
export function firstStop(text: string, stops: readonly string[], previousLength: number): number | null {
  let best: number | null = null
  for (const stop of stops) {
    if (stop === '') continue
    const at = text.indexOf(stop, Math.max(0, previousLength - stop.length + 1))
    if (at >= 0 && (best === null || at < best)) best = at
  }
  return best
}
