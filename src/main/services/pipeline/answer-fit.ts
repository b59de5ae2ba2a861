/**
 * Which answers fit the question. A question's phrasing says what its answer looks like: one number for
 * "how many …" or "what percentage …", one of the alternatives a choice names ("which …, A or B?"), a name
 * for "who …", yes or no for "is …" / "did …". An answer of another shape is a wrong reading (a whole row where
 * one cell was asked, a count where a name was asked, one of the two values compared where the choice between
 * them was asked), however many programs share it. So before the vote, where some program gave an answer that
 * fits, the answers that do not take no part in the choice.
 *
 * Each test applies only where some answer passes it (and the tests before it), so a question none of whose
 * answers fit is decided as before. The cues are rules of English question phrasing, not read from any
 * dataset's questions.
 */

import type { AnswerCell, AskAnswer } from '../../../shared/ask'
import { namedAlternatives } from '../prompt'
import { answerSize, asksForOneNumber } from './repair'
import type { Candidate } from './select'

/** What the tests need of an answer: how many values it holds, and the value itself when it is one. */
export type AnswerGist = { size: number; value?: AnswerCell }

/** One test: its name, what an answer that fails it gave (for the user's note), and the test itself. */
type Test = { name: string; failed: string; passes: (g: AnswerGist) => boolean }

/** The candidates as the vote sees them, and those left out of it with what their answers gave instead. */
export type Fitted = { candidates: Candidate[]; leftOut: { indices: number[]; failed: string }[] }

/** "who …", "whom …", "whose …": a person's, a team's, a place's name. */
const ASKS_WHO = /^\s*(who|whom|whose)\b/i
/** "is …", "did …", "has …" without alternatives: yes or no. */
const ASKS_YES_NO = /^\s*(is|are|was|were|did|does|do|has|have|had|can|could)\b/i
const YES_NO = /^(yes|no|true|false)$/i

function text(value: AnswerCell | undefined): string {
  return value === undefined || value === null ? '' : String(value)
}

/** Lower case, words only, no leading article: "The Nile." → "nile". */
function words(value: string): string {
  return value
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .replace(/^(the|a|an) /, '')
}

/** Whether a one-value answer names one of the alternatives: the same words, or one contains the other as whole words. */
function namesOneOf(value: AnswerCell | undefined, alternatives: string[]): boolean {
  const answer = words(text(value))
  if (answer === '') return false
  return alternatives.some((alt) => {
    const a = words(alt)
    return a !== '' && (` ${answer} `.includes(` ${a} `) || ` ${a} `.includes(` ${answer} `))
  })
}

/** The tests a question's answers are held to, strongest first. */
export function answerTests(question: string): Test[] {
  const tests: Test[] = []
  if (asksForOneNumber(question)) {
    tests.push({ name: 'one value', failed: 'several values where one number was asked', passes: (g) => g.size === 1 })
    tests.push({
      name: 'a number',
      failed: 'text where a number was asked',
      passes: (g) => g.size === 1 && (typeof g.value === 'number' || /\d/.test(text(g.value)))
    })
  }
  const alternatives = namedAlternatives(question)
  if (alternatives.length > 0)
    tests.push({
      name: 'one of the alternatives',
      failed: `something other than one of the alternatives the question names (${alternatives.join(', ')})`,
      passes: (g) => g.size === 1 && namesOneOf(g.value, alternatives)
    })
  if (ASKS_WHO.test(question))
    tests.push({
      name: 'a name',
      failed: 'a number where a name was asked',
      passes: (g) => g.size !== 1 || (typeof g.value === 'string' && /\p{L}/u.test(g.value))
    })
  if (ASKS_YES_NO.test(question) && !/\bor\b/i.test(question))
    tests.push({
      name: 'yes or no',
      failed: 'something other than yes or no',
      passes: (g) => g.size === 1 && (typeof g.value === 'boolean' || YES_NO.test(text(g.value).trim()))
    })
  return tests
}

/**
 * The candidates as the vote should see them: those whose answer does not fit the question count as not run,
 * where some other candidate's answer fits. `gists[i]` describes candidate i's answer.
 */
export function preferFitting(candidates: Candidate[], gists: AnswerGist[], question: string): Fitted {
  let keep = candidates.map((c) => c.exec.ok)
  const leftOut: Fitted['leftOut'] = []
  for (const test of answerTests(question)) {
    const next = keep.map((k, i) => k && test.passes(gists[i] ?? { size: 0 }))
    const dropped = next.flatMap((k, i) => (keep[i] === true && !k ? [i] : []))
    if (next.some(Boolean) && dropped.length > 0) {
      keep = next
      leftOut.push({ indices: dropped, failed: test.failed })
    }
  }
  if (leftOut.length === 0) return { candidates, leftOut }
  return { candidates: candidates.map((c, i) => (c.exec.ok && !keep[i] ? { ...c, exec: { ok: false } } : c)), leftOut }
}

/** The user's note on the candidates left out of the choice: "Candidates 1 and 3 gave a number where …". */
export function leftOutNote(group: Fitted['leftOut'][number]): string {
  const numbers = group.indices.map((i) => String(i + 1))
  const named =
    numbers.length === 1 ? `Candidate ${numbers[0]}` : `Candidates ${numbers.slice(0, -1).join(', ')} and ${numbers[numbers.length - 1]}`
  return `${named} gave ${group.failed}, so ${numbers.length === 1 ? 'it' : 'they'} took no part in the choice.`
}

/** The app's answer as the tests see it: a chart is one value without a value to read. */
export function askAnswerGist(answer: AskAnswer): AnswerGist {
  const size = answerSize(answer)
  if (size !== 1 || answer.chart !== undefined) return { size }
  return { size, value: answer.table === undefined ? (answer.items[0]?.value ?? null) : (answer.table.rows[0]?.[0] ?? null) }
}
