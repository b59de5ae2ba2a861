import { randomUUID } from 'node:crypto'
import type { AppInfo, Handlers } from '../../shared/api'
import type { RunRecord } from '../../shared/python'
import type { EventBus } from './events'
import { fail, ok } from '../../shared/result'
import type { History } from '../services/history'
import type { SwitchableExecutor } from '../services/python/switchable'
import type { Executor } from '../services/python/types'
import type { KeyValueStore } from '../services/store/store'
import type { ExecutorChoice } from '../../shared/settings'
import { probePython } from '../services/python/cpython-channel'
import { createSettingsHandlers, defaultRunTimeout, withStoredQaTimeout } from './settings-handlers'
import type { PackageManager } from '../services/python/package-manager'
import { createPackageHandlers } from './package-handlers'
import type { Workspace } from '../services/workspace'
import { createTableHandlers, samplesDir, type OpenDialog } from './table-handlers'
import { createQuestionHandlers, createWarmer } from './question-handlers'
import { createSessionHandlers, storedKeys } from './session-handlers'
import { summarize, type SessionStore } from '../services/sessions'
import type { ResponseCache, SecretStore } from '../services/model'
import type { EndpointRegistry } from '../services/settings'
import type { BuiltinModel } from '../services/local-model'
import { createModelHandlers } from './model-handlers'

export type { OpenDialog } from './table-handlers'

export type AppServices = {
  info: AppInfo
  workspace: Workspace
  /** Runs programs; the user can switch it between the Pyodide sandbox and a local CPython. */
  executor: SwitchableExecutor
  /** The sandbox's package files (pandas): checked and fetched at start, and on request. */
  packages: PackageManager
  packageInfo: { officialUrl: string; pyodideVersion: string }
  createExecutor: (choice: ExecutorChoice) => Executor
  settingsStore: KeyValueStore
  history: History
  events: EventBus
  openDialog: OpenDialog | null
  /** Time limit of a run when neither the UI nor the settings give one. */
  defaultTimeoutMs: number
  endpoints: EndpointRegistry
  secrets: SecretStore
  cache: ResponseCache
  sessions: SessionStore
  /** The built-in model: models on disk, downloads, the engine process. */
  builtin: BuiltinModel
  pickModelFile: (() => Promise<string | null>) | null
}

const MAX_CODE_CHARS = 200_000
const MAX_TIMEOUT_MS = 10 * 60_000

/** The contract's implementation, free of Electron: ipc.ts and the web server both register these. */
export function createHandlers(services: AppServices): Handlers {
  const { workspace, executor, history, events } = services

  return {
    'app:info': () => Promise.resolve(services.info),
    ...createSettingsHandlers({
      store: services.settingsStore,
      executor,
      tables: () => workspace.list().map((t) => ({ tableId: t.id, payload: t.payload })),
      createExecutor: services.createExecutor,
      probe: probePython
    }),
    ...createPackageHandlers({ manager: services.packages, store: services.settingsStore, ...services.packageInfo }),
    ...createSessionHandlers({
      sessions: services.sessions,
      tables: createTableHandlers({
        workspace,
        executor,
        openDialog: services.openDialog,
        samplesDir: samplesDir(),
        onOpened: createWarmer({ registry: services.endpoints, secrets: services.secrets, builtin: services.builtin.backend() })
      }),
      openDialog: services.openDialog,
      events,
      knownSecrets: () => storedKeys(services.endpoints.list(), services.secrets)
    }),
    ...createQuestionHandlers({
      table: (id) => {
        const open = workspace.get(id)
        // The table handlers gave the executor this table's payload under its id when it opened.
        return open ? { name: open.summary.name, table: open.parsed, tableId: open.id } : undefined
      },
      registry: services.endpoints,
      secrets: services.secrets,
      builtin: services.builtin.backend(),
      executor: withStoredQaTimeout(executor, services.settingsStore),
      events,
      cache: services.cache,
      onAnswered: (summary) => {
        history.addQuestion(summary)
        events.emit('question:answered', { entry: summary, session: summarize(services.sessions.current()) })
      }
    }),
    ...createModelHandlers({ builtin: services.builtin, registry: services.endpoints, pickModelFile: services.pickModelFile }),
    'python:run': async (request) => {
      if (typeof request.code !== 'string' || request.code.trim() === '') return fail('bad-input', 'There is no code to run.')
      if (request.code.length > MAX_CODE_CHARS)
        return fail('bad-input', `The program is longer than ${MAX_CODE_CHARS.toLocaleString('en-US')} characters.`)
      const timeoutMs = Math.min(request.timeoutMs ?? defaultRunTimeout(services.settingsStore, services.defaultTimeoutMs), MAX_TIMEOUT_MS)
      const table = request.tableId === null ? null : workspace.get(request.tableId)
      if (request.tableId !== null && !table) return fail('not-found', 'That table is no longer open.')
      const runId = typeof request.runId === 'string' && request.runId !== '' ? request.runId : randomUUID()
      const startedAt = new Date().toISOString()
      const { result } = await executor.run({ runId, code: request.code, tableId: request.tableId, timeoutMs })
      const record: RunRecord = { id: runId, code: request.code, tableName: table?.summary.name ?? null, startedAt, result }
      try {
        const count = history.add(record)
        events.emit('history:changed', { count })
      } catch (error) {
        return fail('store-error', 'The run finished but could not be saved to history.', String(error))
      }
      return ok(record)
    },
    'python:stop': async (request) => {
      const stopped = await executor.stop(request.runId)
      return stopped ? ok(null) : fail('not-found', 'That run is not going any more.')
    },
    'python:status': () => Promise.resolve(executor.status()),
    'history:list': () => {
      try {
        return Promise.resolve(ok(history.list()))
      } catch (error) {
        return Promise.resolve(fail('store-error', 'History could not be read.', String(error)))
      }
    },
    'history:clear': () => {
      history.clear()
      events.emit('history:changed', { count: 0 })
      return Promise.resolve(ok(null))
    }
  }
}
