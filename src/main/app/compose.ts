import type { AppInfo } from '../../shared/api'
import { assertNever } from '../../shared/result'
import type { ExecutorConfig } from '../../shared/executor-protocol'
import { History } from '../services/history'
import { appVersion } from '../services/paths'
import type { ChannelFactory } from '../services/python/channel'
import { PythonExecutor } from '../services/python/executor'
import { missingPandasWheels, packageDirs } from '../services/python/package-source'
import type { KeyValueStore } from '../services/store/store'
import { DEFAULT_LIMITS, Workspace } from '../services/workspace'
import { threadedReader } from '../services/tables/table-thread'
import { join } from 'node:path'
import { ResponseCache, type SecretStore } from '../services/model'
import { EndpointRegistry } from '../services/settings'
import { BuiltinModel, nodeEngineSpawner } from '../services/local-model'
import type { SpawnEngine } from '../services/local-model/engine-protocol'
import { adoptOldHistory, currentSessionStore, SessionStore } from '../services/sessions'
import { createCPythonExecutor } from '../services/python/cpython-executor'
import { SwitchableExecutor } from '../services/python/switchable'
import type { Executor } from '../services/python/types'
import type { ExecutorChoice } from '../../shared/settings'
import { EventBus } from './events'
import type { AppServices, OpenDialog } from './handlers'
import { storedAppSettings } from './settings-handlers'

export type ComposeOptions = {
  mode: AppInfo['mode']
  dataDir: string
  historyStore: KeyValueStore
  settingsStore: KeyValueStore
  secrets: SecretStore
  channelFactory: ChannelFactory
  openDialog: OpenDialog | null
  executor?: Partial<ExecutorConfig>
  defaultTimeoutMs?: number
  /** Starts the built-in model's engine process: Electron's utilityProcess in the desktop app; a forked Node child by default. */
  spawnEngine?: SpawnEngine
  /** The desktop app's file dialog for a GGUF file; absent in browser mode. */
  pickModelFile?: () => Promise<string | null>
}

/** Executor settings used everywhere unless a caller overrides them. */
export function executorConfig(dataDir: string, overrides: Partial<ExecutorConfig> = {}): ExecutorConfig {
  return {
    poolSize: 2,
    loadPandas: missingPandasWheels(packageDirs(dataDir)).length === 0,
    killGraceMs: 40,
    ...overrides
  }
}

/** Wire the services of one app process. Nothing here imports Electron. */
export function composeServices(options: ComposeOptions): AppServices {
  const events = new EventBus()
  const createExecutor = (choice: ExecutorChoice): Executor => {
    switch (choice.kind) {
      case 'pyodide':
        return new PythonExecutor(options.channelFactory, {
          config: executorConfig(options.dataDir, options.executor),
          defaultTimeoutMs: options.defaultTimeoutMs ?? 30_000,
          bootTimeoutMs: 120_000
        })
      case 'cpython':
        return createCPythonExecutor({
          python: choice.python,
          config: { poolSize: options.executor?.poolSize ?? 2 },
          defaultTimeoutMs: options.defaultTimeoutMs ?? 30_000
        })
      default:
        return assertNever(choice)
    }
  }
  // A stored local-Python choice is used as is; if that interpreter is gone the status bar shows the error.
  const executor = new SwitchableExecutor(createExecutor(storedAppSettings(options.settingsStore).executor))
  executor.onStatus((state) => events.emit('python:status', state))
  const builtin = new BuiltinModel({
    dataDir: options.dataDir,
    settings: options.settingsStore,
    spawn: options.spawnEngine ?? nodeEngineSpawner(),
    onDownload: (download) => events.emit('models:download', download)
  })
  const sessions = new SessionStore(join(options.dataDir, 'sessions'))
  adoptOldHistory(sessions, options.historyStore)
  return {
    info: { mode: options.mode, version: appVersion(), dataDir: options.dataDir, nativeFileDialog: options.openDialog !== null },
    workspace: new Workspace(DEFAULT_LIMITS, (id) => void executor.dropTable(id), threadedReader()),
    executor,
    createExecutor,
    settingsStore: options.settingsStore,
    history: new History(currentSessionStore(sessions)),
    sessions,
    events,
    openDialog: options.openDialog,
    defaultTimeoutMs: options.defaultTimeoutMs ?? 30_000,
    endpoints: new EndpointRegistry(options.settingsStore, options.secrets, builtin.models),
    builtin,
    pickModelFile: options.pickModelFile ?? null,
    secrets: options.secrets,
    cache: new ResponseCache(join(options.dataDir, 'model-cache'))
  }
}
