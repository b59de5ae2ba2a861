import type { PythonFailure, PythonOutput } from '../../../shared/python'
import { failureHeadline, formatDuration, formatRunTime, tableKindText } from '../common/format'
import type { ShownRun } from './usePythonRun'

type Props = { shown: ShownRun | null; running: boolean }

function Stream({ label, text }: { label: string; text: string }): React.JSX.Element | null {
  if (text === '') return null
  return (
    <div className="output-block">
      <h3>{label}</h3>
      <pre className={label === 'stderr' ? 'stream stream-err' : 'stream'}>{text}</pre>
    </div>
  )
}

function Success({ output }: { output: PythonOutput }): React.JSX.Element {
  return (
    <>
      <p className="output-meta">
        <span className="badge badge-ok">ok</span> {formatDuration(output.durationMs)} · {tableKindText(output.tableKind)}
        {output.truncated && ' · output was cut'}
      </p>
      <Stream label="stdout" text={output.stdout} />
      <Stream label="stderr" text={output.stderr} />
      {output.value ? (
        <div className="output-block">
          <h3>
            Value <span className="value-type">{output.value.type}</span>
          </h3>
          <pre className="stream value" data-testid="run-value">
            {output.value.repr}
          </pre>
        </div>
      ) : (
        <p className="muted">
          No value: end the program with an expression, or set <code>answer</code>.
        </p>
      )}
    </>
  )
}

function Failure({ error }: { error: PythonFailure }): React.JSX.Element {
  const stopped = error.code === 'timeout' || error.code === 'interrupted'
  return (
    <>
      <p className="output-meta">
        <span className="badge badge-error">{stopped ? 'stopped' : 'error'}</span> <code>{error.code}</code>
      </p>
      <p className="run-error" data-testid="run-error">
        {failureHeadline(error)}
      </p>
      <Stream label="stdout" text={error.stdout} />
      <Stream label="stderr" text={error.stderr} />
      {error.traceback && <pre className="stream traceback">{error.traceback}</pre>}
      {!error.traceback && error.detail && <pre className="stream traceback">{error.detail}</pre>}
    </>
  )
}

export function RunOutput({ shown, running }: Props): React.JSX.Element {
  return (
    <section className="output" role="region" aria-label="Output" aria-busy={running}>
      {running && <p className="muted">Running…</p>}
      {!running && shown === null && <p className="muted">Run a program to see what it prints and returns.</p>}
      {!running && shown?.kind === 'not-run' && (
        <>
          <p className="output-meta">
            <span className="badge badge-error">not run</span> <code>{shown.error.code}</code>
          </p>
          <p className="run-error" data-testid="run-error">
            {shown.error.message}
          </p>
          {shown.error.detail && <pre className="stream traceback">{shown.error.detail}</pre>}
        </>
      )}
      {!running && shown?.kind === 'record' && (
        <>
          <p className="muted small">
            Run at {formatRunTime(shown.record.startedAt)}
            {shown.record.tableName ? ` on ${shown.record.tableName}` : ''}
          </p>
          {shown.record.result.ok ? <Success output={shown.record.result.value} /> : <Failure error={shown.record.result.error} />}
        </>
      )}
    </section>
  )
}
