import type { AskSummary } from '../../../shared/ask'
import { answerHeadline } from '../../../shared/ask'
import { formatDuration } from '../common/format'
import { Candidates } from './Candidates'
import { ProgramView } from './ProgramView'
import { a1Name } from '../../../shared/cells'
import { AnswerTable } from './AnswerTable'
import { ChartView } from './ChartView'
import { agreementOf } from '../../../shared/agreement'

type Props = { summary: AskSummary; tableId: string | null; tableName: string | null }

/** A finished question: the answer and its type, the program, the candidates, and what was noted. */
export function AnswerView({ summary, tableId, tableName }: Props): React.JSX.Element {
  const { answer } = summary
  // A chart or a table says what it holds itself; the types and count of its values would only repeat it.
  const shaped = answer?.chart !== undefined || answer?.table !== undefined
  const types = answer && !shaped ? [...new Set(answer.items.map((i) => i.type))] : []
  const agreement = answer ? agreementOf(summary.candidates, summary.chosen) : null
  return (
    <div className="answer-view">
      {answer ? (
        <div className="answer" aria-label="Answer">
          <span className="answer-text" data-testid="answer-text">
            {answerHeadline(answer)}
          </span>
          {types.map((t) => (
            <span key={t} className="answer-type">
              {t}
            </span>
          ))}
          {answer.items.length > 1 && !shaped && <span className="muted small">{answer.items.length} values</span>}
          {answer.note && <p className="muted small">{answer.note}</p>}
          {answer.chart && <ChartView chart={answer.chart} question={summary.question} />}
          {answer.table && !answer.chart && <AnswerTable table={answer.table} question={summary.question} />}
          {answer.cells.length > 0 && (
            <p className="answer-cells small" data-testid="answer-cells">
              Read from {answer.cells.length === 1 ? 'cell' : 'cells'}{' '}
              {answer.cells
                .slice(0, 12)
                .map((c) => a1Name(c.row, c.col))
                .join(', ')}
              {answer.cells.length > 12 ? ` and ${answer.cells.length - 12} more` : ''} of the source sheet.
            </p>
          )}
        </div>
      ) : (
        <div className="answer answer-none" role="alert">
          <strong>No answer.</strong> {summary.problem?.message ?? 'No candidate program produced one.'}
        </div>
      )}
      {agreement !== null && (
        <p className={`answer-agreement agreement-${agreement.level}`} data-testid="answer-agreement">
          {agreement.text}
        </p>
      )}
      <p className="answer-meta muted small">
        {summary.endpoint.name} · {summary.endpoint.model} · {summary.candidates.length} candidate
        {summary.candidates.length === 1 ? '' : 's'}
        {summary.selection
          ? ` · chosen by ${summary.selection.mode}${summary.selection.fallbackReason ? ` (${summary.selection.fallbackReason})` : ''}`
          : ''}
        {summary.qaCalls > 0 ? ` · ${summary.qaCalls} QA calls` : ''} · {formatDuration(summary.timings.totalMs)}
      </p>
      {summary.program !== null && (
        <ProgramView key={`${summary.askId}:${summary.program}`} program={summary.program} tableId={tableId} tableName={tableName} />
      )}
      <Candidates
        candidates={summary.candidates}
        chosen={summary.chosen}
        ranking={summary.selection?.ranking ?? []}
        executor={summary.executor}
      />
      {summary.notes.length > 0 && (
        <ul className="answer-notes muted small">
          {summary.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
    </div>
  )
}
