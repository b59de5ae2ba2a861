import { useState } from 'react'
import type { RunRecord } from '../../../shared/python'
import type { AppError } from '../../../shared/result'
import { firstLine, formatRunTime } from '../common/format'

type Props = {
  runs: RunRecord[]
  error: AppError | null
  selectedId: string | null
  onSelect: (record: RunRecord) => void
  onClear: () => Promise<AppError | null>
}

function statusBadge(record: RunRecord): React.JSX.Element {
  if (record.result.ok) return <span className="badge badge-ok">ok</span>
  const code = record.result.error.code
  const label = code === 'timeout' || code === 'interrupted' ? 'stopped' : 'error'
  return <span className="badge badge-error">{label}</span>
}

export function HistoryList({ runs, error, selectedId, onSelect, onClear }: Props): React.JSX.Element {
  const [confirming, setConfirming] = useState(false)
  const [clearError, setClearError] = useState<AppError | null>(null)

  const clear = (): void => {
    setConfirming(false)
    onClear().then(setClearError, () => undefined)
  }

  return (
    <aside className="history" aria-labelledby="history-title">
      <div className="panel-header">
        <h2 id="history-title">History</h2>
        {!confirming && (
          <button type="button" onClick={() => setConfirming(true)} disabled={runs.length === 0}>
            Clear history
          </button>
        )}
      </div>
      {confirming && (
        <div className="confirm" role="group" aria-label="Confirm clearing history">
          <span>
            Delete all {runs.length} {runs.length === 1 ? 'run' : 'runs'}?
          </span>
          <button type="button" className="danger" onClick={clear}>
            Delete all
          </button>
          <button type="button" onClick={() => setConfirming(false)} autoFocus>
            Cancel
          </button>
        </div>
      )}
      {(error ?? clearError) && (
        <p className="inline-error" role="alert">
          {(error ?? clearError)?.message}
        </p>
      )}
      {runs.length === 0 && <p className="muted">No runs yet.</p>}
      <ul className="history-list" role="list" aria-label="History">
        {runs.map((record) => (
          <li key={record.id} role="listitem">
            <button
              type="button"
              className="history-item"
              aria-current={record.id === selectedId ? 'true' : undefined}
              onClick={() => onSelect(record)}
            >
              <span className="history-top">
                <time dateTime={record.startedAt}>{formatRunTime(record.startedAt)}</time>
                {statusBadge(record)}
              </span>
              <span className="history-table">{record.tableName ?? 'no table'}</span>
              <code className="history-code">{firstLine(record.code)}</code>
            </button>
          </li>
        ))}
      </ul>
    </aside>
  )
}
