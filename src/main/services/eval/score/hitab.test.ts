import { describe, expect, it } from 'vitest'
import { hitabCorrect, processAnswer, processScalar } from './hitab'

describe('HiTab answer processing', () => {
  it('reads numbers from text: brackets lose the sign, one % or ) goes, commas go', () => {
    expect(processScalar('(12)')).toEqual({ kind: 'float', value: 12 })
    expect(processScalar('52.1%')).toEqual({ kind: 'float', value: 52.1 })
    expect(processScalar('1,234')).toEqual({ kind: 'float', value: 1234 })
    expect(processScalar(7)).toEqual({ kind: 'float', value: 7 })
  })
  it('normalises other strings as WikiTQ does, from the stripped lower-cased original', () => {
    expect(processScalar(' Café (a) ')).toEqual({ kind: 'string', value: 'cafe' })
    expect(processScalar('%%')).toEqual({ kind: 'string', value: '%%' })
  })
  it('reduces one-element lists and one-cell, one-row or one-column matrices', () => {
    expect(processAnswer([3])).toEqual({ kind: 'float', value: 3 })
    expect(processAnswer([[3]])).toEqual({ kind: 'float', value: 3 })
    expect(processAnswer([[1, 2]])).toEqual({
      kind: 'list',
      items: [
        { kind: 'float', value: 1 },
        { kind: 'float', value: 2 }
      ]
    })
    expect(processAnswer([[1], [2]])).toEqual({
      kind: 'list',
      items: [
        { kind: 'float', value: 1 },
        { kind: 'float', value: 2 }
      ]
    })
    expect(
      processAnswer([
        [1, 2],
        [3, 4]
      ]).kind
    ).toBe('list')
  })
})

describe('HiTab answer matching', () => {
  it('compares floats within 1e-5', () => {
    expect(hitabCorrect([0.351438], 0.3514382)).toBe(true)
    expect(hitabCorrect([0.351438], 35.14)).toBe(false)
    expect(hitabCorrect([1234], '1,234')).toBe(true)
  })
  it('is strict on type: a number never equals a string, a scalar never a list', () => {
    expect(hitabCorrect(['n/a'], 0)).toBe(false)
    expect(hitabCorrect([1, 2], 1)).toBe(false)
  })
  it('compares lists element-wise in order', () => {
    expect(hitabCorrect([24.7, 14.6], [24.7, 14.6])).toBe(true)
    expect(hitabCorrect([24.7, 14.6], [14.6, 24.7])).toBe(false)
    expect(hitabCorrect(['Quebec'], 'quebec')).toBe(true)
  })
})
