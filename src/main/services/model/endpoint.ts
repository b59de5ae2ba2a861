/**
 * The client of one configured model endpoint: list models, test the connection, and sample n
 * completions with log-probabilities where the server gives them. Sampling uses `n` where the server
 * honours it and repeated requests elsewhere (always for the responses API).
 */

import { OpenAI } from 'openai'
import type { ChatMessage, EndpointConfig, EnginePrefixStats, EngineRequestStats, Sample, SampleProgress } from '../../../shared/model'
import type { Result } from '../../../shared/result'
import { fail, ok } from '../../../shared/result'
import type { ResponseCache } from './cache'
import { cacheKey } from './cache'
import type { CallContext, RetryPolicy } from './http'
import { BadReplyError, cappedFetch, defaultRetryPolicy, notOpenAiMessage, withRetries } from './http'
import type { Generation, Omitted } from './request'
import { buildBody, requestOnce } from './request'
import type { SecretStore } from './secrets'
import type { BuiltinBackend } from './builtin'
import { builtinConnection, sampleBuiltin, warmBuiltin } from './builtin'

type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>

export type ModelClientOptions = {
  secrets: SecretStore
  /** Samples are read from and written to it when given. */
  cache?: ResponseCache
  retry?: Partial<Omit<RetryPolicy, 'maxRetries'>>
  /** Largest reply body read, bytes. Default 8 MiB. */
  maxReplyBytes?: number
  fetch?: FetchLike
  /** The engine that runs `builtin` endpoints; without it they answer that the built-in model is unavailable. */
  builtin?: BuiltinBackend
}

export type SampleRequest = {
  /** A raw prompt (completions) or messages (chat, responses); either converts to the other. */
  prompt?: string
  messages?: ChatMessage[]
  /**
   * How much of the prompt is the same for every question of a kind (leading messages, or characters of
   * `prompt`): the built-in engine keeps its evaluated state and reads it once. HTTP endpoints ignore it.
   */
  fixed?: number
  /**
   * The start of the model's reply (chat form), given to it: the built-in engine continues from there.
   * HTTP endpoints ignore it, and a caller must not ask for it of them.
   */
  prefill?: string
  n: number
  temperature: number
  maxTokens: number
  stop?: string[]
  /** Ask for log-probabilities. Default true. */
  logprobs?: boolean
  /** Stream replies (progress per token). Default false. */
  stream?: boolean
  signal?: AbortSignal
  onProgress?: (event: SampleProgress) => void
  /**
   * Each sample as soon as it is in (from the cache or the server), before the others: callers start
   * working on it while the rest are generated. `index` is its place in the result.
   */
  onSample?: (index: number, sample: Sample) => void
  /** Where the built-in engine's time went (built-in endpoints only), once all samples are in. */
  onEngineStats?: (stats: EngineRequestStats) => void
  /** Requests in flight at once when sampling by repeated requests. Default 2. */
  concurrency?: number
  /** Use the response cache, when the client has one. Default true. */
  useCache?: boolean
}

export type ConnectionReport = {
  models: string[]
  /** Whether the configured model is among the listed ones. */
  modelListed: boolean
  message: string
}

const DEFAULT_MAX_REPLY_BYTES = 8 * 1024 * 1024
const MAX_N = 64

export class ModelClient {
  private readonly policy: RetryPolicy

  constructor(
    readonly config: EndpointConfig,
    private readonly options: ModelClientOptions
  ) {
    const given = Object.fromEntries(Object.entries(options.retry ?? {}).filter(([, v]) => v !== undefined))
    this.policy = { ...defaultRetryPolicy, ...given, maxRetries: Math.max(0, config.maxRetries) }
  }

