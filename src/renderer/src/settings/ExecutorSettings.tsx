import { useState } from 'react'
import { CPYTHON_WARNING, DEFAULT_APP_SETTINGS, type ExecutorChoice } from '../../../shared/settings'
import { RunSettings } from './RunSettings'
import { useAppSettings, type AppSettingsState } from './useAppSettings'

/** Where programs run (the Pyodide sandbox by default, or a local CPython the user names), then sampling and time limits. */
export function ExecutorSettings(): React.JSX.Element {
  const state = useAppSettings()
  const [saved, setSaved] = useState<string | null>(null)
  const stored = state.view?.settings.executor ?? null
  // The form starts again from what is stored whenever that arrives or changes.
  return (
    <>
      <ExecutorForm
        key={JSON.stringify(stored)}
        stored={stored ?? DEFAULT_APP_SETTINGS.executor}
        state={state}
        saved={saved}
        setSaved={setSaved}
      />
      <RunSettings state={state} />
    </>
  )
}

type FormProps = { stored: ExecutorChoice; state: AppSettingsState; saved: string | null; setSaved: (text: string | null) => void }

function ExecutorForm({ stored, state, saved, setSaved }: FormProps): React.JSX.Element {
  const { view, error, saving, save } = state
  const [kind, setKind] = useState<ExecutorChoice['kind']>(stored.kind)
  const [python, setPython] = useState(stored.kind === 'cpython' ? stored.python : 'python3')

  const apply = (): void => {
    setSaved(null)
    const executor: ExecutorChoice = kind === 'cpython' ? { kind, python } : { kind }
    void save({ executor }).then(
      (done) => done && setSaved(kind === 'cpython' ? 'Programs now run in your local Python.' : 'Programs now run in the sandbox.')
    )
  }

  return (
    <section className="executor-settings" aria-labelledby="executor-title">
      <h3 id="executor-title">Where programs run</h3>
      <label className="executor-option">
        <input type="radio" name="executor" checked={kind === 'pyodide'} onChange={() => setKind('pyodide')} />
        <span>
          <strong>Pyodide sandbox</strong> <span className="muted small">(default: no access to your files or the network)</span>
        </span>
      </label>
      <label className="executor-option">
        <input type="radio" name="executor" checked={kind === 'cpython'} onChange={() => setKind('cpython')} />
        <span>
          <strong>Local Python</strong> <span className="executor-warning">{CPYTHON_WARNING}</span>
        </span>
      </label>
      {kind === 'cpython' && (
        <label className="executor-path">
          Interpreter (needs pandas)
          <input
            type="text"
            value={python}
            onChange={(e) => setPython(e.target.value)}
            placeholder="/usr/bin/python3"
            spellCheck={false}
            data-testid="python-path"
          />
        </label>
      )}
      <div className="executor-actions">
        <button type="button" className="primary" onClick={apply} disabled={saving}>
          {saving ? 'Checking…' : 'Apply'}
        </button>
        {view && (
          <span className="muted small" data-testid="executor-active">
            In use:{' '}
            {view.active === 'cpython'
              ? `local Python${view.python ? ` ${view.python.version}, pandas ${view.python.pandas}` : ''}`
              : 'Pyodide sandbox'}
          </span>
        )}
      </div>
      {error && (
        <p className="inline-error" role="alert">
          {error.message}
        </p>
      )}
      {saved && !error && (
        <p className="endpoint-check" role="status">
          {saved}
        </p>
      )}
    </section>
  )
}
