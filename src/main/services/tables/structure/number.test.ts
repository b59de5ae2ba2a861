import { describe, expect, it } from 'vitest'
import { cellKind, isDateLike, isYearLike, parseNumber, periodShape } from './number'

describe('parseNumber', () => {
  it.each([
    ['1,234', 1234],
    ['(12)', -12],
    ['12%', 12],
    ['$3.5', 3.5],
    ['−5', -5],
    ['-5', -5],
    ['1 234 567', 1234567],
    ['1\u00a0234', 1234],
    ['$(1,844)', -1844],
    ['(0.5)%', -0.5],
    ['12.5*', 12.5],
    ['7†', 7],
    ['3.1E', 3.1],
    ['40 (a)', 40],
    ['12¹', 12],
    ['+20', 20],
    ['.5', 0.5],
    ['1,234.50', 1234.5],
    ['  42  ', 42]
  ])('reads %s as %d', (text, value) => {
    expect(parseNumber(text)).toBe(value)
  })

  it.each(['—', '-', '..', '...', 'x', 'F', 'n/a', '', 'abc', '12,34', '2:44:46', '95% ci', '737-700', 'total'])(
    'reads %s as null',
    (text) => {
      expect(parseNumber(text)).toBeNull()
    }
  )

  it('agrees with Number on plain decimals', () => {
    for (const s of ['0.1', '-3.546', '10.476', '4.940', '123456789.123']) expect(parseNumber(s)).toBe(Number(s))
  })

  it('reads every decimal of up to 15 digits exactly as Number does, and longer ones too', () => {
    // A fixed sequence (a linear congruential generator), so that a failure repeats.
    let seed = 12345
    const digit = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) % 10
    const digits = (n: number): string => Array.from({ length: n }, digit).join('')
    for (let k = 0; k < 20000; k++) {
      const whole = digits(1 + (k % 9))
      const fraction = digits(1 + ((k * 7) % 10))
      const text = `${k % 2 === 0 ? '-' : ''}${whole}.${fraction}`
      expect(Object.is(parseNumber(text), Number(text)), text).toBe(true)
    }
    for (const text of ['1,234.5678', '-12,345,678.9', '0.000000000000001', '-0.0', '9007199254740.993', '123456789012.3456789'])
      expect(Object.is(parseNumber(text), Number(text.replace(/,/g, ''))), text).toBe(true)
  })

  it('reads text without a digit as no number', () => {
    for (const text of ['Exports', 'apps', ':', '$', '(a)', '%', 'USD', '—']) expect(parseNumber(text), text).toBeNull()
  })
})

describe('cell kinds', () => {
  it('tells years, numbers, markers and text apart', () => {
    expect(isYearLike('2016')).toBe(true)
    expect(isYearLike('2016-17')).toBe(true)
    expect(isYearLike('2016 (a)')).toBe(true)
    expect(isYearLike('1234')).toBe(false)
    expect(cellKind('..')).toBe('missing')
    expect(cellKind('1,234')).toBe('number')
    expect(cellKind('percent')).toBe('text')
    expect(cellKind('   ')).toBe('empty')
  })

  it('reads the dates that label time series rows', () => {
    for (const date of [
      '2016',
      'Sep-1948',
      'Sep 48',
      'September 1948',
      '1948-09',
      '1948-09-30',
      '30/09/1948',
      '9/30/1948',
      '1948 Q3',
      'Q3 1948',
      '1948M09',
      'Dec. 31, 2024',
      'September 30 2024',
      '31 Dec 2024',
      '31-Dec-2024'
    ]) {
      expect(isDateLike(date), date).toBe(true)
    }
    for (const text of [
      'Series ID',
      'A2325806K',
      '282',
      '3.7',
      'Sep',
      'May the fourth',
      '13/13/1948',
      '1948-1-40',
      'Marathon 1948',
      'Dec. 41, 2024',
      'May 5 runners'
    ]) {
      expect(isDateLike(text), text).toBe(false)
    }
  })
})

describe('periodShape', () => {
  it('gives rows of one time series the same form, marks left out', () => {
    expect(periodShape('1971 [x]')).toBe(periodShape('1976'))
    expect(periodShape('1997 (a)')).toBe('9999')
    expect(periodShape('Sep-1953')).toBe('aaa-9999')
    expect(periodShape('2019 Q1')).not.toBe(periodShape('2019'))
    expect(periodShape('Total')).toBeNull()
  })
})
