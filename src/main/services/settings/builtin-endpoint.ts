/**
 * The built-in endpoint ("On this computer") as an endpoint: its settings live in the settings store
 * under `builtin`, its model comes from LocalModels, and its config is built fresh each time so that a
 * download or a new file is seen at once.
 */

import { pathToFileURL } from 'node:url'
import type { BuiltinEndpointDraft } from '../../../shared/ask'
import type { BuiltinSettings, EndpointConfig } from '../../../shared/model'
import { fail, ok, type Result } from '../../../shared/result'
import { DEFAULT_CONTEXT, type LocalModels } from '../local-model/models'
import type { KeyValueStore } from '../store/store'

export const BUILTIN_ID = 'builtin'
export const BUILTIN_NAME = 'On this computer'
const SETTINGS_KEY = 'builtin'
/** Tokens the prompt leaves for the reply and for the prompt estimate's error (characters / 3.5). */
const REPLY_TOKENS = 600
const MIN_CONTEXT = 1024
const MAX_CONTEXT = 131_072

export function isBuiltinName(lowerCaseName: string): boolean {
  return lowerCaseName === BUILTIN_ID || lowerCaseName === BUILTIN_NAME.toLowerCase()
}

export function builtinSettings(store: KeyValueStore): BuiltinSettings {
  const raw = store.get<Partial<BuiltinSettings>>(SETTINGS_KEY) ?? {}
  const int = (v: unknown, fallback: number): number => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : fallback)
  return {
    modelFile: typeof raw.modelFile === 'string' && raw.modelFile !== '' ? raw.modelFile : null,
    contextSize: int(raw.contextSize, DEFAULT_CONTEXT) || DEFAULT_CONTEXT,
    threads: int(raw.threads, 0),
    gpu: raw.gpu === 'cpu' ? 'cpu' : 'auto'
  }
}

/** Prompt tokens that fit a context: the reply's room left out, and a fifth kept back for the estimate's error. */
export function promptBudget(contextSize: number): number {
  return Math.max(500, Math.floor((contextSize - REPLY_TOKENS) * 0.8))
}

export function builtinConfig(store: KeyValueStore, models: LocalModels): EndpointConfig {
  const settings = builtinSettings(store)
  const state = models.resolve(settings)
  const model = state.state === 'ready' ? state.model : null
  const contextSize = Math.min(settings.contextSize, model?.trainContext ?? settings.contextSize)
  return {
    id: BUILTIN_ID,
    kind: 'builtin',
    name: BUILTIN_NAME,
    baseUrl: model === null ? 'builtin:' : pathToFileURL(model.file).href,
    model: model?.name ?? 'no model yet',
    api: model?.form === 'completion' ? 'completions' : 'chat',
    // A CPU can take minutes over n samples of a large model; the engine is stopped by cancelling.
    timeoutMs: 20 * 60_000,
    maxRetries: 0,
    promptTokenBudget: promptBudget(contextSize),
    builtin: { modelFile: model?.file ?? null, contextSize, threads: settings.threads, gpu: settings.gpu ?? 'auto' }
  }
}

/** Saves the fields the draft gives; a model file must read as a language model. */
export function saveBuiltin(store: KeyValueStore, models: LocalModels, draft: BuiltinEndpointDraft): Result<EndpointConfig> {
  const next = { ...builtinSettings(store) }
  const given = draft.builtin
  if (given.contextSize !== undefined) {
    if (!Number.isInteger(given.contextSize) || given.contextSize < MIN_CONTEXT || given.contextSize > MAX_CONTEXT)
      return fail(
        'bad-input',
        `The context size must be a whole number of tokens from ${MIN_CONTEXT} to ${MAX_CONTEXT.toLocaleString('en-US')}.`
      )
    next.contextSize = given.contextSize
  }
  if (given.threads !== undefined) {
    if (!Number.isInteger(given.threads) || given.threads < 0 || given.threads > 256)
      return fail('bad-input', 'Threads must be a whole number from 0 (one per physical core) to 256.')
    next.threads = given.threads
  }
  if (given.gpu !== undefined) {
    if (given.gpu !== 'auto' && given.gpu !== 'cpu')
      return fail('bad-input', "Where the model runs must be 'auto' (the GPU when there is one) or 'cpu'.")
    next.gpu = given.gpu
  }
  if (given.modelFile !== undefined) {
    if (given.modelFile !== null && given.modelFile !== '') {
      const model = models.inspect(given.modelFile)
      if (!model.ok) return model
      next.modelFile = model.value.file
    } else next.modelFile = null
  }
  store.set(SETTINGS_KEY, next)
  return ok(builtinConfig(store, models))
}
