import { describe, expect, it } from 'vitest'
import type { CandidateRecord, QuestionRecord } from '../../src/main/services/eval/types'
import {
  agreementOf,
  anyRight,
  calibration,
  eaWith,
  missKinds,
  partQuestions,
  partRange,
  pickWith,
  programs,
  sampleOf
} from '../../scripts/bench/model-report'

const c = (answer: string | null, correct: boolean, logprob: number, extra: Partial<CandidateRecord> = {}): CandidateRecord => ({
  program: answer === null ? 'fail' : `answer = ${answer}`,
  ok: answer !== null,
  ...(answer === null ? { error: 'KeyError: x' } : { answer: { kind: 'scalar', value: answer }, correct }),
  logprobSum: logprob,
  ...extra
})

const q = (id: string, candidates: CandidateRecord[], correct: boolean, miss?: QuestionRecord['miss']): QuestionRecord => ({
  id,
  question: id,
  tableKey: 't',
  types: {},
  program: null,
  candidates,
  answer: null,
  gold: [],
  correct,
  error: null,
  timeMs: 1,
  tokens: null,
  ...(miss === undefined ? {} : { miss })
})

// 1: the most probable program is wrong, three others agree on the right answer.
// 2: all five agree, right. 3: split, the most probable is right. 4: nothing ran.
const records = [
  q('1', [c('7', false, -1), c('9', true, -3), c('9', true, -4), c('9', true, -5), c(null, false, -2)], false, {
    category: 'model',
    evidence: '',
    kind: 'wrong-cell'
  }),
  q(
    '2',
    [1, 2, 3, 4, 5].map((k) => c('5', true, -k)),
    true
  ),
  q('3', [c('1', true, -1), c('2', false, -2), c('3', false, -3), c(null, false, -4), c(null, false, -5)], true),
  q('4', [c(null, false, -1), c(null, false, -2)], false, { category: 'api', evidence: '', kind: 'error', detail: 'KeyError' })
]

describe('what the model bench reports from its logs', () => {
  it('compares selection rules on the same candidates, and what a perfect choice would reach', () => {
    expect(eaWith(records, 'logprob')).toBe(50)
    expect(eaWith(records, 'vote')).toBe(75)
    expect(anyRight(records)).toBe(75)
  })

  it('tells how many programs agree with the answer, and how right each level of agreement is', () => {
    expect(agreementOf(records[0] as QuestionRecord, 'vote')).toEqual({ level: 'majority', agree: 3, of: 5 })
    expect(agreementOf(records[1] as QuestionRecord, 'vote')).toEqual({ level: 'all agree', agree: 5, of: 5 })
    expect(agreementOf(records[2] as QuestionRecord, 'logprob')).toEqual({ level: 'split', agree: 1, of: 5 })
    expect(calibration(records, 'vote')).toEqual([
      { level: 'all agree', questions: 1, correct: 1, ea: 100 },
      { level: 'majority', questions: 1, correct: 1, ea: 100 },
      { level: 'split', questions: 1, correct: 1, ea: 100 },
      { level: 'none ran', questions: 1, correct: 0, ea: 0 }
    ])
  })

  it('gives an empty answer no vote, as the app does', () => {
    const empty = (logprob: number, answer: CandidateRecord['answer']): CandidateRecord => ({
      program: 'p',
      ok: true,
      answer,
      logprobSum: logprob
    })
    const record = q(
      '6',
      [
        c('Wolfe Tones', true, -8),
        empty(-2, { kind: 'table', rows: [] }),
        empty(-1, { kind: 'none' }),
        empty(-3, { kind: 'list', items: [] })
      ],
      true
    )
    expect(pickWith(record, 'vote')).toBe(0)
    expect(pickWith(record, 'logprob')).toBe(0)
    expect(pickWith(q('7', [empty(-1, { kind: 'scalar', value: null })], false), 'vote')).toBe(0)
  })

  it('prefers one value over whole rows where one number was asked, as the app does', () => {
    const row = (logprob: number): CandidateRecord => ({
      program: 'row',
      ok: true,
      answer: { kind: 'list', items: [9.2, 7.1] },
      logprobSum: logprob
    })
    const record = { ...q('8', [row(-1), row(-1), c('7.1', true, -4)], true), question: 'how many percent of men worked in trade?' }
    expect(pickWith(record, 'vote')).toBe(2)
    expect(pickWith(record, 'logprob')).toBe(2)
    expect(pickWith({ ...record, question: 'which values were reported for trade?' }, 'vote')).toBe(0)
  })

  it('counts misses by kind and failed programs by error, and the programs that ran before and after repair', () => {
    expect(missKinds(records)).toEqual({ kinds: { 'wrong-cell': 1, error: 1 }, errors: { KeyError: 1 } })
    const withRepair = [q('5', [c('1', true, -1, { repairedFrom: { program: 'x', error: 'NameError' } }), c(null, false, -2)], true)]
    expect(programs(withRepair)).toMatchObject({ samples: 2, ranPct: 50, ranFirstPct: 0, repairs: 1, repairsRan: 1, repairsRepeated: 0 })
    const repeated = [q('6', [c(null, false, -1, { repairedFrom: { program: 'fail\n', error: 'KeyError: x' } })], false)]
    expect(programs(repeated)).toMatchObject({ repairs: 1, repairsRan: 0, repairsRepeated: 1 })
    // Per round: a candidate corrected twice was asked for in both rounds and ran after the second.
    const twice = { program: 'b', error: 'KeyError: b', before: { program: 'a', error: 'KeyError: a' } }
    const rounds = [
      q('7', [c('1', true, -1, { repairedFrom: twice }), c(null, false, -2, { repairedFrom: twice }), ...withRepair[0]!.candidates], true)
    ]
    expect(programs(rounds)).toMatchObject({
      repairs: 3,
      repairsRan: 2,
      rounds: [
        { round: 1, asked: 3, ran: 1 },
        { round: 2, asked: 2, ran: 1 }
      ]
    })
    expect(programs(records).rounds).toEqual([])
  })
})

describe('which questions a bench sample holds', () => {
  it('reads counts, ranges counted from 1 and the default', () => {
    expect(sampleOf('wikitq:50,hitab:26-50', undefined)).toEqual([
      { dataset: 'wikitq', offset: 0, count: 50 },
      { dataset: 'hitab', offset: 25, count: 25 }
    ])
    expect(sampleOf(undefined, 10).map((p) => [p.dataset, p.count])).toEqual([
      ['wikitq', 10],
      ['hitab', 10],
      ['aitqa', 25],
      ['spider', 25]
    ])
    const part = sampleOf('aitqa:3-4', undefined)[0]
    expect(part && partQuestions(part, ['q1', 'q2', 'q3', 'q4', 'q5'])).toEqual(['q3', 'q4'])
    expect(part && partRange(part)).toBe('3-4')
    expect(partRange({ dataset: 'wikitq', offset: 0, count: 7 })).toBe('7')
  })

  it('refuses what is no count or range of a known dataset', () => {
    for (const bad of ['wikitq', 'wikitq:0', 'wikitq:5-3', 'wikitq:0-4', 'nope:5', 'hitab:a-b', 'hitab:2.5'])
      expect(() => sampleOf(bad, undefined), bad).toThrow(/--sample/)
  })
})
