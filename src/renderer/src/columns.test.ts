import { describe, expect, it } from 'vitest'
import { cellNumber, compareNumericCells, numericColumns } from './columns'

describe('cellNumber', () => {
  it('reads plain, grouped, signed, percent and currency numbers', () => {
    expect(cellNumber('42')).toBe(42)
    expect(cellNumber(' -3.5 ')).toBe(-3.5)
    expect(cellNumber('1,234,567')).toBe(1234567)
    expect(cellNumber('12%')).toBe(12)
    expect(cellNumber('$40.5')).toBe(40.5)
    expect(cellNumber('1e3')).toBe(1000)
    expect(cellNumber('−7')).toBe(-7)
  })

  it('rejects text, blanks and malformed grouping', () => {
    expect(cellNumber('')).toBeNull()
    expect(cellNumber('abc')).toBeNull()
    expect(cellNumber('12 apples')).toBeNull()
    expect(cellNumber('1,23')).toBeNull()
    expect(cellNumber('.')).toBeNull()
    expect(cellNumber('2019-05-01')).toBeNull()
  })
})

describe('numericColumns', () => {
  it('flags columns whose filled cells are numbers', () => {
    const rows = [
      ['Paris', '2,100', '', '1'],
      ['Lyon', '500', '', 'n/a'],
      ['Nice', '', '', '3']
    ]
    expect(numericColumns(rows, 4)).toEqual([false, true, false, false])
  })

  it('tolerates one stray cell in fifty', () => {
    const rows = Array.from({ length: 100 }, (_, i) => [i === 7 ? '—' : String(i)])
    expect(numericColumns(rows, 1)).toEqual([true])
  })
})

describe('compareNumericCells', () => {
  it('orders by value, then text, then blanks', () => {
    const cells = ['10', '', '9', 'n/a', '1,000', '-2']
    expect([...cells].sort(compareNumericCells)).toEqual(['-2', '9', '10', '1,000', 'n/a', ''])
  })
})
