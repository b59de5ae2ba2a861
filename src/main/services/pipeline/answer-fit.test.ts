import { describe, expect, it } from 'vitest'
import type { AskAnswer } from '../../../shared/ask'
import type { Result } from '../../../shared/result'
import type { AnswerGist } from './answer-fit'
import { answerTests, askAnswerGist, leftOutNote, misfitNote, preferFitting } from './answer-fit'
import type { Candidate, Selection } from './select'
import { selectCandidate } from './select'

function cand(key: string | null, sum: number): Candidate {
  return {
    program: `answer = ${key}`,
    logprobSum: sum,
    logprobMean: sum / 4,
    exec: key === null ? { ok: false } : { ok: true, answerKey: key }
  }
}

function voted(candidates: Candidate[]): number {
  const s: Result<Selection> = selectCandidate(candidates, { mode: 'vote' })
  if (!s.ok) throw new Error(s.error.message)
  return s.value.index
}

const one = (value: string | number | boolean): AnswerGist => ({ size: 1, value })

describe('preferFitting', () => {
  it('leaves answers of several values out where one number was asked and one value was given', () => {
    // Three programs read the whole row (8 values), one read the cell asked for.
    const candidates = [cand('row', -1), cand('row', -1.2), cand('row', -1.5), cand('11.1', -3), cand(null, -0.5)]
    const gists = [{ size: 8 }, { size: 8 }, { size: 8 }, one(11.1), { size: 0 }]
    const fitted = preferFitting(candidates, gists, 'how many jobs were in services in 2010?').candidates
    expect(fitted.map((c) => c.exec.ok)).toEqual([false, false, false, true, false])
    expect(voted(fitted)).toBe(3)
    expect(voted(candidates)).toBe(0)
  })

  it('prefers a number where one number was asked and some answers are text', () => {
    const candidates = [cand('north', -1), cand('north', -1), cand('42', -2)]
    const fitted = preferFitting(candidates, [one('North'), one('North'), one(42)], 'how many schools are in the north?').candidates
    expect(voted(fitted)).toBe(2)
  })

  it('prefers an answer that names one of the alternatives of a choice', () => {
    // Two programs read one of the two values compared; one answered with the alternative.
    const candidates = [cand('12.5', -1), cand('12.5', -1.1), cand('women', -2), cand(null, -0.3)]
    const gists = [one(12.5), one(12.5), one('Women'), { size: 0 }]
    const fitted = preferFitting(candidates, gists, 'which group had the higher rate, women or men?').candidates
    expect(voted(fitted)).toBe(2)
    // "the men aged 15+" names "men" as a whole word; "menu" does not.
    const words = preferFitting(
      [cand('x', -1), cand('y', -2)],
      [one('menu'), one('The men aged 15+')],
      'which was higher, women or men?'
    ).candidates
    expect(voted(words)).toBe(1)
  })

  it('reads an answer that rewords an alternative as naming it, when it shares the most words with that one alone', () => {
    // The alternatives hold "or" themselves ("strong or very strong"), and the answers drop a word of them.
    const question =
      'which adults were less likely to be food insecure, those with strong or very strong extended family ties or those with weaker family ties?'
    const candidates = [cand('true', -1), cand('strong', -2), cand('weaker', -1.5), cand('strong', -2.1), cand('stronger', -0.5)]
    const gists = [
      one(true),
      one('strong or very strong family ties'),
      one('weaker family ties'),
      one('strong or very strong family ties'),
      one('stronger family')
    ]
    const fitted = preferFitting(candidates, gists, question)
    expect(fitted.candidates.map((c) => c.exec.ok)).toEqual([false, true, true, true, false])
    expect(voted(fitted.candidates)).toBe(1)
    // Words the alternatives share ("family ties") name neither; a word of no alternative names none.
    const tests = answerTests(question)
    const choice = tests.find((t) => t.name === 'one of the alternatives')
    expect(choice?.passes(one('family ties'))).toBe(false)
    expect(choice?.passes(one('very strong ties at work'))).toBe(false)
    expect(choice?.passes(one('those with weaker ties'))).toBe(true)
  })

  it('prefers a year where "what year" was asked', () => {
    // Two programs counted rows that matched nothing; one read the year.
    const candidates = [cand('0', -1), cand('0', -1.1), cand('2010', -2), cand(null, -0.4)]
    const gists = [one(0), one(0), one(2010), { size: 0 }]
    const fitted = preferFitting(candidates, gists, 'what year had a total of 2 titles released?')
    expect(voted(fitted.candidates)).toBe(2)
    expect(fitted.leftOut).toEqual([{ indices: [0, 1], failed: 'something other than a year where a year was asked' }])
    const year = answerTests('in which year did the team move?').find((t) => t.name === 'a year')
    expect(['2010–11', 'May 3, 1999', 1987].map((v) => year?.passes(one(v)))).toEqual([true, true, true])
    expect([0, 12345, 'none', '98'].map((v) => year?.passes(one(v)))).toEqual([false, false, false, false])
    expect(answerTests('how many years did the team play?').map((t) => t.name)).not.toContain('a year')
  })

  it('prefers a name where "who" was asked, yes or no where "did" was asked', () => {
    const who = preferFitting(
      [cand('3', -1), cand('3', -1), cand('ada', -2)],
      [one(3), one('3'), one('Ada')],
      'who scored the most goals?'
    ).candidates
    expect(voted(who)).toBe(2)
    const did = preferFitting(
      [cand('1990', -1), cand('1990', -1), cand('yes', -2)],
      [one(1990), one(1990), one('Yes')],
      'did the club win in 1990?'
    ).candidates
    expect(voted(did)).toBe(2)
  })

  it('changes nothing where no answer fits, or the question gives no cue', () => {
    const candidates = [cand('a', -1), cand('a', -1), cand('b', -2)]
    const gists = [one('a'), one('a'), one('b')]
    expect(preferFitting(candidates, gists, 'which group had the higher rate, women or men?').candidates).toBe(candidates)
    expect(preferFitting(candidates, gists, 'what was the name of the ship?').candidates).toBe(candidates)
    const rows = [cand('r', -1), cand('r', -1)]
    expect(preferFitting(rows, [{ size: 8 }, { size: 8 }], 'how many jobs were there?').candidates).toBe(rows)
    // A list of names is a fair answer to "who …".
    const names = [cand('ada|bo', -1), cand('7', -2)]
    expect(preferFitting(names, [{ size: 2 }, one(7)], 'who were the founding members?').candidates.map((c) => c.exec.ok)).toEqual([
      true,
      false
    ])
  })

  it('says which candidates it left out and what they gave', () => {
    const fitted = preferFitting(
      [cand('3', -1), cand('3', -1), cand('ada', -2)],
      [one(3), one('3'), one('Ada')],
      'who scored the most goals?'
    )
    expect(fitted.leftOut).toEqual([{ indices: [0, 1], failed: 'a number where a name was asked' }])
    expect(fitted.leftOut.map(leftOutNote)).toEqual([
      'Candidates 1 and 2 gave a number where a name was asked, so they took no part in the choice.'
    ])
    const choice = preferFitting([cand('12', -1), cand('men', -2)], [one(12), one('men')], 'which was higher, women or men?')
    expect(choice.leftOut.map(leftOutNote)).toEqual([
      'Candidate 1 gave something other than one of the alternatives the question names (women, men), so it took no part in the choice.'
    ])
    expect(preferFitting([cand('a', -1)], [one('a')], 'what was the name of the ship?').leftOut).toEqual([])
  })

  it('leaves out true or false where no yes-or-no question was asked', () => {
    const candidates = [cand('true', -1), cand('true', -1.1), cand('rural', -2)]
    const gists = [one(true), one(true), one('rural areas')]
    const fitted = preferFitting(candidates, gists, 'which type of adults has a higher probability of food insecurity?')
    expect(voted(fitted.candidates)).toBe(2)
    expect(fitted.leftOut.map(leftOutNote)).toEqual([
      'Candidates 1 and 2 gave true or false where no yes-or-no question was asked, so they took no part in the choice.'
    ])
    // A list of flags, and "was …" questions, are left alone.
    expect(preferFitting(candidates, [{ size: 3 }, { size: 3 }, one('x')], 'which rows are flagged?').candidates).toBe(candidates)
    expect(answerTests('was the river longer than the canal?').map((t) => t.name)).not.toContain('not yes or no')
  })

  it('holds "or" questions without alternatives to no yes-or-no test', () => {
    expect(answerTests('did the hosts score more, or the visitors?').map((t) => t.name)).toEqual([])
    expect(answerTests('is the river longer than the canal?').map((t) => t.name)).toEqual(['yes or no'])
  })
})

