import { useState } from 'react'
import { assertNever } from '../../../shared/result'
import { checkPackageSource, type PackageSource, type PackagesView } from '../../../shared/packages'
import { downloadText } from '../shell/packageStatus'
import { usePackages, type PackagesHook } from '../shell/usePackages'

/**
 * Where the sandbox's pandas comes from (the official Pyodide distribution by default, a mirror or a local
 * folder), how far fetching it has got, and a retry after a failure.
 */
export function PackageSettings(): React.JSX.Element {
  const packages = usePackages()
  const { view } = packages
  // Kept out here: saving changes the stored source, which starts the form again and would lose its outcome.
  const outcome = useState<Outcome>(null)
  return (
    <section className="executor-settings" aria-labelledby="packages-title">
      <h3 id="packages-title">Pyodide packages</h3>
      <p className="muted small">
        pandas in the sandbox needs {view ? view.packages.join(', ') : 'numpy, pandas and their dependencies'}
        {view ? ` for Pyodide ${view.pyodideVersion}` : ''}. The app fetches them once, checks every file against the sha256 in
        Pyodide&apos;s own lock file, and keeps them; until then programs get plain Python rows.
      </p>
      <PackageState hook={packages} />
      {view && <SourceForm key={JSON.stringify(view.source)} view={view} hook={packages} outcome={outcome} />}
      {view && (
        <>
          <p className="muted small">Folders searched, in order (copy the files into the first on a machine without network):</p>
          <ul className="package-dirs" aria-label="Package folders">
            {view.dirs.map((dir) => (
              <li key={dir}>
                <code>{dir}</code>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  )
}

function PackageState({ hook }: { hook: PackagesHook }): React.JSX.Element | null {
  const { state, retry } = hook
  switch (state.state) {
    case 'idle':
      return null
    case 'checking':
      return (
        <p className="muted small" data-testid="packages-state">
          Checking the files against the lock…
        </p>
      )
    case 'downloading':
      return (
        <p className="muted small" data-testid="packages-state">
          Downloading {downloadText(state.progress)} from <code>{state.from}</code>
        </p>
      )
    case 'ready':
      return (
        <p className="endpoint-check" data-testid="packages-state">
          pandas is available in the sandbox (every file matches the lock
          {state.fetched.length > 0 ? `; just fetched: ${state.fetched.join(', ')}` : ''}).
        </p>
      )
    case 'failed':
      return (
        <div className="executor-warning" data-testid="packages-state">
          <p role="alert">{state.message}</p>
          {state.problems.length > 1 && (
            <details>
              <summary>Every file</summary>
              <ul className="package-dirs">
                {state.problems.map((problem) => (
                  <li key={problem.file}>
                    <code>{problem.file}</code>: {problem.message}
                  </li>
                ))}
              </ul>
            </details>
          )}
          <p>Programs get plain Python rows. The app tries again at its next start, or now:</p>
          <button type="button" onClick={retry}>
            Retry
          </button>
        </div>
      )
    case 'off':
      return (
        <p className="muted small" data-testid="packages-state">
          Downloading is turned off and {state.missing.length} file{state.missing.length === 1 ? ' is' : 's are'} missing (
          {state.missing.join(', ')}): programs get plain Python rows. Put the files in one of the folders below, or choose a source.
        </p>
      )
    default:
      return assertNever(state)
  }
}

/** What the last save said: saved, or the problem. */
type Outcome = { saved: true } | { saved: false; problem: string } | null

type FormProps = { view: PackagesView; hook: PackagesHook; outcome: [Outcome, (next: Outcome) => void] }

function SourceForm({ view, hook, outcome: [outcome, setOutcome] }: FormProps): React.JSX.Element {
  const stored = view.source
  const [kind, setKind] = useState<PackageSource['kind']>(stored.kind)
  const [url, setUrl] = useState(stored.kind === 'url' ? stored.url : '')
  const [path, setPath] = useState(stored.kind === 'dir' ? stored.path : '')

  const apply = (event: React.FormEvent): void => {
    event.preventDefault()
    setOutcome(null)
    const draft = kind === 'url' ? { kind, url } : kind === 'dir' ? { kind, path } : { kind }
    const checked = checkPackageSource(draft)
    if (!checked.ok) return setOutcome({ saved: false, problem: checked.error.message })
    void hook
      .setSource(checked.value)
      .then((result) => setOutcome(result.ok ? { saved: true } : { saved: false, problem: result.error.message }))
  }

  return (
    <form className="run-settings" onSubmit={apply} noValidate aria-label="Package source">
      <label className="executor-option">
        <input type="radio" name="package-source" checked={kind === 'official'} onChange={() => setKind('official')} />
        <span>
          <strong>Official Pyodide distribution</strong> <code className="small">{view.officialUrl}</code>
        </span>
      </label>
      <label className="executor-option">
        <input type="radio" name="package-source" checked={kind === 'url'} onChange={() => setKind('url')} />
        <strong>A mirror</strong>
      </label>
      {kind === 'url' && (
        <label className="executor-path">
          Mirror URL (the folder holding pyodide-lock.json)
          <input type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder={view.officialUrl} spellCheck={false} />
        </label>
      )}
      <label className="executor-option">
        <input type="radio" name="package-source" checked={kind === 'dir'} onChange={() => setKind('dir')} />
        <strong>A local folder</strong>
      </label>
      {kind === 'dir' && (
        <label className="executor-path">
          Folder holding the files (e.g. an unpacked Pyodide release)
          <input
            type="text"
            value={path}
            onChange={(e) => setPath(e.target.value)}
            placeholder="/media/usb/pyodide/full"
            spellCheck={false}
          />
        </label>
      )}
      <label className="executor-option">
        <input type="radio" name="package-source" checked={kind === 'off'} onChange={() => setKind('off')} />
        <span>
          <strong>No download</strong> <span className="muted small">only the files already in the folders below</span>
        </span>
      </label>
      <div className="executor-actions">
        <button type="submit" className="primary" disabled={hook.saving}>
          {hook.saving ? 'Saving…' : kind === 'off' ? 'Save' : 'Save and fetch'}
        </button>
        {outcome?.saved && (
          <span className="endpoint-check" role="status">
            Source saved.
          </span>
        )}
      </div>
      {outcome?.saved === false && (
        <p className="inline-error" role="alert">
          {outcome.problem}
        </p>
      )}
    </form>
  )
}
