import type { AppInfo } from '../../../shared/api'
import type { ExecutorState } from '../../../shared/python'
import type { AppError } from '../../../shared/result'
import { CPYTHON_WARNING } from '../../../shared/settings'
import { bootProgressView } from './bootProgress'
import { PackageDownload } from './PackageDownload'
import { appInfoText, pythonStatusText } from '../common/format'

type Props = {
  status: ExecutorState
  info: AppInfo | null
  infoError: AppError | null
  /** The executor in use, when known: local CPython is flagged as not sandboxed. */
  executorKind?: 'pyodide' | 'cpython' | null
  children?: React.ReactNode
}

export function StatusBar({ status, info, infoError, executorKind = null, children }: Props): React.JSX.Element {
  const boot = bootProgressView(status)
  return (
    <footer className="status-bar">
      <span className={`python-state python-${status.state}`} role="status" data-testid="python-status">
        <span className="dot" aria-hidden="true" />
        {pythonStatusText(status)}
      </span>
      {boot && (
        <progress
          className="boot-progress"
          max={boot.max}
          value={boot.value}
          aria-label="Python start-up"
          aria-valuetext={boot.text}
          title={boot.text}
          data-testid="python-progress"
        />
      )}
      {executorKind !== 'cpython' && <PackageDownload />}
      {executorKind === 'cpython' && (
        <span className="executor-badge" data-testid="executor-badge" title={`Local Python: ${CPYTHON_WARNING}`}>
          Local Python: {CPYTHON_WARNING}
        </span>
      )}
      {children}
      <span className="app-info" data-testid="app-info">
        {info ? appInfoText(info) : infoError ? `App info unavailable: ${infoError.message}` : ''}
      </span>
    </footer>
  )
}
