/**
 * The model client of a command-line run (`npm run ask`, `npm run eval`): the built-in model when no
 * endpoint is named (or `--endpoint builtin`), a named endpoint from the settings in the data folder, or an
 * ad-hoc one from a base URL and a model name. The built-in model runs in a forked engine process that
 * `close()` stops. The API key comes from
 * an environment variable when one is named (or TABLEQA_API_KEY is set), else from the key file beside
 * the settings. Samples are cached in `<dataDir>/model-cache` when asked.
 */

import { join } from 'node:path'
import type { ApiKind, EndpointConfig } from '../../src/shared/model'
import type { Result } from '../../src/shared/result'
import { fail, ok } from '../../src/shared/result'
import type { SecretStore } from '../../src/main/services/model'
import { MemorySecretStore, ModelClient, ResponseCache } from '../../src/main/services/model'
import { BUILTIN_ID, ENDPOINT_DEFAULTS, EndpointRegistry, SETTINGS_STORE } from '../../src/main/services/settings'
import { engineStateDir, LocalModels, nodeEngineSpawner } from '../../src/main/services/local-model'
import { EngineHost } from '../../src/main/services/local-model/engine-host'
import { recommendedModel } from '../../src/main/services/local-model/catalog'
import { formatBytes } from '../../src/main/services/local-model/hardware'
import { FileSecretStore, localKeyCipher } from '../../src/main/services/store/secret-file'
import { openFileStore } from '../../src/main/services/store/store'

export const API_KINDS: readonly ApiKind[] = ['chat', 'completions', 'responses']
const DEFAULT_KEY_VAR = 'TABLEQA_API_KEY'
const CLI_KEY_REF = 'cli'

/** Which endpoint to use, as the command line gives it. */
export type EndpointChoice = {
  /** A configured endpoint, by id or name. */
  endpoint?: string
  baseUrl?: string
  model?: string
  /** For `baseUrl`: the API the server speaks. Default `chat`. */
  api?: ApiKind
  /** The environment variable holding the API key. */
  apiKeyEnv?: string
  /** Overrides the endpoint's prompt token budget. */
  promptTokenBudget?: number
}

export type ClientSetup = {
  dataDir: string
  /** Read and write samples in `<dataDir>/model-cache`. */
  cache: boolean
  /**
   * Refuse a named endpoint whose stored key is missing now, rather than let each request fail (a batch
   * run would log every question as failed). Default false: the request then fails as unauthorized.
   */
  keyRequired?: boolean
  env?: Record<string, string | undefined>
}

export type OpenedClient = {
  client: ModelClient
  config: EndpointConfig
  /** Where the API key came from, for messages: an environment variable, the key file, or none. */
  key: string
  cache: ResponseCache | null
  /** Stops what the client started (the built-in model's engine process). */
  close: () => Promise<void>
}

/** A client for the built-in endpoint of `dataDir`, with its own engine process. */
function openBuiltin(registry: EndpointRegistry, models: LocalModels, budget?: number): Result<OpenedClient> {
  const state = registry.builtinState()
  if (state === null || state.state !== 'ready') {
    const why = state?.state === 'invalid' ? state.message : `No built-in model is installed in ${models.dir}.`
    const model = recommendedModel(models.catalog)
    return fail(
      'model-not-found',
      `${why} Install one with \`npm run setup:model -- --model ${model.id}\` (${formatBytes(model.sizeBytes)} download) or \`npm run setup:model -- --file PATH\`, or name a server with --endpoint NAME or --base-url URL --model NAME.`
    )
  }
  const config = registry.get(BUILTIN_ID)
  if (config === undefined) return fail('internal', 'The built-in endpoint is missing.')
  if (budget !== undefined) config.promptTokenBudget = budget
  const host = new EngineHost(nodeEngineSpawner())
  const client = new ModelClient(config, { secrets: new MemorySecretStore(), builtin: { host, stateDir: engineStateDir(models.dataDir) } })
  return ok({ client, config, key: 'none', cache: null, close: () => host.close() })
}

