/** Types of the built-in model: the catalog of downloadable GGUF models, the models on disk, downloads. */

import type { AppError } from './result'

/**
 * How a model is prompted.
 * - `completion`: base code models (StarCoder2): the prompt is text the model continues.
 * - `chat`: instruction-tuned models: messages laid out by the model's own chat template.
 */
export type PromptForm = 'completion' | 'chat'

/** One downloadable model of `resources/models/catalog.json`. */
export type CatalogModel = {
  /** Stable id, used on the command line (`npm run setup:model -- --model ID`). */
  id: string
  name: string
  description: string
  licence: string
  licenceUrl: string
  /** Exact size of the file in bytes, as published with the checksum. */
  sizeBytes: number
  /** Download URL, pinned to a revision so that the checksum stays true. */
  url: string
  /** File name in `<data folder>/models/`. */
  fileName: string
  /** SHA-256 of the file, lower-case hex; the download is checked against it before it is used. */
  sha256: string
  /** Where the checksum was published (the file is not hashed by us before release). */
  checksumSource: string
  form: PromptForm
  /** Tokens the model was trained to see at once. */
  trainContext: number
  /** Memory the model needs with the default context, bytes (weights + context + working buffers). */
  ramBytes: number
  /** The model offered first on a new computer. */
  recommended?: boolean
}

/** A GGUF file the built-in engine can run, as its header describes it. */
export type InstalledModel = {
  /** Absolute path. */
  file: string
  /** The model's own name from its header, else the file name. */
  name: string
  sizeBytes: number
  architecture: string
  form: PromptForm
  trainContext: number | null
  /** The catalog entry this file was downloaded as, when it was. */
  catalogId: string | null
}

/** What the built-in endpoint can do now. */
export type BuiltinModelState =
  | { state: 'ready'; model: InstalledModel }
  /** No model file is chosen or found: the welcome screen offers the download. */
  | { state: 'missing'; message: string }
  /** The chosen file cannot be used (gone, cut short, not a language model, …). */
  | { state: 'invalid'; file: string; message: string }

/** A download of a catalog model, as the UI shows it. */
export type ModelDownload = {
  id: string
  state: 'downloading' | 'paused' | 'verifying' | 'done' | 'failed' | 'cancelled'
  receivedBytes: number
  totalBytes: number
  /** Recent speed; 0 while paused. */
  bytesPerSecond: number
  /** Estimated from the recent speed; null when unknown. */
  secondsLeft: number | null
  /** Why it stopped, when it failed. */
  error?: AppError
}

/** The built-in model's engine as the settings show it: whether it runs, where, and anything to know about it. */
export type EngineView = {
  state: 'stopped' | 'starting' | 'loading' | 'ready' | 'busy'
  /** The model it holds, once loaded. */
  model: string | null
  /** 'cpu', or the GPU backend ('metal', 'cuda', 'vulkan'); null before the model is loaded. */
  backend: string | null
  /** Layers offloaded to the GPU, of `layers`. */
  gpuLayers: number | null
  layers: number | null
  threads: number | null
  /** Samples decoded side by side. */
  sequences: number | null
  /** Why the CPU runs it although the GPU was allowed, or that the GPU failed and the CPU took over. */
  note: string | null
}

/** Everything the model offer on the welcome screen and the built-in endpoint's settings show. */
export type LocalModelsView = {
  catalog: (CatalogModel & { installed: boolean })[]
  installed: InstalledModel[]
  builtin: BuiltinModelState
  modelsDir: string
  /** Free space where models are stored, bytes; null when it cannot be read. */
  freeDiskBytes: number | null
  totalMemoryBytes: number
  freeMemoryBytes: number
  /** Physical CPU cores: the default thread count. */
  physicalCores: number
  downloads: ModelDownload[]
  engine: EngineView
}
