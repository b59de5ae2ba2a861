/**
 * Messages between main and the engine process (`src/main/engine.ts`), which runs llama.cpp through
 * node-llama-cpp. Plain JSON-able data: the same messages travel over a forked Node child's IPC channel
 * (browser mode, command line, tests) and over Electron's utilityProcess port (desktop app).
 */

import type { ChatMessage, EnginePrefixStats, EngineSampleStats, Sample } from '../../../shared/model'
import type { AppError } from '../../../shared/result'

/** Where the engine runs the model: the GPU when node-llama-cpp finds a usable one (else the CPU), or the CPU. */
export type GpuChoice = 'auto' | 'cpu'

/** The model the engine holds: one per process; another model means another process. */
export type EngineModelSpec = {
  file: string
  /** Tokens each sequence holds (prompt and reply). */
  contextSize: number
  threads: number
  /**
   * Samples decoded side by side in one batch: llama.cpp sequences, each with its own `contextSize`.
   * Default 1. Fewer are made when the memory does not hold them all (the loaded model says how many).
   */
  sequences?: number
  /** Default 'cpu'. */
  gpu?: GpuChoice
  /**
   * Folder where the evaluated state of fixed prompt prefixes is kept between starts, per model file,
   * prefix and engine version. Absent: prefixes are kept in memory only.
   */
  stateDir?: string
  /**
   * Memory the engine may count as free, bytes; absent means what the system says is free now. Tests set
   * it to check the refusal of a model too large for the computer.
   */
  memoryLimitBytes?: number
}

/**
 * What the engine generates from: text to continue, or messages through the model's chat template.
 * `fixed` marks the part that is the same for every question of a kind (the instructions and worked
 * examples): that many leading messages, or characters of the text. The engine keeps its evaluated state
 * (in memory and on disk) and reads only what follows it for a new question.
 */
export type EngineInput =
  | { kind: 'text'; text: string; fixed?: number }
  /** `prefill`: the start of the model's reply, given to it (e.g. the opening code fence). */
  | { kind: 'chat'; messages: ChatMessage[]; fixed?: number; prefill?: string }

export type GenerateRequest = {
  id: number
  input: EngineInput
  n: number
  temperature: number
  maxTokens: number
  stop: string[]
  /** First sample's seed; sample i uses seed + i. */
  seed: number
}

/** Make the engine hold the fixed prefix of `input` (read from disk, or evaluated and saved), ready for questions. */
export type WarmRequest = { id: number; input: EngineInput }

/** Main → engine. */
export type ToEngine =
  | { type: 'load'; model: EngineModelSpec }
  | { type: 'generate'; request: GenerateRequest }
  | { type: 'warm'; request: WarmRequest }
  | { type: 'cancel'; id: number }
  /** Stop a warm-up at the next chunk, keeping what it read (a question is waiting). */
  | { type: 'yield'; id: number }

export type Backend = 'cpu' | 'cuda' | 'vulkan' | 'metal'

/** What loading found out about the model. */
export type LoadedModel = {
  name: string
  architecture: string
  /** The context of each sequence actually created (llama.cpp may round it up). */
  contextSize: number
  trainContext: number
  threads: number
  chatWrapper: string | null
  loadMs: number
  /** The engine process's resident memory after loading, bytes. */
  rssBytes: number
  /** Where the model runs. */
  backend: Backend
  /** Layers offloaded to the GPU (0 on the CPU), of `layers`. */
  gpuLayers: number
  layers: number
  /** Why the model runs on the CPU although the GPU was allowed, or why fewer sequences were made; null when nothing to say. */
  note: string | null
  /** Sequences made (samples decoded side by side). */
  sequences: number
  /** node-llama-cpp and llama.cpp versions: a prefix state is only valid for the engine that wrote it. */
  engineVersion: string
}

export type PrefixStats = EnginePrefixStats
export type SampleStats = EngineSampleStats

/** Timings of one generate request. */
export type GenerateStats = {
  promptTokens: number
  /** Prompt tokens evaluated for this request: those the engine did not hold already (in memory or on disk). */
  promptEvaluatedTokens: number
  /** Time to make the engine hold the prompt (evaluating, reading the prefix from disk, copying between sequences). */
  promptMs: number
  prefix: PrefixStats
  /** Sequences the samples were decoded in, side by side. */
  sequences: number
  /** Time to copy the prompt's state to the other sequences. */
  copyMs: number
  samples: SampleStats[]
  generatedTokens: number
  generateMs: number
  rssBytes: number
}

/** Engine → main. */
export type FromEngine =
  /** The process is up and can take a `load`. */
  | { type: 'ready'; pid: number }
  | { type: 'load-progress'; fraction: number }
  | { type: 'loaded'; model: LoadedModel }
  | { type: 'load-failed'; error: AppError }
  /** Prompt tokens read so far for a request, of those it has to read. */
  | { type: 'prompt'; id: number; done: number; total: number }
  /** Tokens generated so far for one sample, now and then. */
  | { type: 'tokens'; id: number; index: number; tokens: number }
  | { type: 'sample'; id: number; index: number; sample: Sample }
  | { type: 'done'; id: number; stats: GenerateStats }
  | { type: 'warmed'; id: number; prefix: PrefixStats }
  | { type: 'cancelled'; id: number }
  | { type: 'failed'; id: number; error: AppError }

/** A running engine process as main sees it: send, listen, and stop it hard. */
export type EngineChannel = {
  send(message: ToEngine): void
  onMessage(listener: (message: FromEngine) => void): void
  /** Called once when the process ends, for whatever reason; `detail` is the end of what it printed on stderr. */
  onExit(listener: (exit: { code: number | null; signal: string | null; detail: string }) => void): void
  kill(): void
  readonly pid: number | undefined
}

/** Starts an engine process: a forked Node child, or Electron's utilityProcess in the desktop app. */
export type SpawnEngine = () => EngineChannel
