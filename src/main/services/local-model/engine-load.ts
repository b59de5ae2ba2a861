/**
 * Loading the model in the engine process: the backend (the GPU when one is usable and allowed, else
 * the CPU, with a line saying why), the weights, and one context of `sequences` sequences so that samples
 * are decoded side by side. Fewer sequences are made when the memory does not hold them all.
 */

import { freemem } from 'node:os'
import { basename } from 'node:path'
import type { ChatWrapper, Llama, LlamaContext, LlamaContextSequence, LlamaModel } from 'node-llama-cpp'
import type { AppError, Result } from '../../../shared/result'
import { fail, ok } from '../../../shared/result'
import type { Backend, EngineModelSpec, LoadedModel } from './engine-protocol'
import { modelSha256, PrefixStates } from './prefix-cache'

export type Engine = {
  llama: Llama
  model: LlamaModel
  context: LlamaContext
  sequences: LlamaContextSequence[]
  wrapper: ChatWrapper | null
  info: LoadedModel
  /** Prefix states on disk; null without a state folder (or when the model file could not be hashed). */
  states: PrefixStates | null
}

const gb = (bytes: number): string => `${(bytes / 1e9).toFixed(1)} GB`

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

const backendOf = (llama: { gpu: string | false }): Backend => (llama.gpu === false ? 'cpu' : (llama.gpu as Backend))

/**
 * Runs `attempt` on the GPU when allowed and usable, else (or when it fails there) on the CPU; the note
 * says why the CPU was used although the GPU was allowed. `llamaFor` gives the llama.cpp bindings for a
 * choice ('auto' finds a GPU or falls back to the CPU by itself).
 */
export async function withBackend<L extends { gpu: string | false }, T>(
  gpu: EngineModelSpec['gpu'],
  llamaFor: (choice: 'auto' | 'cpu') => Promise<L>,
  attempt: (llama: L) => Promise<T>
): Promise<{ llama: L; value: T; note: string | null }> {
  let note: string | null = null
  if (gpu === 'auto') {
    let llama: L | null = null
    try {
      llama = await llamaFor('auto')
    } catch (error) {
      note = `The GPU could not be started (${messageOf(error)}); the model runs on the CPU.`
    }
    if (llama !== null && llama.gpu === false) {
      note = 'No usable GPU was found (Metal, CUDA or Vulkan); the model runs on the CPU.'
      return { llama, value: await attempt(llama), note }
    }
    if (llama !== null) {
      try {
        return { llama, value: await attempt(llama), note: null }
      } catch (error) {
        note = `The GPU (${String(llama.gpu)}) could not hold the model (${messageOf(error)}); it runs on the CPU.`
      }
    }
  }
  const cpu = await llamaFor('cpu')
  return { llama: cpu, value: await attempt(cpu), note }
}

class LoadError extends Error {
  constructor(readonly error: AppError) {
    super(error.message)
  }
}

