import './packages.css'
import { packageStatusView } from './packageStatus'
import { usePackages } from './usePackages'

/** The status bar's part about the sandbox's package files: a download under way, or why pandas is missing. */
export function PackageDownload(): React.JSX.Element | null {
  const { state, retry } = usePackages()
  const view = packageStatusView(state)
  if (!view) return null
  return (
    <span className={`package-status${view.problem ? ' package-problem' : ''}`} title={view.title} data-testid="package-status">
      <span role="status">{view.text}</span>
      {view.bar && (
        <progress
          className="boot-progress"
          max={view.bar.max}
          value={view.bar.value}
          aria-label="pandas download"
          aria-valuetext={view.text}
        />
      )}
      {view.problem && (
        <button type="button" className="package-retry" onClick={retry} aria-label="Retry the pandas download">
          Retry
        </button>
      )}
    </span>
  )
}
