import { useState } from 'react'
import type { TableSummary } from '../../../shared/api'
import type { AskOptions, AskProgress } from '../../../shared/ask'
import { askOptions } from '../settings/askDefaults'
import { useApi } from '../api/context'
import { AnswerView } from './AnswerView'
import { useStudio } from './studio'
import type { AskState } from './useAsk'
import './question.css'

/** The question box's element id: `/` focuses it. */
export const QUESTION_INPUT_ID = 'question-input'

type Props = { tables: TableSummary[]; activeTable: TableSummary | null }

const STAGES: AskProgress['stage'][] = ['prompt', 'generating', 'executing', 'qa', 'selecting']

/** What the model is doing before its samples arrive: loading, reading the prompt, waiting its turn. */
const MODEL_STEP = /^(loading the model|reading the prompt|waiting for the model|repairing)/

export function stageText(p: AskProgress): string {
  switch (p.stage) {
    case 'prompt':
      return 'building the prompt'
    case 'generating':
      if (MODEL_STEP.test(p.message)) return p.message
      return p.total === null ? `sampling ${p.done}` : `sampling ${p.done} of ${p.total}`
    case 'executing':
      return p.total === null ? `running ${p.done}` : `running ${p.done} of ${p.total}`
    case 'qa':
      return `${p.done} QA ${p.done === 1 ? 'call' : 'calls'}`
    case 'selecting':
      return 'choosing a program'
  }
}

function Progress({ state }: { state: Extract<AskState, { phase: 'asking' }> }): React.JSX.Element {
  const parts = STAGES.flatMap((s) => (state.progress[s] ? [stageText(state.progress[s])] : []))
  return (
    <div className="ask-progress-box">
      <p className="ask-progress" role="status" aria-label="Question progress">
        <span className="spinner" aria-hidden="true" />
        {state.cancelling ? 'Cancelling…' : parts.length > 0 ? parts.join(' · ') : 'Sending the question…'}
      </p>
      {state.early.length > 0 && (
        <ol className="early-answers" aria-label="Answers so far">
          {state.early.map((c) => (
            <li
              key={`${c.index}${c.repaired === true ? 'r' : ''}`}
              value={c.index + 1}
              className={c.answer === null ? 'failed' : undefined}
            >
              {c.repaired === true ? 'repaired: ' : ''}
              {c.answer ?? `failed: ${c.error ?? 'no answer'}`}
            </li>
          ))}
        </ol>
      )}
    </div>
  )
}

