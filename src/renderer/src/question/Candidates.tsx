import type { CandidateSummary } from '../../../shared/ask'
import { formatDuration } from '../format'
import { Code } from './Code'

function score(value: number | null): string {
  return value === null ? 'n/a' : value.toFixed(3)
}

/** Every sampled program with its log-probability and what running it gave; the chosen one marked. */
export function Candidates({ candidates, chosen, ranking }: { candidates: CandidateSummary[]; chosen: number | null; ranking: number[] }): React.JSX.Element {
  return (
    <details className="candidates">
      <summary>
        Candidates ({candidates.length}) <span className="muted small">· log-probability and result of each program</span>
      </summary>
      <ol className="candidate-list" aria-label="Candidates">
        {candidates.map((c) => {
          const rank = ranking.indexOf(c.index)
          return (
            <li key={c.index} className={c.index === chosen ? 'candidate chosen' : 'candidate'}>
              <details>
                <summary>
                  <span className="candidate-index">#{c.index + 1}</span>
                  {c.index === chosen && <span className="badge badge-ok">chosen</span>}
                  <span className="candidate-score" title="Sum (mean) of the token log-probabilities">
                    log p {score(c.logprobSum)} ({score(c.logprobMean)})
                  </span>
                  {c.result.ok ? (
                    <span className="candidate-result">{c.result.answer.text === '' ? '(empty)' : c.result.answer.text}</span>
                  ) : (
                    <span className="candidate-result candidate-error">
                      {c.result.error.code}: {c.result.error.message}
                    </span>
                  )}
                  <span className="muted small">
                    {formatDuration(c.durationMs)}
                    {c.qaCalls > 0 ? ` · ${c.qaCalls} QA` : ''}
                    {rank >= 0 ? ` · rank ${rank + 1}` : ''}
                  </span>
                </summary>
                {c.program === null ? <p className="muted">The reply held no program.</p> : <Code code={c.program} />}
                {!c.result.ok && c.result.error.detail && <pre className="stream stream-err">{c.result.error.detail}</pre>}
              </details>
            </li>
          )
        })}
      </ol>
    </details>
  )
}