export async function loadEngine(spec: EngineModelSpec, onProgress: (fraction: number) => void): Promise<Result<Engine>> {
  const started = Date.now()
  const lib = await import('node-llama-cpp')
  const file = basename(spec.file)
  let ggufInfo
  try {
    ggufInfo = await lib.readGgufFileInfo(spec.file)
  } catch (error) {
    return fail('model-file', `llama.cpp cannot read ${file}: ${messageOf(error)}`)
  }
  const hashing = spec.stateDir === undefined ? null : modelSha256(spec.stateDir, spec.file).catch(() => null)
  const llamaFor = (choice: 'auto' | 'cpu'): Promise<Llama> =>
    lib.getLlama({
      gpu: choice === 'auto' ? 'auto' : false,
      build: 'never',
      maxThreads: spec.threads,
      logLevel: lib.LlamaLogLevel.error,
      progressLogs: false
    })
  let sequencesNote: string | null = null
  const attempt = async (llama: Llama): Promise<{ model: LlamaModel; context: LlamaContext; trainContext: number }> => {
    const insights = await lib.GgufInsights.from(ggufInfo, llama)
    const trainContext = insights.trainContextSize ?? spec.contextSize
    const contextSize = Math.min(spec.contextSize, trainContext)
    let sequences = Math.max(1, spec.sequences ?? 1)
    if (llama.gpu === false) {
      // On the CPU everything lives in RAM: make as many sequences as fit.
      const weights = insights.estimateModelResourceRequirements({ gpuLayers: 0 }).cpuRam
      const contextFor = (s: number): number =>
        insights.estimateContextResourceRequirements({ contextSize, modelGpuLayers: 0, sequences: s }).cpuRam
      const free = spec.memoryLimitBytes ?? freemem()
      const wanted = sequences
      while (sequences > 1 && weights + contextFor(sequences) > free) sequences -= 1
      if (weights + contextFor(1) > free)
        throw new LoadError({
          code: 'model-memory',
          message: `${file} needs about ${gb(weights + contextFor(1))} of memory (${gb(weights)} for the model, ${gb(contextFor(1))} for a ${contextSize.toLocaleString('en-US')}-token context) and ${gb(free)} is free. Close other programs, lower the context size in the endpoint settings, or choose a smaller model.`
        })
      if (sequences < wanted)
        sequencesNote = `Memory holds ${sequences} of the ${wanted} samples side by side; the others are drawn after them.`
    }
    let reported = -1
    let model: LlamaModel
    try {
      model = await llama.loadModel({
        modelPath: spec.file,
        gpuLayers: llama.gpu === false ? 0 : 'auto',
        onLoadProgress: (fraction) => {
          // llama.cpp reports hundreds of steps; a twentieth is enough for a progress bar.
          if (fraction < 1 && fraction - reported < 0.05) return
          reported = fraction
          onProgress(fraction)
        }
      })
    } catch (error) {
      if (llama.gpu !== false) throw error
      throw new LoadError({ code: 'model-file', message: `llama.cpp could not load ${file}: ${messageOf(error)}` })
    }
    try {
      const context = await model.createContext({ contextSize, threads: spec.threads, sequences, batchSize: Math.min(512, contextSize) })
      return { model, context, trainContext }
    } catch (error) {
      await model.dispose()
      if (llama.gpu !== false) throw error
      throw new LoadError({
        code: 'model-memory',
        message: `The model loaded, but its ${contextSize}-token context could not be made: ${messageOf(error)}`
      })
    }
  }
  let loaded
  try {
    loaded = await withBackend(spec.gpu ?? 'cpu', llamaFor, attempt)
  } catch (error) {
    if (error instanceof LoadError) return { ok: false, error: error.error }
    return fail('model-file', `llama.cpp could not load ${file}: ${messageOf(error)}`)
  }
  const { llama, value, note } = loaded
  const { model, context, trainContext } = value
  const wrapper = lib.resolveChatWrapper(model) ?? null
  serializeSampling(context)
  const sequences = Array.from({ length: context.totalSequences }, () => context.getSequence())
  const release = llama.llamaCppRelease
  const engineVersion = `node-llama-cpp ${await lib.getModuleVersion()}, llama.cpp ${release.release}, ${backendOf(llama)}`
  const modelSha = hashing === null ? null : await hashing
  const info: LoadedModel = {
    name: typeof ggufInfo.metadata.general.name === 'string' ? ggufInfo.metadata.general.name : file,
    architecture: String(ggufInfo.metadata.general.architecture),
    contextSize: context.contextSize,
    trainContext,
    threads: spec.threads,
    chatWrapper: wrapper?.wrapperName ?? null,
    loadMs: Date.now() - started,
    rssBytes: process.memoryUsage().rss,
    backend: backendOf(llama),
    gpuLayers: model.gpuLayers,
    layers: model.fileInsights.totalLayers,
    note: [note, sequencesNote].filter((n) => n !== null).join(' ') || null,
    sequences: sequences.length,
    engineVersion
  }
  const states = spec.stateDir === undefined || modelSha === null ? null : new PrefixStates(spec.stateDir, modelSha, engineVersion)
  return ok({ llama, model, context, sequences, wrapper, info, states })
}

/**
 * Makes the tokens of a batch be sampled one sequence at a time. node-llama-cpp 3.21.1 samples the
 * sequences of a batch side by side on worker threads, and reading a multi-sequence batch's logits that way
 * is not safe: measured here, with four sequences sampling at a temperature, tokens of one sample turned up
 * in another ("Laps down" read as "LLaps down" in one sample and "aps down" in the next), while greedy
 * decoding and one sequence at a time were exact. Sampling is a small part of a step (the batch's decode is
 * the rest), so doing it in turn costs little. The wrapper sits on the context's native handle, an internal
 * of the pinned version; the test "samples drawn side by side are those drawn one at a time" guards it.
 */
export function serializeSampling(context: LlamaContext): void {
  const holder = context as unknown as { _ctx: { sampleToken: (...args: unknown[]) => Promise<unknown> } & object }
  const native = holder._ctx
  if (typeof native?.sampleToken !== 'function') throw new Error('node-llama-cpp changed: the context has no sampleToken to serialise')
  let turn: Promise<unknown> = Promise.resolve()
  const sampleToken = (...args: unknown[]): Promise<unknown> => {
    const mine = turn.then(() => native.sampleToken(...args))
    turn = mine.catch(() => undefined)
    return mine
  }
  holder._ctx = new Proxy(native, {
    get(target, key) {
      if (key === 'sampleToken') return sampleToken
      const value: unknown = Reflect.get(target, key)
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value
    }
  })
}
