import type { Handlers } from '../../shared/api'
import { fail, ok, type Result } from '../../shared/result'
import { checkSettingValues, readAppSettings, type AppSettings, type ExecutorChoice, type SettingsView } from '../../shared/settings'
import type { probePython } from '../services/python/cpython-channel'
import type { SwitchableExecutor, TableToLoad } from '../services/python/switchable'
import type { Executor, RunRequest } from '../services/python/types'
import type { KeyValueStore } from '../services/store/store'

export const APP_SETTINGS_KEY = 'app'

export type SettingsDeps = {
  store: KeyValueStore
  executor: SwitchableExecutor
  /** Every open table, to hand to a new executor. */
  tables: () => TableToLoad[]
  /** A fresh executor for a choice (the old one is closed by the switch). */
  createExecutor: (choice: ExecutorChoice) => Executor
  probe: typeof probePython
}

type SettingsHandlers = Pick<Handlers, 'settings:get' | 'settings:set'>

/** The stored app settings (the default when none or malformed). */
export function storedAppSettings(store: KeyValueStore): AppSettings {
  return readAppSettings(store.get<unknown>(APP_SETTINGS_KEY))
}

/** The time limit of a run that names none: the stored setting, else `fallback` (settings never saved, or unreadable). */
export function defaultRunTimeout(store: KeyValueStore, fallback: number): number {
  try {
    const stored = store.get<{ timeouts?: unknown }>(APP_SETTINGS_KEY)
    return stored?.timeouts === undefined ? fallback : storedAppSettings(store).timeouts.runMs
  } catch {
    return fallback
  }
}

/** The executor as questions see it: runs that name no QA call limit get the stored one, read at each run. */
export function withStoredQaTimeout(executor: Executor, store: KeyValueStore): Executor {
  const run = (request: RunRequest): ReturnType<Executor['run']> =>
    executor.run(request.qaTimeoutMs === undefined ? { ...request, qaTimeoutMs: storedAppSettings(store).timeouts.qaMs } : request)
  // A proxy keeps the executor's own getters (its kind follows a switch) and methods.
  return new Proxy(executor, {
    get(target, prop) {
      if (prop === 'run') return run
      const value: unknown = Reflect.get(target, prop, target)
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value
    }
  })
}

export function createSettingsHandlers(deps: SettingsDeps): SettingsHandlers {
  let python: SettingsView['python'] = null
  const view = (): SettingsView => ({ settings: storedAppSettings(deps.store), active: deps.executor.kind, python })

  /** Check an interpreter path: it must run and import pandas. */
  async function checkInterpreter(path: string): Promise<Result<{ version: string; pandas: string }>> {
    const probed = await deps.probe(path)
    if (!probed.ok) return fail('bad-input', `That interpreter could not be used. ${probed.message}`)
    if (probed.pandas === null) {
      return fail(
        'bad-input',
        `Python ${probed.version} at ${path} has no pandas. Install it there (python -m pip install pandas) or choose another interpreter.`
      )
    }
    return ok({ version: probed.version, pandas: probed.pandas })
  }

  return {
    'settings:get': () => Promise.resolve(ok(view())),
    'settings:set': async (request) => {
      const stored = storedAppSettings(deps.store)
      // Parts left out of the request keep their stored values.
      const sampling = request?.settings?.sampling ?? stored.sampling
      const timeouts = request?.settings?.timeouts ?? stored.timeouts
      const problem = checkSettingValues(sampling, timeouts)
      if (problem) return fail('bad-input', problem)
      const raw = request?.settings?.executor as Partial<{ kind: unknown; python: unknown }> | undefined
      let choice: ExecutorChoice
      if (raw?.kind === 'pyodide') choice = { kind: 'pyodide' }
      else if (raw?.kind === 'cpython') {
        if (typeof raw.python !== 'string' || raw.python.trim() === '') return fail('bad-input', 'Give the path of a Python interpreter.')
        choice = { kind: 'cpython', python: raw.python.trim() }
      } else return fail('bad-input', 'Choose the Pyodide sandbox or a local Python.')

      const before = stored.executor
      let checked: SettingsView['python'] = null
      if (choice.kind === 'cpython') {
        const probed = await checkInterpreter(choice.python)
        if (!probed.ok) return probed
        checked = probed.value
      }
      const unchanged = JSON.stringify(before) === JSON.stringify(choice) && deps.executor.kind === choice.kind
      try {
        const next: AppSettings = {
          executor: choice,
          sampling: readAppSettings({ sampling }).sampling,
          timeouts: readAppSettings({ timeouts }).timeouts
        }
        deps.store.set(APP_SETTINGS_KEY, next)
      } catch (error) {
        return fail('store-error', 'The settings could not be saved.', String(error))
      }
      python = checked
      if (!unchanged) await deps.executor.switchTo(deps.createExecutor(choice), deps.tables())
      return ok(view())
    }
  }
}
