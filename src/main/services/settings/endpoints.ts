/**
 * The endpoint registry: model endpoints the user configured, kept in the settings store. API keys go to
 * the secret store under a reference (`endpoint:<id>`); the settings file never holds a key.
 */

import { randomUUID } from 'node:crypto'
import type { EndpointDraft, EndpointView, HttpEndpointDraft } from '../../../shared/ask'
import type { BuiltinModelState } from '../../../shared/local-model'
import type { ApiKind, EndpointConfig } from '../../../shared/model'
import type { Result } from '../../../shared/result'
import { fail, ok } from '../../../shared/result'
import type { SecretStore } from '../model'
import type { KeyValueStore } from '../store/store'
import type { LocalModels } from '../local-model/models'
import { BUILTIN_ID, builtinConfig, builtinSettings, isBuiltinName, saveBuiltin } from './builtin-endpoint'

const KEY = 'endpoints'
const DEFAULT_KEY = 'defaultEndpointId'
const API_KINDS: readonly ApiKind[] = ['completions', 'chat', 'responses']

export const ENDPOINT_DEFAULTS = { timeoutMs: 60_000, maxRetries: 2, promptTokenBudget: 6_000 } as const

export type { EndpointDraft, EndpointView } from '../../../shared/ask'

export function validateEndpoint(draft: HttpEndpointDraft): string | null {
  if (typeof draft.name !== 'string' || draft.name.trim() === '') return 'Give the endpoint a name.'
  if (draft.name.length > 100) return 'The endpoint name is longer than 100 characters.'
  let url: URL
  try {
    url = new URL(draft.baseUrl)
  } catch {
    return `'${String(draft.baseUrl)}' is not a URL; it usually looks like http://127.0.0.1:8000/v1.`
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `'${draft.baseUrl}' is not an http(s) URL.`
  if (url.username !== '' || url.password !== '') return 'Put the API key in the key field, not in the URL.'
  if (typeof draft.model !== 'string' || draft.model.trim() === '') return 'Name the model the server should run.'
  if (!API_KINDS.includes(draft.api)) return `The API must be one of ${API_KINDS.join(', ')}.`
  const positive = (v: unknown): boolean => v === undefined || (typeof v === 'number' && Number.isInteger(v) && v > 0)
  if (!positive(draft.timeoutMs)) return 'The timeout must be a positive whole number of milliseconds.'
  if (!(draft.maxRetries === undefined || (Number.isInteger(draft.maxRetries) && draft.maxRetries >= 0 && draft.maxRetries <= 10)))
    return 'Retries must be a whole number from 0 to 10.'
  if (!positive(draft.promptTokenBudget) || (draft.promptTokenBudget !== undefined && draft.promptTokenBudget < 500))
    return 'The prompt token budget must be at least 500.'
  return null
}

function isConfig(value: unknown): value is EndpointConfig {
  if (typeof value !== 'object' || value === null) return false
  const v = value as Record<string, unknown>
  return (
    typeof v['id'] === 'string' &&
    typeof v['name'] === 'string' &&
    typeof v['baseUrl'] === 'string' &&
    typeof v['model'] === 'string' &&
    API_KINDS.includes(v['api'] as ApiKind) &&
    typeof v['timeoutMs'] === 'number' &&
    typeof v['maxRetries'] === 'number' &&
    typeof v['promptTokenBudget'] === 'number'
  )
}

/**
 * The endpoints: with a LocalModels, the built-in one ("On this computer") first, then the
 * OpenAI-compatible endpoints the user added. The built-in endpoint is the default until another exists.
 */
export class EndpointRegistry {
  constructor(
    private readonly store: KeyValueStore,
    private readonly secrets: SecretStore,
    private readonly models?: LocalModels
  ) {}

  /** Stored OpenAI-compatible endpoints; entries that do not read as endpoints are skipped. */
  stored(): EndpointConfig[] {
    const raw = this.store.get<unknown>(KEY)
    return Array.isArray(raw) ? raw.filter(isConfig).filter((e) => e.id !== BUILTIN_ID) : []
  }

  /** Every endpoint: the built-in one (when this registry has local models) and the stored ones. */
  list(): EndpointConfig[] {
    return this.models === undefined ? this.stored() : [builtinConfig(this.store, this.models), ...this.stored()]
  }

  async views(): Promise<EndpointView[]> {
    const defaultId = this.defaultId()
    return Promise.all(
      this.list().map(async (e) => {
        const view: EndpointView = {
          ...e,
          hasKey: e.apiKeyRef !== undefined && ((await this.secrets.get(e.apiKeyRef)) ?? '') !== '',
          isDefault: e.id === defaultId
        }
        const state = e.kind === 'builtin' ? this.builtinState() : null
        if (state !== null) view.builtinState = state
        return view
      })
    )
  }

  /** Whether the built-in endpoint's model is ready; null when this registry has no built-in endpoint. */
  builtinState(): BuiltinModelState | null {
    return this.models === undefined ? null : this.models.resolve(builtinSettings(this.store))
  }

  get(id: string): EndpointConfig | undefined {
    return this.list().find((e) => e.id === id)
  }

  /** By id, else by name ignoring case ("builtin" also names the built-in endpoint). */
  find(idOrName: string): EndpointConfig | undefined {
    const all = this.list()
    const name = idOrName.trim().toLowerCase()
    return (
      all.find((e) => e.id === idOrName) ??
      all.find((e) => e.name.toLowerCase() === name) ??
      (isBuiltinName(name) ? all.find((e) => e.kind === 'builtin') : undefined)
    )
  }

  /** The chosen default; else the first added endpoint; else the built-in one. */
  defaultId(): string | null {
    const id = this.store.get<unknown>(DEFAULT_KEY)
    if (typeof id === 'string' && this.get(id) !== undefined) return id
    return this.stored()[0]?.id ?? (this.models === undefined ? null : BUILTIN_ID)
  }

  setDefault(id: string): Result<null> {
    if (this.get(id) === undefined) return fail('not-found', 'There is no endpoint with that id.')
    this.store.set(DEFAULT_KEY, id)
    return ok(null)
  }

  /**
   * Adds or updates an endpoint. `apiKey`: a string stores it in the secret store, null removes the stored
   * key, undefined keeps whatever is stored.
   */
  async save(draft: EndpointDraft, apiKey?: string | null): Promise<Result<EndpointConfig>> {
    if (draft.kind === 'builtin') {
      if (this.models === undefined) return fail('bad-input', 'The built-in model is not available here.')
      return saveBuiltin(this.store, this.models, draft)
    }
    const invalid = validateEndpoint(draft)
    if (invalid !== null) return fail('bad-input', invalid)
    if (draft.id === BUILTIN_ID) return fail('bad-input', 'That id belongs to the built-in endpoint.')
    const all = this.stored()
    const id = draft.id ?? randomUUID()
    const previous = all.find((e) => e.id === id)
    if (
      all.some((e) => e.id !== id && e.name.toLowerCase() === draft.name.trim().toLowerCase()) ||
      isBuiltinName(draft.name.trim().toLowerCase())
    )
      return fail('bad-input', `Another endpoint is already named '${draft.name.trim()}'.`)
    const ref = `endpoint:${id}`
    const config: EndpointConfig = {
      id,
      name: draft.name.trim(),
      baseUrl: draft.baseUrl.trim().replace(/\/+$/, ''),
      model: draft.model.trim(),
      api: draft.api,
      timeoutMs: draft.timeoutMs ?? previous?.timeoutMs ?? ENDPOINT_DEFAULTS.timeoutMs,
      maxRetries: draft.maxRetries ?? previous?.maxRetries ?? ENDPOINT_DEFAULTS.maxRetries,
      promptTokenBudget: draft.promptTokenBudget ?? previous?.promptTokenBudget ?? ENDPOINT_DEFAULTS.promptTokenBudget
    }
    if (draft.supportsN !== undefined) config.supportsN = draft.supportsN
    try {
      if (typeof apiKey === 'string' && apiKey.trim() !== '') await this.secrets.set(ref, apiKey.trim())
      else if (apiKey === null) await this.secrets.delete(ref)
    } catch (error) {
      return fail('store-error', 'The API key could not be stored.', error instanceof Error ? error.message : String(error))
    }
    const hasKey = ((await this.secrets.get(ref)) ?? '') !== ''
    if (hasKey) config.apiKeyRef = ref
    this.store.set(KEY, previous === undefined ? [...all, config] : all.map((e) => (e.id === id ? config : e)))
    return ok(config)
  }

  async delete(id: string): Promise<Result<null>> {
    if (id === BUILTIN_ID)
      return fail('bad-input', 'The built-in model cannot be removed. Add another endpoint and make it the default to stop using it.')
    const all = this.stored()
    const found = all.find((e) => e.id === id)
    if (found === undefined) return fail('not-found', 'There is no endpoint with that id.')
    if (found.apiKeyRef !== undefined) await this.secrets.delete(found.apiKeyRef)
    this.store.set(
      KEY,
      all.filter((e) => e.id !== id)
    )
    if (this.store.get<unknown>(DEFAULT_KEY) === id) this.store.set(DEFAULT_KEY, null)
    return ok(null)
  }
}
