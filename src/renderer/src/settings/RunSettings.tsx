import { useState } from 'react'
import type { SelectionMode } from '../../../shared/model'
import {
  checkSettingValues,
  type AppSettings,
  type SamplingSettings,
  type SettingsUpdate,
  type TimeoutSettings
} from '../../../shared/settings'
import { PackageSettings } from './PackageSettings'
import type { AppSettingsState } from './useAppSettings'

type Props = { state: AppSettingsState }

/** Sampling, time limits and the Pyodide package source; each form starts again from what is stored. */
export function RunSettings({ state }: Props): React.JSX.Element | null {
  // Kept out here: a save changes the stored values, which starts the form again and would lose its outcome.
  const samplingSave = useSave(state)
  const limitsSave = useSave(state)
  const { view } = state
  if (!view) return null
  const { settings } = view
  return (
    <>
      <SamplingForm key={`s${JSON.stringify(settings.sampling)}`} settings={settings} state={state} save={samplingSave} />
      <TimeLimitsForm key={`t${JSON.stringify(settings.timeouts)}`} settings={settings} state={state} save={limitsSave} />
      <PackageSettings />
    </>
  )
}

type Save = ReturnType<typeof useSave>
type FormProps = { settings: AppSettings; state: AppSettingsState; save: Save }

/**
 * Saves one part; the server checks again and its message, if any, is shown. The forms skip the
 * browser's own validation, which would block the submit silently (a bubble, not a message on the page).
 */
function useSave(state: AppSettingsState): {
  problem: string | null
  saved: boolean
  submit: (update: SettingsUpdate, local: string | null) => void
} {
  const [local, setLocal] = useState<string | null>(null)
  const [outcome, setOutcome] = useState<'none' | 'saved' | 'refused'>('none')
  const submit = (update: SettingsUpdate, check: string | null): void => {
    setOutcome('none')
    setLocal(check)
    if (check) return
    void state.save(update).then((done) => setOutcome(done ? 'saved' : 'refused'))
  }
  return {
    problem: local ?? (outcome === 'refused' ? (state.error?.message ?? 'The settings could not be saved.') : null),
    saved: outcome === 'saved',
    submit
  }
}

function SamplingForm({ settings, state, save }: FormProps): React.JSX.Element {
  const [n, setN] = useState(String(settings.sampling.n))
  const [temperature, setTemperature] = useState(String(settings.sampling.temperature))
  const [selection, setSelection] = useState<SelectionMode>(settings.sampling.selection)
  const [score, setScore] = useState<SamplingSettings['score']>(settings.sampling.score)
  const { problem, saved, submit } = save

  const apply = (event: React.FormEvent): void => {
    event.preventDefault()
    const sampling: SamplingSettings = { n: Number(n), temperature: Number(temperature), selection, score }
    submit({ executor: settings.executor, sampling }, checkSettingValues(sampling, settings.timeouts))
  }

  return (
    <form className="executor-settings run-settings" aria-labelledby="sampling-title" onSubmit={apply} noValidate>
      <h3 id="sampling-title">Sampling and selection</h3>
      <p className="muted small">Used by every question asked from now on.</p>
      <div className="form-row">
        <label>
          Samples (n)
          <input type="number" min={1} max={20} step={1} value={n} onChange={(e) => setN(e.currentTarget.value)} />
        </label>
        <label>
          Temperature
          <input type="number" min={0} max={2} step={0.1} value={temperature} onChange={(e) => setTemperature(e.currentTarget.value)} />
        </label>
        <label>
          Selection
          <select
            value={selection}
            onChange={(e) =>
              setSelection(e.currentTarget.value === 'vote' ? 'vote' : e.currentTarget.value === 'greedy' ? 'greedy' : 'logprob')
            }
          >
            <option value="vote">Execution vote (ties: most probable)</option>
            <option value="logprob">Highest log-probability (the paper)</option>
            <option value="greedy">Greedy (first sample)</option>
          </select>
        </label>
        <label>
          Score
          <select value={score} onChange={(e) => setScore(e.currentTarget.value === 'mean' ? 'mean' : 'sum')}>
            <option value="sum">Sum of log-probabilities</option>
            <option value="mean">Mean per token</option>
          </select>
        </label>
      </div>
      <Actions saving={state.saving} problem={problem} saved={saved ? 'Sampling saved.' : null} label="Save sampling" />
    </form>
  )
}

function TimeLimitsForm({ settings, state, save }: FormProps): React.JSX.Element {
  const [run, setRun] = useState(String(settings.timeouts.runMs / 1000))
  const [qa, setQa] = useState(String(settings.timeouts.qaMs / 1000))
  const { problem, saved, submit } = save

  const apply = (event: React.FormEvent): void => {
    event.preventDefault()
    const timeouts: TimeoutSettings = { runMs: Math.round(Number(run) * 1000), qaMs: Math.round(Number(qa) * 1000) }
    submit({ executor: settings.executor, timeouts }, checkSettingValues(settings.sampling, timeouts))
  }

  return (
    <form className="executor-settings run-settings" aria-labelledby="limits-title" onSubmit={apply} noValidate>
      <h3 id="limits-title">Time limits</h3>
      <div className="form-row">
        <label>
          Program run (s)
          <input type="number" min={1} max={600} step={1} value={run} onChange={(e) => setRun(e.currentTarget.value)} />
        </label>
        <label>
          QA call (s)
          <input type="number" min={1} max={600} step={1} value={qa} onChange={(e) => setQa(e.currentTarget.value)} />
        </label>
      </div>
      <Actions saving={state.saving} problem={problem} saved={saved ? 'Time limits saved.' : null} label="Save time limits" />
    </form>
  )
}

function Actions({
  saving,
  problem,
  saved,
  label
}: {
  saving: boolean
  problem: string | null
  saved: string | null
  label: string
}): React.JSX.Element {
  return (
    <>
      <div className="executor-actions">
        <button type="submit" className="primary" disabled={saving}>
          {saving ? 'Saving…' : label}
        </button>
        {saved && (
          <span className="endpoint-check" role="status">
            {saved}
          </span>
        )}
      </div>
      {problem && (
        <p className="inline-error" role="alert">
          {problem}
        </p>
      )}
    </>
  )
}