describe('askAnswerGist', () => {
  const base: AskAnswer = { items: [], text: '', cells: [] }
  it('reads one value from items or a one-cell table; none from a chart', () => {
    expect(askAnswerGist({ ...base, items: [{ value: 4, type: 'number' }] })).toEqual({ size: 1, value: 4 })
    expect(
      askAnswerGist({
        ...base,
        items: [
          { value: 4, type: 'number' },
          { value: 5, type: 'number' }
        ]
      })
    ).toEqual({ size: 2 })
    const table = { columns: [['n']], indexNames: [], index: [], rows: [[7]], rowCount: 1 }
    expect(askAnswerGist({ ...base, table })).toEqual({ size: 1, value: 7 })
    const chart = { spec: {} as never, summary: 'chart' }
    expect(askAnswerGist({ ...base, chart })).toEqual({ size: 1 })
  })
})

describe('misfitNote', () => {
  it('tells a program whose one value does not fit the question what the question asks for', () => {
    expect(misfitNote('who received the fewest votes?', one(4874))).toMatch(
      /^The answer is 4874, but the question asks who: answer with the name/
    )
    expect(misfitNote('what year did the line open?', one('Paris'))).toMatch(/^The answer is "Paris", but the question asks for a year/)
    expect(misfitNote('how many schools are in the north?', one('North'))).toMatch(
      /^The answer is "North", but the question asks for one number/
    )
    expect(misfitNote('is the river longer than the canal?', one(12))).toBe(
      'The answer is 12, but the question asks yes or no: answer "yes" or "no".'
    )
    expect(misfitNote('which team scored the most goals?', one(true))).toMatch(
      /^The answer is true, a truth value, but the question does not ask yes or no/
    )
  })

  it('leaves answers that fit, several values, and questions without a cue alone', () => {
    expect(misfitNote('who received the fewest votes?', one('Karen Olsson'))).toBeNull()
    expect(misfitNote('what year did the line open?', one(1923))).toBeNull()
    for (const year of ['2010–11', '1982/83', 'May 3, 2010', '2010.']) expect(misfitNote('which year was it?', one(year)), year).toBeNull()
    // A volume or a longer number is no year.
    for (const other of [1633.9, '12345', 0.2011])
      expect(misfitNote('which year had the largest volume?', one(other)), String(other)).toMatch(/asks for a year/)
    expect(misfitNote('how many schools are in the north?', { size: 3 })).toBeNull()
    expect(misfitNote('who won?', { size: 2 })).toBeNull()
    expect(misfitNote('q 1', one(4874))).toBeNull()
    // A choice's alternatives are often reworded by right answers: no repair for those.
    expect(misfitNote('which was larger, the north or the south?', one('east'))).toBeNull()
  })
})
