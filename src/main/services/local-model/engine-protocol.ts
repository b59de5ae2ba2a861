/**
 * Messages between main and the engine process (`src/main/engine.ts`), which runs llama.cpp through
 * node-llama-cpp. Plain JSON-able data: the same messages travel over a forked Node child's IPC channel
 * (browser mode, command line, tests) and over Electron's utilityProcess port (desktop app).
 */

import type { ChatMessage, Sample } from '../../../shared/model'
import type { AppError } from '../../../shared/result'

/** The model the engine holds: one per process; another model means another process. */
export type EngineModelSpec = {
  file: string
  contextSize: number
  threads: number
  /**
   * Memory the engine may count as free, bytes; absent means what the system says is free now. Tests set
   * it to check the refusal of a model too large for the computer.
   */
  memoryLimitBytes?: number
}

/** What the engine generates from: text to continue, or messages through the model's chat template. */
export type EngineInput = { kind: 'text'; text: string } | { kind: 'chat'; messages: ChatMessage[] }

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

/** Main → engine. */
export type ToEngine =
  { type: 'load'; model: EngineModelSpec } | { type: 'generate'; request: GenerateRequest } | { type: 'cancel'; id: number }

/** What loading found out about the model. */
export type LoadedModel = {
  name: string
  architecture: string
  /** The context actually created (llama.cpp may round it up). */
  contextSize: number
  trainContext: number
  threads: number
  chatWrapper: string | null
  loadMs: number
  /** The engine process's resident memory after loading, bytes. */
  rssBytes: number
}

/** Timings of one generate request. */
export type GenerateStats = {
  promptTokens: number
  /** Prompt tokens evaluated for this request: those the engine did not still hold from the one before. */
  promptEvaluatedTokens: number
  /** Time to evaluate them. */
  promptMs: number
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
  /** Tokens generated so far for one sample, now and then. */
  | { type: 'tokens'; id: number; index: number; tokens: number }
  | { type: 'sample'; id: number; index: number; sample: Sample }
  | { type: 'done'; id: number; stats: GenerateStats }
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
