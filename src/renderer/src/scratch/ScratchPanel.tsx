import type { AppError } from '../../../shared/result'
import { CodeEditor } from '../common/CodeEditor'
import { shortcut } from '../common/platform'

export type ScratchProps = {
  code: string
  onCodeChange: (code: string) => void
  running: boolean
  onRun: () => void
  onStop: () => void
  tableName: string | null
  stopError: AppError | null
  onHide: () => void
}

export function ScratchPanel({
  code,
  onCodeChange,
  running,
  onRun,
  onStop,
  tableName,
  stopError,
  onHide
}: ScratchProps): React.JSX.Element {
  const empty = code.trim() === ''
  return (
    <section className="scratch" aria-labelledby="scratch-title">
      <div className="panel-header">
        <h2 id="scratch-title">Python</h2>
        <div className="panel-actions">
          <button
            type="button"
            className="primary"
            onClick={onRun}
            disabled={running || empty}
            title={empty ? 'Write some code first' : `Run (${shortcut('Enter')})`}
          >
            Run
          </button>
          <button type="button" onClick={onStop} disabled={!running}>
            Stop
          </button>
          <button type="button" className="panel-close" aria-label="Hide the Python panel" title="Hide this panel" onClick={onHide}>
            ×
          </button>
        </div>
      </div>
      <p className="hint" id="scratch-help">
        The open table is <code>df</code> when pandas is available, otherwise <code>rows</code> (a list of dicts) and <code>columns</code>;
        the helper functions of the answers (<code>lookup</code>, <code>chart</code>, …) are there too. The value of the last line is shown;{' '}
        {shortcut('Enter')} runs.{' '}
        {tableName ? (
          <>
            Now open: <strong>{tableName}</strong>.
          </>
        ) : (
          'No table is open: the program runs without one.'
        )}
      </p>
      <CodeEditor value={code} onChange={onCodeChange} onRun={onRun} describedBy="scratch-help" />
      {stopError && (
        <p className="inline-error" role="alert">
          Could not stop: {stopError.message}
        </p>
      )}
    </section>
  )
}
