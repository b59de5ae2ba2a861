import { useCallback, useState } from 'react'
import type { RunRecord } from '../../../shared/python'
import type { AppError } from '../../../shared/result'
import { errorFromCause } from '../common/failure'
import { formatDuration } from '../common/format'
import { useApi } from '../api/context'
import { Code } from './Code'

type Props = { program: string; tableId: string | null; tableName: string | null }

type RunState = { phase: 'idle' } | { phase: 'running' } | { phase: 'done'; record: RunRecord } | { phase: 'failed'; error: AppError }

/** The chosen program: highlighted, editable, and run again through `python:run` on the same table. Keyed by the program by its parent, so a new answer starts clean. */
export function ProgramView({ program, tableId, tableName }: Props): React.JSX.Element {
  const api = useApi()
  const [code, setCode] = useState(program)
  const [editing, setEditing] = useState(false)
  const [run, setRun] = useState<RunState>({ phase: 'idle' })

  const rerun = useCallback(() => {
    setRun({ phase: 'running' })
    const runId = typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : `run-${Date.now()}`
    api.runPython({ runId, code, tableId }).then(
      (result) => setRun(result.ok ? { phase: 'done', record: result.value } : { phase: 'failed', error: result.error }),
      (cause: unknown) => setRun({ phase: 'failed', error: errorFromCause('Running the program', cause) })
    )
  }, [api, code, tableId])

  return (
    <section className="program" aria-label="Chosen program">
      <div className="program-header">
        <h3>Program</h3>
        <span className="muted small">{tableName ? `runs on ${tableName}` : 'the table is no longer open'}</span>
        <span className="spacer" />
        <button type="button" onClick={() => setEditing((e) => !e)} aria-pressed={editing}>
          {editing ? 'Done editing' : 'Edit'}
        </button>
        {code !== program && (
          <button type="button" onClick={() => setCode(program)}>
            Revert
          </button>
        )}
        <button type="button" className="primary" onClick={rerun} disabled={run.phase === 'running' || code.trim() === ''}>
          {run.phase === 'running' ? 'Running…' : 'Run again'}
        </button>
      </div>
      {editing ? (
        <textarea
          className="program-editor"
          aria-label="Program"
          value={code}
          spellCheck={false}
          rows={Math.min(16, Math.max(4, code.split('\n').length + 1))}
          onChange={(e) => setCode(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault()
              rerun()
            }
          }}
        />
      ) : (
        <Code code={code} label="Program code" />
      )}
      <RunResult run={run} />
    </section>
  )
}

function RunResult({ run }: { run: RunState }): React.JSX.Element | null {
  switch (run.phase) {
    case 'idle':
    case 'running':
      return null
    case 'failed':
      return (
        <p className="inline-error" role="alert">
          {run.error.message}
        </p>
      )
    case 'done': {
      const result = run.record.result
      if (!result.ok) {
        return (
          <div className="rerun-result rerun-error" role="alert" data-testid="rerun-result">
            <strong>{result.error.code === 'python-error' ? 'Python error' : result.error.message}</strong>
            <pre>{result.error.traceback ?? result.error.message}</pre>
          </div>
        )
      }
      const out = result.value
      return (
        <div className="rerun-result" data-testid="rerun-result">
          <span className="badge badge-ok">ran</span> {formatDuration(out.durationMs)}
          {out.value ? (
            <>
              {' '}
              · <span className="value-type">{out.value.type}</span>
              <pre>{out.value.repr}</pre>
            </>
          ) : (
            <span className="muted"> · no value (set answer or end with an expression)</span>
          )}
          {out.stdout !== '' && <pre className="stream">{out.stdout}</pre>}
        </div>
      )
    }
  }
}
