import type { AskSummary, CandidateSummary } from '../../../shared/ask'
import { answerHeadline, repairLabel } from '../../../shared/ask'
import { formatDuration } from '../common/format'
import { blockedReason, type BlockedReason } from './blocked'
import { Code } from './Code'
import { earlierPrograms } from './repairs'

function score(value: number | null): string {
  return value === null ? 'n/a' : value.toFixed(3)
}

function reasonOf(c: CandidateSummary, executor: AskSummary['executor']): BlockedReason | null {
  return c.result.ok ? null : blockedReason(c.result.error, executor)
}

/**
 * Every sampled program with its log-probability and what running it gave; the chosen one marked. A
 * program the sandbox stopped is open with its code and says what was blocked, so an injected attempt is
 * seen rather than buried under the answer.
 */
export function Candidates({
  candidates,
  chosen,
  ranking,
  executor
}: {
  candidates: CandidateSummary[]
  chosen: number | null
  ranking: number[]
  executor: AskSummary['executor']
}): React.JSX.Element {
  const reasons = candidates.map((c) => reasonOf(c, executor))
  const blocked = reasons.filter((r) => r !== null).length
  return (
    <details className="candidates" open={blocked > 0}>
      <summary>
        Candidates ({candidates.length}) <span className="muted small">· log-probability and result of each program</span>
        {blocked > 0 && <span className="badge badge-error candidates-blocked">{blocked} blocked by the sandbox</span>}
      </summary>
      <ol className="candidate-list" aria-label="Candidates">
        {candidates.map((c, i) => {
          const rank = ranking.indexOf(c.index)
          const reason = reasons[i] ?? null
          return (
            <li key={c.index} className={c.index === chosen ? 'candidate chosen' : 'candidate'} aria-label={`Candidate ${c.index + 1}`}>
              <details open={reason !== null}>
                <summary>
                  <span className="candidate-index">#{c.index + 1}</span>
                  {c.index === chosen && <span className="badge badge-ok">chosen</span>}
                  {c.repairedFrom !== undefined && (
                    <span className="badge" title={`The program before this one failed: ${c.repairedFrom.error}`}>
                      {repairLabel(c.repairedFrom)}
                    </span>
                  )}
                  <span className="candidate-score" title="Sum (mean) of the token log-probabilities">
                    log p {score(c.logprobSum)} ({score(c.logprobMean)})
                  </span>
                  {c.result.ok ? (
                    <span className="candidate-result">{answerHeadline(c.result.answer)}</span>
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
                  {reason && (
                    <span className="candidate-blocked" data-kind={reason.kind}>
                      {reason.text}
                    </span>
                  )}
                </summary>
                {c.program === null ? (
                  <p className="muted">The reply held no program.</p>
                ) : (
                  <Code code={c.program} label={`Program of candidate ${c.index + 1}`} />
                )}
                {!c.result.ok && c.result.error.detail && <pre className="stream stream-err">{c.result.error.detail}</pre>}
                {earlierPrograms(c.repairedFrom, c.index).map((step) => (
                  <div className="candidate-repair" key={step.label}>
                    <p className="muted small">
                      {step.title} failed with {step.error}
                    </p>
                    <Code code={step.program} label={step.label} />
                  </div>
                ))}
              </details>
            </li>
          )
        })}
      </ol>
    </details>
  )
}
