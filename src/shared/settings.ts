/** Where question programs run: the Pyodide sandbox (default) or a local CPython the user chose. */
export type ExecutorChoice = { kind: 'pyodide' } | { kind: 'cpython'; python: string }

/** App-wide settings kept in the settings store under the key `app`. */
export type AppSettings = { executor: ExecutorChoice }

export const DEFAULT_APP_SETTINGS: AppSettings = { executor: { kind: 'pyodide' } }

/** What `settings:get` / `settings:set` answer: the settings and what the executor in use reports. */
export type SettingsView = {
  settings: AppSettings
  /** The kind of executor now running programs. */
  active: ExecutorChoice['kind']
  /** The interpreter check done when local CPython was chosen (null for Pyodide). */
  python: { version: string; pandas: string } | null
}

/** Shown wherever local CPython is chosen or active. */
export const CPYTHON_WARNING = 'not sandboxed: programs run as you, with your files and network'

/** Read stored settings defensively: anything malformed falls back to the default. */
export function readAppSettings(value: unknown): AppSettings {
  if (typeof value !== 'object' || value === null) return DEFAULT_APP_SETTINGS
  const executor = (value as { executor?: unknown }).executor
  if (typeof executor !== 'object' || executor === null) return DEFAULT_APP_SETTINGS
  const { kind, python } = executor as { kind?: unknown; python?: unknown }
  if (kind === 'cpython' && typeof python === 'string' && python.trim() !== '') return { executor: { kind, python } }
  return DEFAULT_APP_SETTINGS
}
