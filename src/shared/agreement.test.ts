import { describe, expect, it } from 'vitest'
import { agreementOf, normaliseAnswerKey } from './agreement'

const c = (keys: (string | null)[]): { index: number; answerKey: string | null }[] => keys.map((answerKey, index) => ({ index, answerKey }))

describe('how many programs agree with the answer', () => {
  it('says all, most, or that they disagree and the answer needs checking', () => {
    expect(agreementOf(c(['42', '42', '42.0', '42', ' 42 ']), 0)?.text).toBe('All 5 programs agree.')
    expect(agreementOf(c(['42', '42', '7', '42', null]), 1)).toMatchObject({
      agree: 3,
      ran: 4,
      of: 5,
      level: 'most',
      text: '3 of 5 programs agree.'
    })
    expect(agreementOf(c(['42', '7', '8', null, null]), 0)).toMatchObject({
      level: 'split',
      text: 'The programs disagree: only this one gave this answer (2 failed). Check it.'
    })
    expect(agreementOf(c(['1,200', '1200', '9', '8']), 0)?.text).toBe('The programs disagree: only 2 of 4 gave this answer. Check it.')
  })

  it('has nothing to say without an answer, and says so for a single program', () => {
    expect(agreementOf(c([null, '3']), 0)).toBeNull()
    expect(agreementOf(c(['3']), null)).toBeNull()
    expect(agreementOf(c(['3']), 0)?.level).toBe('alone')
    expect(normaliseAnswerKey('"Spain"')).toBe('spain')
  })
})