export async function openModelClient(choice: EndpointChoice, setup: ClientSetup): Promise<Result<OpenedClient>> {
  const env = setup.env ?? process.env
  const keyVar = choice.apiKeyEnv ?? DEFAULT_KEY_VAR
  const envKey = env[keyVar] ?? ''
  if (choice.apiKeyEnv !== undefined && envKey === '') return fail('bad-input', `The environment variable ${keyVar} is not set.`)
  let config: EndpointConfig
  let secrets: SecretStore = new MemorySecretStore()
  let key = 'none'
  if (choice.endpoint === undefined && choice.baseUrl === undefined && choice.model === undefined) {
    const models = new LocalModels(setup.dataDir)
    const registry = new EndpointRegistry(openFileStore(setup.dataDir, SETTINGS_STORE).store, new MemorySecretStore(), models)
    return openBuiltin(registry, models, choice.promptTokenBudget)
  }
  if (choice.endpoint !== undefined) {
    const models = new LocalModels(setup.dataDir)
    const fileSecrets = (): SecretStore => new FileSecretStore(join(setup.dataDir, 'secrets.json'), localKeyCipher(setup.dataDir))
    const registry = new EndpointRegistry(openFileStore(setup.dataDir, SETTINGS_STORE).store, new MemorySecretStore(), models)
    const found = registry.find(choice.endpoint)
    if (found?.kind === 'builtin') return openBuiltin(registry, models, choice.promptTokenBudget)
    if (found === undefined) {
      const names = registry.list().map((e) => e.name)
      return fail(
        'not-found',
        `No endpoint named '${choice.endpoint}' in ${setup.dataDir}${names.length > 0 ? ` (there are: ${names.join(', ')})` : ' (none are configured)'}.`
      )
    }
    config = { ...found }
    if (envKey !== '') {
      config.apiKeyRef = CLI_KEY_REF
      key = keyVar
    } else if (found.apiKeyRef !== undefined) {
      secrets = fileSecrets()
      let stored: string | null
      try {
        stored = await secrets.get(found.apiKeyRef)
      } catch (error) {
        return fail(
          'unauthorized',
          `The key of '${found.name}' could not be read from ${join(setup.dataDir, 'secrets.json')} (${error instanceof Error ? error.message : String(error)}). Give it with --api-key-env VAR.`
        )
      }
      if (stored === null || stored === '') {
        if (setup.keyRequired === true)
          return fail('unauthorized', `No API key is stored for '${found.name}'. Give it with --api-key-env VAR.`)
      } else {
        key = 'the key file'
      }
    }
  } else {
    if (choice.baseUrl === undefined || choice.model === undefined)
      return fail('bad-input', 'Give --endpoint NAME, or --base-url URL and --model NAME.')
    let host: string
    try {
      host = new URL(choice.baseUrl).host
    } catch {
      return fail('bad-input', `--base-url ${choice.baseUrl} is not a URL.`)
    }
    config = { id: CLI_KEY_REF, name: host, baseUrl: choice.baseUrl, model: choice.model, api: choice.api ?? 'chat', ...ENDPOINT_DEFAULTS }
    if (envKey !== '') {
      config.apiKeyRef = CLI_KEY_REF
      key = keyVar
    }
  }
  if (config.apiKeyRef === CLI_KEY_REF) await secrets.set(CLI_KEY_REF, envKey)
  if (choice.promptTokenBudget !== undefined) config.promptTokenBudget = choice.promptTokenBudget
  const cache = setup.cache ? new ResponseCache(join(setup.dataDir, 'model-cache')) : null
  const client = new ModelClient(config, { secrets, ...(cache === null ? {} : { cache }) })
  return ok({ client, config, key, cache, close: () => Promise.resolve() })
}