/** Ask a question about the open table: the box, the endpoint, progress, and the answer with its programs. */
export function QuestionPanel({ tables, activeTable }: Props): React.JSX.Element {
  const { endpoints, settings, asking } = useStudio()
  const api = useApi()
  const [question, setQuestion] = useState('')
  const [picked, setEndpointId] = useState<string>('')
  const [scope, setScope] = useState<'active' | 'all'>('active')
  const [notice, setNotice] = useState<string | null>(null)
  const { state } = asking
  const busy = state.phase === 'asking'
  const noEndpoint = endpoints.loaded && endpoints.usable.length === 0

  // Follow the default unless the user picked another endpoint that still exists.
  const endpointId = endpoints.endpoints.some((e) => e.id === picked) ? picked : ''

  const submit = (): void => {
    const text = question.trim()
    if (busy) return
    if (text === '') {
      setNotice('Type a question first.')
      return
    }
    if (!activeTable) {
      setNotice('Open a table first: questions are answered about the open table.')
      return
    }
    if (noEndpoint) {
      setNotice('No model endpoint is set up. Add one to ask questions.')
      return
    }
    setNotice(null)
    const tableIds = scope === 'all' ? tables.map((t) => t.id) : [activeTable.id]
    // Defaults are read when asking, so a change in the settings applies to the next question.
    const send = (options: AskOptions | undefined): void =>
      asking.ask({ question: text, tableIds, ...(options ? { options } : {}), ...(endpointId !== '' ? { endpointId } : {}) })
    api.getSettings().then(
      (r) => send(r.ok ? askOptions(r.value.settings) : undefined),
      () => send(undefined)
    )
  }

  const shownTableId = state.phase === 'done' ? (state.tableIds[0] ?? activeTable?.id ?? null) : null
  const shownTable = tables.find((t) => t.id === shownTableId) ?? null

  return (
    <section className="question-panel" aria-label="Ask a question">
      <div className="question-row">
        <textarea
          id={QUESTION_INPUT_ID}
          className="question-input"
          aria-label="Question"
          placeholder={
            activeTable
              ? `Ask about ${activeTable.name}…  (Enter asks, Shift+Enter for a new line, / to come back here)`
              : 'Open a table, then ask a question about it…'
          }
          rows={Math.min(4, Math.max(1, question.split('\n').length))}
          value={question}
          onChange={(e) => setQuestion(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault()
              submit()
            }
          }}
        />
        <select aria-label="Endpoint" value={endpointId} onChange={(e) => setEndpointId(e.currentTarget.value)} disabled={noEndpoint}>
          {noEndpoint ? (
            <option value="">No endpoint</option>
          ) : (
            <>
              <option value="">{endpoints.defaultEndpoint ? `${endpoints.defaultEndpoint.name} (default)` : 'Default endpoint'}</option>
              {endpoints.usable.map((e) => (
                <option key={e.id} value={e.id}>
                  {e.name} · {e.model}
                  {e.isDefault ? ' ★' : ''}
                </option>
              ))}
            </>
          )}
        </select>
        {tables.length > 1 && (
          <select
            aria-label="Tables to ask about"
            value={scope}
            onChange={(e) => setScope(e.currentTarget.value === 'all' ? 'all' : 'active')}
          >
            <option value="active">This table</option>
            <option value="all">All {tables.length} open tables</option>
          </select>
        )}
        {busy ? (
          <button type="button" onClick={asking.cancel} disabled={state.cancelling}>
            Cancel
          </button>
        ) : (
          <button type="button" className="primary" onClick={submit}>
            Ask
          </button>
        )}
        <button type="button" onClick={() => settings.show(false)} title="Model endpoints">
          Endpoints…
        </button>
      </div>
      {noEndpoint && (
        <p className="question-setup">
          No model endpoint is set up.{' '}
          <button type="button" className="link" onClick={() => settings.show(true)}>
            Add one…
          </button>
        </p>
      )}
      {notice && (
        <p className="inline-error" role="alert">
          {notice}
        </p>
      )}
      {state.phase !== 'idle' && (
        <div className="question-result">
          {state.phase === 'asking' && <Progress state={state} />}
          {state.phase === 'failed' && (
            <div className="ask-error" role="alert">
              <p>
                <strong>{state.error.code === 'cancelled' ? 'Cancelled.' : 'The question could not be answered.'}</strong>{' '}
                {state.error.code === 'cancelled' ? '' : state.error.message}
              </p>
              {state.error.detail && <pre className="banner-detail">{state.error.detail}</pre>}
              <div className="ask-error-actions">
                <button type="button" className="primary" onClick={() => asking.ask(state.request)}>
                  Retry
                </button>
                {(state.error.code === 'model-unreachable' ||
                  state.error.code === 'unauthorized' ||
                  state.error.code === 'model-not-found' ||
                  state.error.code === 'model-http') && (
                  <button type="button" onClick={() => settings.show(false)}>
                    Check the endpoint…
                  </button>
                )}
                <button type="button" onClick={asking.reset}>
                  Dismiss
                </button>
              </div>
            </div>
          )}
          {state.phase === 'done' && (
            <>
              <p className="asked">
                <span className="muted small">Question:</span> {state.summary.question}
                <button type="button" className="link small" onClick={asking.reset}>
                  Clear
                </button>
              </p>
              <AnswerView summary={state.summary} tableId={shownTable?.id ?? null} tableName={shownTable?.name ?? null} />
            </>
          )}
        </div>
      )}
    </section>
  )
}
