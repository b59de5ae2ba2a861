/**
 * How many of a question's programs agree with the answer chosen, in words an analyst can act on: all of
 * them, most, or a split that calls for a second look. Answer keys are compared as the vote compares them.
 */

/** Answer keys that differ only in case, spacing, quotes, thousands separators or `.0` agree. */
export function normaliseAnswerKey(key: string): string {
  let out = key.trim().toLowerCase().replace(/\s+/g, ' ')
  out = out.replace(/^(["'])(.*)\1$/, '$2')
  out = out.replace(/(\d),(?=\d{3}\b)/g, '$1')
  out = out.replace(/\b(\d+)\.0+\b/g, '$1')
  return out
}

export type Agreement = {
  /** Programs that gave the chosen answer. */
  agree: number
  /** Programs that ran to an answer. */
  ran: number
  /** Programs sampled. */
  of: number
  level: 'all' | 'most' | 'split' | 'alone'
  /** One line for the user. */
  text: string
}

/** Null when there is no chosen answer. */
export function agreementOf(candidates: { index: number; answerKey: string | null }[], chosen: number | null): Agreement | null {
  const pick = candidates.find((c) => c.index === chosen)
  if (pick === undefined || pick.answerKey === null) return null
  const key = normaliseAnswerKey(pick.answerKey)
  const ran = candidates.filter((c) => c.answerKey !== null)
  const agree = ran.filter((c) => normaliseAnswerKey(c.answerKey as string) === key).length
  const of = candidates.length
  if (of === 1) return { agree, ran: ran.length, of, level: 'alone', text: 'One program was sampled: nothing to compare it with.' }
  if (agree === of) return { agree, ran: ran.length, of, level: 'all', text: `All ${of} programs agree.` }
  if (agree * 2 > of) return { agree, ran: ran.length, of, level: 'most', text: `${agree} of ${of} programs agree.` }
  return {
    agree,
    ran: ran.length,
    of,
    level: 'split',
    text: `The programs disagree: ${agree === 1 ? 'only this one' : `only ${agree} of ${of}`} gave this answer${ran.length < of ? ` (${of - ran.length} failed)` : ''}. Check it.`
  }
}