  async listModels(signal?: AbortSignal): Promise<Result<string[]>> {
    if (this.config.kind === 'builtin') {
      const report = builtinConnection(this.config)
      return report.ok ? ok(report.value.models) : report
    }
    const session = await this.open()
    if (!session.ok) return session
    const { client, context } = session.value
    return withRetries(
      async (attemptSignal) => {
        const response = await client.get('/models', { signal: attemptSignal }).asResponse()
        const type = (response.headers.get('content-type') ?? '').split(';')[0] ?? ''
        if (!type.includes('json'))
          throw new BadReplyError(notOpenAiMessage(this.config.baseUrl, `it answered with ${type === '' ? 'no content type' : type}`))
        const body: unknown = await response.json()
        const data = typeof body === 'object' && body !== null && 'data' in body ? body.data : undefined
        if (!Array.isArray(data)) throw new BadReplyError(notOpenAiMessage(this.config.baseUrl, 'its model list has no "data"'))
        return data.map((m: unknown) => (typeof m === 'object' && m !== null && 'id' in m ? String(m.id) : '')).filter((id) => id !== '')
      },
      { policy: this.policy, timeoutMs: this.config.timeoutMs, ...(signal === undefined ? {} : { signal }), context }
    )
  }

  /** Checks that the base URL is an OpenAI-compatible API and says whether it lists the model. */
  async testConnection(signal?: AbortSignal): Promise<Result<ConnectionReport>> {
    if (this.config.kind === 'builtin') return builtinConnection(this.config)
    const listed = await this.listModels(signal)
    if (!listed.ok) {
      const { error } = listed
      if (error.code === 'model-http' || error.code === 'model-not-found') {
        return fail(
          'model-http',
          error.message.includes('OpenAI-compatible') ? error.message : notOpenAiMessage(this.config.baseUrl, error.message),
          error.detail
        )
      }
      return listed
    }
    const models = listed.value
    const modelListed = models.includes(this.config.model)
    const message = modelListed
      ? `Connected: ${this.config.baseUrl} serves ${this.config.model}.`
      : `Connected, but the server does not list '${this.config.model}'${models.length > 0 ? ` (it lists ${models.slice(0, 5).join(', ')}${models.length > 5 ? ', …' : ''})` : ''}.`
    return ok({ models, modelListed, message })
  }

  /**
   * Makes the endpoint ready for questions with this prompt's fixed part: the built-in engine loads its
   * model and reads (or loads from disk) the fixed part in the background, making way for any question
   * that arrives meanwhile. Other endpoints have nothing to prepare (null).
   */
  warm(request: Pick<SampleRequest, 'prompt' | 'messages' | 'fixed' | 'signal'>): Promise<Result<EnginePrefixStats | null>> {
    if (this.config.kind !== 'builtin') return Promise.resolve(ok(null))
    return warmBuiltin(this.config, this.options.builtin, request)
  }

