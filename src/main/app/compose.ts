import type { AppInfo } from '../../shared/api'
import { assertNever } from '../../shared/result'
import type { ExecutorConfig } from '../../shared/executor-protocol'
import { History } from '../services/history'
import { appVersion } from '../services/paths'
import type { ChannelFactory } from '../services/python/channel'
import { PythonExecutor } from '../services/python/executor'
import { PackageManager } from '../services/python/package-manager'
import {
  bundledPackageDirs,
  missingWheels,
  officialPackageUrl,
  packageCacheDir,
  packageDirs,
  pandasPackages,
  pyodideVersion,
  type PackageSet
} from '../services/python/package-source'
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
import { storedPackageSource } from './package-handlers'

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
  /** The sandbox's package files; by default numpy and pandas from the installed lock, from the bundled folders and the cache. */
  packages?: PackageOptions
}

export type PackageOptions = {
  /** The lock and the packages wanted from it (tests give a lock of their own; the executor page must be served the same). */
  set?: PackageSet
  /** Read-only folders searched after the cache (default: the app's bundled folders). */
  bundledDirs?: string[]
  /** Longest silence from the source before a download gives up. */
  stallMs?: number
}

/**
 * Executor settings used everywhere unless a caller overrides them: the interpreters load the packages
 * when all their files are in the package folders (main has checked them, or checks them as it starts).
 */
export function executorConfig(
  dataDir: string,
  overrides: Partial<ExecutorConfig> = {},
  set: PackageSet = pandasPackages(),
  dirs: string[] = packageDirs(dataDir)
): ExecutorConfig {
  const present = missingWheels(set, dirs).length === 0
  return {
    poolSize: 2,
    loadPandas: present && set.wanted.includes('pandas'),
    packages: present ? [...set.wanted] : [],
    killGraceMs: 40,
    ...overrides
  }
}

/** Wire the services of one app process. Nothing here imports Electron. */
export function composeServices(options: ComposeOptions): AppServices {
  const events = new EventBus()
  const packageSet = options.packages?.set ?? pandasPackages()
  const bundledDirs = options.packages?.bundledDirs ?? bundledPackageDirs()
  const cacheDir = packageCacheDir(options.dataDir)
  const createExecutor = (choice: ExecutorChoice): Executor => {
    switch (choice.kind) {
      case 'pyodide':
        return new PythonExecutor(options.channelFactory, {
          config: executorConfig(options.dataDir, options.executor, packageSet, [cacheDir, ...bundledDirs]),
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
  const workspace = new Workspace(DEFAULT_LIMITS, (id) => void executor.dropTable(id), threadedReader())
  const officialUrl = officialPackageUrl()
  const packages = new PackageManager({
    set: packageSet,
    cacheDir,
    bundledDirs,
    source: () => storedPackageSource(options.settingsStore),
    officialUrl,
    ...(options.packages?.stallMs === undefined ? {} : { stallMs: options.packages.stallMs })
  })
  packages.onStatus((state) => {
    events.emit('packages:status', state)
    // Files that arrived while the app runs: interpreters that load them take over from the ones without.
    if (state.state === 'ready' && state.fetched.length > 0 && executor.kind === 'pyodide') {
      const tables = workspace.list().map((t) => ({ tableId: t.id, payload: t.payload }))
      void executor.handOver(createExecutor({ kind: 'pyodide' }), tables)
    }
  })
  return {
    info: { mode: options.mode, version: appVersion(), dataDir: options.dataDir, nativeFileDialog: options.openDialog !== null },
    workspace,
    executor,
    packages,
    packageInfo: { officialUrl, pyodideVersion: pyodideVersion() },
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
