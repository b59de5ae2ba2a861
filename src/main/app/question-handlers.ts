/**
 * Handlers of the question and endpoint channels. Plain TypeScript: compose.ts supplies the workspace's
 * tables, the endpoint registry, the secret store, the executor and the event bus.
 */

import { randomUUID } from 'node:crypto'
import type { AskProgress, AskSummary, EndpointView } from '../../shared/ask'
import type { Handlers } from '../../shared/api'
import type { EndpointConfig } from '../../shared/model'
import type { AppError, Result } from '../../shared/result'
import { fail, ok } from '../../shared/result'
import type { ParsedTable } from '../../shared/table'
import type { ResponseCache, SecretStore } from '../services/model'
import { ModelClient } from '../services/model'
import { ask, warmFor } from '../services/pipeline'
import type { Executor } from '../services/python/types'
import type { EndpointRegistry } from '../services/settings'
import type { BuiltinBackend } from '../services/model/builtin'

export type QuestionChannel =
  'question:ask' | 'question:cancel' | 'endpoints:list' | 'endpoints:save' | 'endpoints:delete' | 'endpoints:test' | 'endpoints:models'
export type QuestionHandlers = Pick<Handlers, QuestionChannel>

export type QuestionHandlerDeps = {
  /**
   * An open table by workspace id, with its display name, and the id the executor already holds its
   * payload under (the workspace's own, loaded when it opened), when it does.
   */
  table: (id: string) => { name: string; table: ParsedTable; tableId?: string } | undefined
  registry: EndpointRegistry
  secrets: SecretStore
  /** Runs the candidate programs (the sandboxed Pyodide executor in the app). */
  executor: Executor
  events: { emit(event: 'question:progress', payload: AskProgress): void }
  /** Model replies are cached here when given. */
  cache?: ResponseCache
  /** The engine of the built-in endpoint; without it, that endpoint answers that it is unavailable. */
  builtin?: BuiltinBackend
  /** Called with every finished question (e.g. to save it to history). */
  onAnswered?: (summary: AskSummary) => void
}

/** Questions answered at once; more wait for a clear message instead of queueing silently. */
const MAX_RUNNING = 4

/** The history entry of a question that produced no summary of its own (model unreachable, no code, …). */
function failedSummary(
  askId: string,
  question: string,
  config: EndpointConfig,
  executor: Executor['kind'],
  problem: AppError,
  started: number
): AskSummary {
  const totalMs = Date.now() - started
  return {
    askId,
    question,
    answer: null,
    problem,
    program: null,
    chosen: null,
    candidates: [],
    selection: null,
    qaCalls: 0,
    promptTokens: 0,
    promptVersion: 0,
    kind: 'relational',
    executor,
    endpoint: { name: config.name, model: config.model, api: config.api },
    notes: [],
    timings: { promptMs: 0, generateMs: 0, executeMs: 0, totalMs }
  }
}