  async sample(request: SampleRequest): Promise<Result<Sample[]>> {
    const invalid = validate(request)
    if (invalid !== null) return fail('bad-input', invalid)
    if (this.config.kind === 'builtin') return sampleBuiltin(this.config, this.options.builtin, request)
    const session = await this.open()
    if (!session.ok) return session
    const { client, context } = session.value
    const { config } = this
    const n = request.n
    const generation: Generation = {
      prompt: request.prompt ?? null,
      messages: request.messages ?? null,
      temperature: request.temperature,
      maxTokens: request.maxTokens,
      stop: request.stop ?? [],
      logprobs: request.logprobs ?? true,
      stream: request.stream ?? false
    }
    const cache = request.useCache === false ? undefined : this.options.cache
    const keyOf = (sampleIndex: number): string =>
      cacheKey({
        baseUrl: config.baseUrl,
        model: config.model,
        api: config.api,
        prompt: generation.prompt,
        messages: generation.messages,
        n,
        temperature: generation.temperature,
        maxTokens: generation.maxTokens,
        stop: generation.stop,
        logprobs: generation.logprobs,
        sampleIndex
      })

    const samples: (Sample | null)[] = Array.from({ length: n }, () => null)
    let done = 0
    const report = (): void => request.onProgress?.({ kind: 'sample', done, total: n })
    if (cache !== undefined) {
      for (let i = 0; i < n; i += 1) {
        const cached = await cache.get(keyOf(i))
        samples[i] = cached
        if (cached === null) continue
        done += 1
        request.onSample?.(i, cached)
      }
      if (done > 0) report()
    }
    const store = async (index: number, sample: Sample): Promise<void> => {
      samples[index] = sample
      done += 1
      report()
      request.onSample?.(index, sample)
      // The cache only saves work; a full disk must not fail a run that got its samples.
      if (cache !== undefined) await cache.set(keyOf(index), sample).catch(() => undefined)
    }

    const omitted: Omitted = { temperature: false, logprobs: false }
    let batched = config.api !== 'responses' && config.supportsN !== false
    const send = async (indices: number[]): Promise<Result<Sample[]>> => {
      for (;;) {
        const body = buildBody(config.api, config.model, generation, indices.length, omitted)
        const result = await withRetries(
          (signal) =>
            requestOnce(client, config.api, body, indices.length, signal, (choice, chars) =>
              request.onProgress?.({ kind: 'text', index: indices[choice] ?? choice, chars })
            ),
          { policy: this.policy, timeoutMs: config.timeoutMs, ...(request.signal === undefined ? {} : { signal: request.signal }), context }
        )
        if (result.ok || result.error.code !== 'model-http') return result
        // Servers for reasoning models refuse some sampling parameters; leave the refused one out once.
        const said = `${result.error.message} ${result.error.detail ?? ''}`
        if (!omitted.temperature && /temperature/i.test(said)) omitted.temperature = true
        else if (!omitted.logprobs && /logprob|include/i.test(said)) omitted.logprobs = true
        else if (indices.length > 1 && /(\bn\b|'n'|"n").{0,40}(support|must be|only|exceed|between)/i.test(said)) return ok([])
        else return result
      }
    }

    while (batched) {
      const missing = indicesOf(samples)
      if (missing.length === 0) break
      const result = await send(missing)
      if (!result.ok) return result
      for (const [i, sample] of result.value.slice(0, missing.length).entries()) await store(missing[i] as number, sample)
      // Fewer choices than asked: the server ignores `n`; sample the rest one request at a time.
      if (result.value.length < missing.length) batched = false
    }

    const queue = indicesOf(samples)
    let failure: Result<Sample[]> | null = null
    const worker = async (): Promise<void> => {
      for (let index = queue.shift(); index !== undefined && failure === null; index = queue.shift()) {
        const result = await send([index])
        if (!result.ok) failure = result
        else if (result.value[0] === undefined) failure = fail('model-bad-reply', 'The model server sent a reply with no choices.')
        else await store(index, result.value[0])
      }
    }
    const workers = Math.max(1, Math.min(request.concurrency ?? 2, queue.length))
    await Promise.all(Array.from({ length: workers }, worker))
    if (failure !== null) return failure
    return ok(samples.filter((s): s is Sample => s !== null))
  }

  private async open(): Promise<Result<{ client: OpenAI; context: CallContext }>> {
    const { config } = this
    let apiKey: string | null = null
    if (config.apiKeyRef !== undefined && config.apiKeyRef !== '') {
      apiKey = await this.options.secrets.get(config.apiKeyRef)
      if (apiKey === null || apiKey === '')
        return fail('unauthorized', `No API key is stored for the endpoint '${config.name}'. Enter it in the endpoint settings.`)
    }
    let url: URL
    try {
      url = new URL(config.baseUrl)
    } catch {
      return fail('bad-input', `'${config.baseUrl}' is not a URL.`)
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return fail('bad-input', `'${config.baseUrl}' is not an http(s) URL.`)
    const client = new OpenAI({
      baseURL: config.baseUrl,
      // Never let the SDK fall back to OPENAI_API_KEY from the environment and send it to another server.
      apiKey: apiKey ?? 'none',
      organization: null,
      project: null,
      webhookSecret: null,
      timeout: config.timeoutMs,
      maxRetries: 0,
      logLevel: 'off',
      fetch: cappedFetch(this.options.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES, this.options.fetch)
    })
    return ok({ client, context: { baseUrl: config.baseUrl, model: config.model, secrets: apiKey === null ? [] : [apiKey] } })
  }
}

function indicesOf(samples: (Sample | null)[]): number[] {
  return samples.flatMap((s, i) => (s === null ? [i] : []))
}

function validate(request: SampleRequest): string | null {
  if ((request.prompt === undefined) === (request.messages === undefined)) return 'Give either a prompt or messages.'
  if (!Number.isInteger(request.n) || request.n < 1 || request.n > MAX_N) return `n must be a whole number from 1 to ${MAX_N}.`
  if (!Number.isFinite(request.temperature) || request.temperature < 0 || request.temperature > 2)
    return 'temperature must be between 0 and 2.'
  if (!Number.isInteger(request.maxTokens) || request.maxTokens < 1) return 'maxTokens must be a positive whole number.'
  return null
}
