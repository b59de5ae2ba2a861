import type { AskSummary } from '../../../shared/ask'
import { answerHeadline } from '../../../shared/ask'
import { useStudio } from '../question/studio'

/** The current session's questions, newest first; a click shows the answer again in the question panel. */
export function QuestionHistory({ questions }: { questions: AskSummary[] }): React.JSX.Element {
  const { asking } = useStudio()
  const shown = asking.state.phase === 'done' ? asking.state.summary.askId : null
  return (
    <section className="question-history" aria-labelledby="question-history-title">
      <h2 id="question-history-title">Questions</h2>
      {questions.length === 0 && <p className="muted small">No questions in this session yet.</p>}
      <ul className="question-history-list" aria-label="Questions">
        {questions.map((q) => (
          <li key={q.askId}>
            <button
              type="button"
              className="history-item"
              aria-current={q.askId === shown ? 'true' : undefined}
              onClick={() => asking.show(q, [])}
            >
              <span className="question-history-q">{q.question}</span>
              <span className={q.answer ? 'question-history-a' : 'question-history-a failed'}>
                {q.answer ? `→ ${answerHeadline(q.answer)}` : `no answer: ${q.problem?.message ?? ''}`}
              </span>
              <span className="small muted">
                {q.endpoint.model} · {q.candidates.length} candidate{q.candidates.length === 1 ? '' : 's'}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  )
}
