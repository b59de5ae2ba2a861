/**
 * Which answers fit the question. A question's phrasing says what its answer looks like: one number for
 * "how many …" or "what percentage …", one of the alternatives a choice names ("which …, A or B?"), a name
 * for "who …", a year for "what year …", yes or no for "is …" / "did …" and for no other question. An
 * answer of another shape is a wrong reading (a whole row where one cell was asked, a count where a name was
 * asked, one of the two values compared where the choice between them was asked), however many programs
 * share it. So before the vote, where some program gave an answer that fits, the answers that do not take no
 * part in the choice.
 *
 * Each test applies only where some answer passes it (and the tests before it), so a question none of whose
 * answers fit is decided as before. The cues are rules of English question phrasing, not read from any
 * dataset's questions.
 */

import type { AnswerCell, AskAnswer } from '../../../shared/ask'
import { namedAlternatives } from '../prompt'
import { answerSize } from './answer'
import type { Candidate } from './select'

/** What the tests need of an answer: how many values it holds, and the value itself when it is one. */
export type AnswerGist = { size: number; value?: AnswerCell }

/**
 * One test: its name, what an answer that fails it gave (for the user's note), the test itself, and what a
 * program whose one value fails it is told in its repair (given the value as the note shows it; none where
 * one value cannot fail it).
 */
type Test = { name: string; failed: string; passes: (g: AnswerGist) => boolean; repair?: (shown: string) => string }

/** The candidates as the vote sees them, and those left out of it with what their answers gave instead. */
export type Fitted = { candidates: Candidate[]; leftOut: { indices: number[]; failed: string }[] }

/**
 * Questions that ask for one thing: "how many …", "what was …", "which …", "who …", "is …". A question for
 * a list, a table or a chart ("list …", "show … by …") is not among them.
 */
export const ONE_THING =
  /^\s*(how (many|much|long|old|far)|what (is|was|are|were)|which|who|whom|when|where|is|are|was|were|did|does|do|has|have)\b/i
export const MANY_THINGS = /\b(list|table|chart|plot|each|every|per|by (year|month|region|country|category)|all the)\b/i
/** Questions that ask for one number: "how many …", "how much …", "what percentage …", "what was the total …". */
export const ONE_NUMBER =
  /^\s*(how (many|much|long|old|far)\b|what (percent|percentage|proportion|share|number|amount)\b|what (is|was|are|were) the (number|percent|percentage|proportion|share|total|amount|sum|average|mean|difference|ratio|rate)\b)/i

/** Whether a question asks for one number ("how many …", "what percentage …"), not for a list or a table. */
export function asksForOneNumber(question: string): boolean {
  return ONE_NUMBER.test(question) && !MANY_THINGS.test(question)
}

/** "who …", "whom …", "whose …": a person's, a team's, a place's name. */
const ASKS_WHO = /^\s*(who|whom|whose)\b/i
/**
 * "what year …", "in which year …": a year, written with four digits ("2010", "2010–11", "May 3, 2010"), not
 * part of a longer number or of a decimal ("1633.9" is no year).
 */
const ASKS_YEAR = /\b(what|which) year\b/i
const HAS_YEAR = /(^|[^\d.])\d{4}(?!\d|\.\d)/
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

/** Words that carry no content of their own in a named alternative ("those with …", "the ones in …"). */
const FUNCTION_WORDS = new Set('a an the of in on at to for from by with and or those these that who which whose ones'.split(' '))

function contentWords(value: string): Set<string> {
  return new Set(value.split(' ').filter((w) => w !== '' && !FUNCTION_WORDS.has(w)))
}

/**
 * Whether a one-value answer names one of the alternatives: the same words, or one contains the other as whole
 * words (for one alternative only: "family ties" names neither of two kinds of family ties). An answer that
 * rewords an alternative ("strong or very strong family ties" for "those with strong or very strong extended
 * family ties") names the alternative it shares the most content words with, when every one of its content
 * words is in that alternative and it shares fewer with each other one. (An alternative that itself holds "or"
 * is split by it; the rule then still finds the part it shares the most with.)
 */
