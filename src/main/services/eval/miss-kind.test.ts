import { describe, expect, it } from 'vitest'
import { errorKind, missKind, norm } from './miss-kind'
import type { CandidateRecord, ShapedAnswer } from './types'

const ran = (answer: ShapedAnswer): CandidateRecord => ({ program: 'answer = 1', ok: true, answer })
const failed = (error: string): CandidateRecord => ({ program: 'answer = x', ok: false, error })
const texts = new Set(['alice', 'bob', '1200', '35', 'total', '2019'])
const read = (chosen: CandidateRecord | null, answer: ShapedAnswer | null, gold: unknown[] | null = ['42']) =>
  missKind({ candidates: chosen === null ? [{ program: '', ok: false, error: 'no program' }] : [chosen], chosen, answer, gold, texts })

describe('reading what kind of miss a question is', () => {
  it('tells no program, a failed program (with its error), and an empty answer apart', () => {
    expect(read(null, null)).toEqual({ kind: 'no-program' })
    expect(read(failed("python-error: KeyError: 'sales'"), null)).toEqual({ kind: 'error', detail: 'KeyError' })
    expect(read(failed("HeaderNotFound: No row header matches 'customer'."), null)).toEqual({ kind: 'error', detail: 'HeaderNotFound' })
    expect(read(failed('The program did not finish within the time limit (30 s).'), null)).toEqual({ kind: 'error', detail: 'timeout' })
    expect(read(failed("The program's answer is empty (float nan)."), null)).toEqual({ kind: 'empty' })
  })

  it('tells the right value in another form from a wrong one', () => {
    expect(read(ran({ kind: 'scalar', value: 0.42 }), { kind: 'scalar', value: 0.42 }, ['42'])).toEqual({ kind: 'answer-form' })
    expect(read(ran({ kind: 'list', items: ['Bob', 'Alice'] }), { kind: 'list', items: ['Bob', 'Alice'] }, ['alice', 'bob'])).toEqual({
      kind: 'answer-form'
    })
    const table: ShapedAnswer = {
      kind: 'table',
      rows: [
        ['alice', 1200],
        ['bob', 35]
      ]
    }
    expect(read(ran(table), table, ['7'])).toEqual({ kind: 'table-answer' })
  })

  it('tells a value read from the wrong cell from a number the table does not hold', () => {
    expect(read(ran({ kind: 'scalar', value: '1,200' }), { kind: 'scalar', value: '1,200' })).toEqual({ kind: 'wrong-cell' })
    expect(read(ran({ kind: 'scalar', value: 'Alice' }), { kind: 'scalar', value: 'Alice' })).toEqual({ kind: 'wrong-cell' })
    expect(read(ran({ kind: 'scalar', value: 1235 }), { kind: 'scalar', value: 1235 })).toEqual({ kind: 'wrong-arithmetic' })
    expect(read(ran({ kind: 'scalar', value: 'Carol' }), { kind: 'scalar', value: 'Carol' })).toEqual({ kind: 'other' })
  })

  it('puts a miss on a gold answer its own annotation does not support under gold problems', () => {
    const chosen = ran({ kind: 'scalar', value: 5 })
    expect(missKind({ candidates: [chosen], chosen, answer: { kind: 'scalar', value: 5 }, gold: ['6'], texts, goldSuspect: true })).toEqual(
      {
        kind: 'gold-problem'
      }
    )
  })

  it('compares numbers whatever their printed form', () => {
    expect(norm('1,200')).toBe(norm(1200))
    expect(norm(' Alice. ')).toBe('alice')
    expect(errorKind('AttributeError: no attribute x')).toBe('AttributeError')
  })
})