export function createQuestionHandlers(deps: QuestionHandlerDeps): QuestionHandlers {
  const running = new Map<string, AbortController>()

  const clientFor = (config: EndpointConfig): ModelClient =>
    new ModelClient(config, {
      secrets: deps.secrets,
      ...(deps.cache === undefined ? {} : { cache: deps.cache }),
      ...(deps.builtin === undefined ? {} : { builtin: deps.builtin })
    })

  const endpoint = (id: string | undefined): Result<EndpointConfig> => {
    const chosen = id ?? deps.registry.defaultId()
    if (chosen === null || chosen === undefined) return fail('bad-input', 'No model endpoint is set up. Add one in Settings › Endpoints.')
    if (chosen === 'builtin') {
      const state = deps.registry.builtinState()
      if (state !== null && state.state !== 'ready')
        return fail(state.state === 'missing' ? 'model-not-found' : 'model-file', state.message)
    }
    const config = deps.registry.get(chosen)
    return config === undefined ? fail('not-found', 'That model endpoint no longer exists.') : ok(config)
  }

  const view = async (id: string): Promise<Result<EndpointView>> => {
    const found = (await deps.registry.views()).find((e) => e.id === id)
    return found === undefined ? fail('not-found', 'That model endpoint no longer exists.') : ok(found)
  }

  return {
    'question:ask': async (request) => {
      if (typeof request !== 'object' || request === null || !Array.isArray(request.tableIds))
        return fail('bad-input', 'Expected table ids and a question.')
      if (typeof request.question !== 'string') return fail('bad-input', 'The question must be text.')
      const tables = []
      for (const id of request.tableIds) {
        const table = deps.table(id)
        if (table === undefined) return fail('not-found', 'A table of this question is no longer open.')
        tables.push(table)
      }
      const config = endpoint(request.endpointId)
      if (!config.ok) return config
      const qaConfig = request.qaEndpointId === undefined ? config : endpoint(request.qaEndpointId)
      if (!qaConfig.ok) return qaConfig
      if (running.size >= MAX_RUNNING)
        return fail('bad-input', `${MAX_RUNNING} questions are already being answered; wait for one to finish or cancel it.`)
      const askId = typeof request.askId === 'string' && request.askId !== '' ? request.askId : randomUUID()
      if (running.has(askId)) return fail('bad-input', 'A question with this id is already being answered.')
      const controller = new AbortController()
      const started = Date.now()
      running.set(askId, controller)
      try {
        const client = clientFor(config.value)
        const result = await ask(
          {
            askId,
            tables,
            question: request.question,
            options: request.options ?? {},
            signal: controller.signal,
            onProgress: (e) => deps.events.emit('question:progress', e)
          },
          { client, qaClient: qaConfig.value.id === config.value.id ? client : clientFor(qaConfig.value), executor: deps.executor }
        )
        // A question that failed is history too: the user sees what was asked and why it failed.
        deps.onAnswered?.(
          result.ok ? result.value : failedSummary(askId, request.question, config.value, deps.executor.kind, result.error, started)
        )
        return result
      } catch (error) {
        const failure = fail<AskSummary>(
          'internal',
          'Answering the question failed unexpectedly.',
          error instanceof Error ? (error.stack ?? error.message) : String(error)
        )
        if (!failure.ok) deps.onAnswered?.(failedSummary(askId, request.question, config.value, deps.executor.kind, failure.error, started))
        return failure
      } finally {
        running.delete(askId)
      }
    },
    'question:cancel': (request) => {
      const controller = running.get(request.askId)
      if (controller === undefined) return Promise.resolve(fail('not-found', 'That question is not being answered any more.'))
      controller.abort()
      return Promise.resolve(ok(null))
    },
    'endpoints:list': async () => ok(await deps.registry.views()),
    'endpoints:save': async (request) => {
      const saved = await deps.registry.save(request.endpoint, request.apiKey)
      if (!saved.ok) return saved
      if (request.makeDefault === true) deps.registry.setDefault(saved.value.id)
      return view(saved.value.id)
    },
    'endpoints:delete': (request) => deps.registry.delete(request.id),
    'endpoints:test': async (request) => {
      const config = endpoint(request.id)
      if (!config.ok) return config
      return clientFor(config.value).testConnection()
    },
    'endpoints:models': async (request) => {
      const config = endpoint(request.id)
      if (!config.ok) return config
      return clientFor(config.value).listModels()
    }
  }
}

/**
 * Gets the default endpoint ready for questions about tables that have just opened, when it is the
 * built-in model (others have nothing to prepare): its engine loads the model and reads the prompt's fixed
 * part for their kind in the background. A failure here is not the user's concern until they ask; the
 * question then says what is wrong.
 */
export function createWarmer(
  deps: Pick<QuestionHandlerDeps, 'registry' | 'secrets' | 'builtin'>
): (tables: { name: string; table: ParsedTable }[]) => void {
  return (tables) => {
    const id = deps.registry.defaultId()
    if (id !== 'builtin' || deps.builtin === undefined || tables.length === 0) return
    if (deps.registry.builtinState()?.state !== 'ready') return
    const config = deps.registry.get(id)
    if (config === undefined) return
    const client = new ModelClient(config, { secrets: deps.secrets, builtin: deps.builtin })
    // The first table of what opened is the one shown: its kind is the likely first question's.
    warmFor(tables.slice(0, 1), client).then(
      (r) => {
        if (!r.ok && r.error.code !== 'cancelled') console.error(`The built-in model could not get ready: ${r.error.message}`)
      },
      (error: unknown) => console.error('The built-in model could not get ready:', error)
    )
  }
}