function namesOneOf(value: AnswerCell | undefined, alternatives: string[]): boolean {
  const answer = words(text(value))
  if (answer === '') return false
  const named = alternatives.filter((alt) => {
    const a = words(alt)
    return a !== '' && (` ${answer} `.includes(` ${a} `) || ` ${a} `.includes(` ${answer} `))
  }).length
  if (named > 0) return named === 1
  const own = contentWords(answer)
  if (own.size === 0) return false
  const shared = alternatives.map((alt) => [...contentWords(words(alt))].filter((w) => own.has(w)).length)
  const best = Math.max(...shared)
  return best === own.size && shared.filter((n) => n === best).length === 1
}

/** The tests a question's answers are held to, strongest first. */
export function answerTests(question: string): Test[] {
  const tests: Test[] = []
  if (asksForOneNumber(question)) {
    tests.push({
      name: 'one value',
      failed: 'several values where one number was asked',
      // Several values have a repair note of their own, with their labels (./repair.ts).
      passes: (g) => g.size === 1
    })
    tests.push({
      name: 'a number',
      failed: 'text where a number was asked',
      passes: (g) => g.size === 1 && (typeof g.value === 'number' || /\d/.test(text(g.value))),
      repair: (shown) =>
        `The answer is ${shown}, but the question asks for one number: compute that number (a count, a total, or the value of the cell asked for).`
    })
  }
  const alternatives = namedAlternatives(question)
  if (alternatives.length > 0)
    tests.push({
      name: 'one of the alternatives',
      failed: `something other than one of the alternatives the question names (${alternatives.join(', ')})`,
      // No repair: an answer often rewords an alternative in ways the test does not follow ("rural areas" for
      // "living in a rural area"), and a repair then trades a right answer for another.
      passes: (g) => g.size === 1 && namesOneOf(g.value, alternatives)
    })
  if (ASKS_WHO.test(question))
    tests.push({
      name: 'a name',
      failed: 'a number where a name was asked',
      passes: (g) => g.size !== 1 || (typeof g.value === 'string' && /\p{L}/u.test(g.value)),
      repair: (shown) =>
        `The answer is ${shown}, but the question asks who: answer with the name in the row the question is about (that row's cell of the column of names), not a number or a row's position.`
    })
  if (ASKS_YEAR.test(question))
    tests.push({
      name: 'a year',
      failed: 'something other than a year where a year was asked',
      passes: (g) => g.size === 1 && HAS_YEAR.test(text(g.value)),
      repair: (shown) => `The answer is ${shown}, but the question asks for a year: answer with the year of the row the question is about.`
    })
  if (ASKS_YES_NO.test(question) && !/\bor\b/i.test(question))
    tests.push({
      name: 'yes or no',
      failed: 'something other than yes or no',
      passes: (g) => g.size === 1 && (typeof g.value === 'boolean' || YES_NO.test(text(g.value).trim())),
      repair: (shown) => `The answer is ${shown}, but the question asks yes or no: answer "yes" or "no".`
    })
  else if (!ASKS_YES_NO.test(question))
    tests.push({
      name: 'not yes or no',
      failed: 'true or false where no yes-or-no question was asked',
      passes: (g) => !(g.size === 1 && typeof g.value === 'boolean'),
      repair: (shown) =>
        `The answer is ${shown}, a truth value, but the question does not ask yes or no: answer with the value or the name it asks for.`
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

/** A one-value answer as a repair note shows it: text in quotes, a number or a truth value as it is. */
function shownValue(value: AnswerCell | undefined): string {
  return typeof value === 'string' ? JSON.stringify(value) : value === undefined || value === null ? 'missing' : String(value)
}

/**
 * What a program whose answer is one value that does not fit the question (a number where "who" asked for a
 * name, a truth value where no yes or no was asked, …) is told in its repair; null when the answer fits, or is
 * no single value (several values have their own note, see ./repair.ts). The first test the value fails says.
 */
export function misfitNote(question: string, gist: AnswerGist): string | null {
  if (gist.size !== 1) return null
  const failed = answerTests(question).find((t) => !t.passes(gist))
  return failed?.repair === undefined ? null : failed.repair(shownValue(gist.value))
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
