import type { SelectionMode } from './model'

/** Where question programs run: the Pyodide sandbox (default) or a local CPython the user chose. */
export type ExecutorChoice = { kind: 'pyodide' } | { kind: 'cpython'; python: string }

/** How questions are sampled and one program chosen, unless a question says otherwise. */
export type SamplingSettings = { n: number; temperature: number; selection: SelectionMode; score: 'sum' | 'mean' }

/** Time limits: one program run, and one `qa(...)` sub-question. */
export type TimeoutSettings = { runMs: number; qaMs: number }

/** App-wide settings kept in the settings store under the key `app`. */
export type AppSettings = { executor: ExecutorChoice; sampling: SamplingSettings; timeouts: TimeoutSettings }

/** What `settings:set` takes: parts left out keep their stored values. */
export type SettingsUpdate = Pick<AppSettings, 'executor'> & Partial<Omit<AppSettings, 'executor'>>

/**
 * Candidates are chosen by execution vote unless asked otherwise: the executed answers are grouped
 * (normalised) and the largest group wins, ties going to the most probable program, so with no agreement
 * it is the paper's log-probability rule. On every WikiTQ and HiTab run of the built-in 1.5B model on the
 * fixed sample the vote answered as many questions as the log-probability rule or more; on ten Spider
 * questions it answered one fewer (docs/EVALUATION.md). The paper's rule stays a setting.
 */
export const DEFAULT_SELECTION: SelectionMode = 'vote'

export const DEFAULT_APP_SETTINGS: AppSettings = {
  executor: { kind: 'pyodide' },
  sampling: { n: 5, temperature: 0.7, selection: DEFAULT_SELECTION, score: 'sum' },
  timeouts: { runMs: 30_000, qaMs: 60_000 }
}

export const SETTING_LIMITS = {
  n: { min: 1, max: 20 },
  temperature: { min: 0, max: 2 },
  runMs: { min: 1_000, max: 10 * 60_000 },
  qaMs: { min: 1_000, max: 10 * 60_000 }
} as const

const SELECTIONS: readonly SelectionMode[] = ['logprob', 'vote', 'greedy']

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

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined
}

function inRange(value: unknown, limits: { min: number; max: number }, whole = false): value is number {
  return (
    typeof value === 'number' && Number.isFinite(value) && value >= limits.min && value <= limits.max && (!whole || Number.isInteger(value))
  )
}

function readExecutor(value: unknown): ExecutorChoice {
  const kind = field(value, 'kind')
  const python = field(value, 'python')
  if (kind === 'cpython' && typeof python === 'string' && python.trim() !== '') return { kind, python }
  return DEFAULT_APP_SETTINGS.executor
}

function readSampling(value: unknown): SamplingSettings {
  const d = DEFAULT_APP_SETTINGS.sampling
  const n = field(value, 'n')
  const temperature = field(value, 'temperature')
  const selection = field(value, 'selection')
  const score = field(value, 'score')
  return {
    n: inRange(n, SETTING_LIMITS.n, true) ? n : d.n,
    temperature: inRange(temperature, SETTING_LIMITS.temperature) ? temperature : d.temperature,
    selection: SELECTIONS.find((s) => s === selection) ?? d.selection,
    score: score === 'sum' || score === 'mean' ? score : d.score
  }
}

function readTimeouts(value: unknown): TimeoutSettings {
  const d = DEFAULT_APP_SETTINGS.timeouts
  const runMs = field(value, 'runMs')
  const qaMs = field(value, 'qaMs')
  return {
    runMs: inRange(runMs, SETTING_LIMITS.runMs) ? Math.round(runMs) : d.runMs,
    qaMs: inRange(qaMs, SETTING_LIMITS.qaMs) ? Math.round(qaMs) : d.qaMs
  }
}

/** Read stored settings defensively: each part that is missing or malformed falls back to its default. */
export function readAppSettings(value: unknown): AppSettings {
  return {
    executor: readExecutor(field(value, 'executor')),
    sampling: readSampling(field(value, 'sampling')),
    timeouts: readTimeouts(field(value, 'timeouts'))
  }
}

/** Checks sampling and time limits as given by the user; the first problem in plain words, or null. */
export function checkSettingValues(sampling: unknown, timeouts: unknown): string | null {
  const n = field(sampling, 'n')
  const temperature = field(sampling, 'temperature')
  const selection = field(sampling, 'selection')
  const score = field(sampling, 'score')
  const runMs = field(timeouts, 'runMs')
  const qaMs = field(timeouts, 'qaMs')
  if (!inRange(n, SETTING_LIMITS.n, true)) return `Samples must be a whole number from ${SETTING_LIMITS.n.min} to ${SETTING_LIMITS.n.max}.`
  if (!inRange(temperature, SETTING_LIMITS.temperature))
    return `Temperature must be between ${SETTING_LIMITS.temperature.min} and ${SETTING_LIMITS.temperature.max}.`
  if (!SELECTIONS.some((s) => s === selection)) return 'Selection must be logprob, vote or greedy.'
  if (score !== 'sum' && score !== 'mean') return 'The score must be sum or mean.'
  if (!inRange(runMs, SETTING_LIMITS.runMs)) return 'The run time limit must be between 1 second and 10 minutes.'
  if (!inRange(qaMs, SETTING_LIMITS.qaMs)) return 'The QA call time limit must be between 1 second and 10 minutes.'
  return null
}
