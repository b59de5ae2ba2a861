import { describe, expect, it } from 'vitest'
import { answerHeadline, answerTableText, type AnswerTable } from './ask'

const table = (rows: number, cols: number): AnswerTable => ({
  columns: Array.from({ length: cols }, (_, i) => [`c${i}`]),
  indexNames: [],
  index: [],
  rows: [],
  rowCount: rows
})

describe('answerHeadline', () => {
  it('names a table of several rows and columns by its size, not by its values', () => {
    expect(answerHeadline({ text: '1, 2, 3, 4', table: table(2, 2) })).toBe('A table of 2 rows × 2 columns')
    expect(answerHeadline({ text: 'x', table: table(12_500, 3) })).toBe('A table of 12,500 rows × 3 columns')
  })
  it('keeps the text of one value, a list, a one-row table and a chart', () => {
    expect(answerHeadline({ text: '24.2' })).toBe('24.2')
    expect(answerHeadline({ text: 'a, b, c', table: table(3, 1) })).toBe('a, b, c')
    expect(answerHeadline({ text: 'a, 1', table: table(1, 2) })).toBe('a, 1')
    expect(answerHeadline({ text: 'Chart: bar', table: table(5, 2), chart: {} as never })).toBe('Chart: bar')
    expect(answerHeadline({ text: '' })).toBe('(empty)')
  })
})

describe('answerTableText', () => {
  it('lays a hierarchical table out as aligned text: header levels, index on the left, numbers right-aligned', () => {
    const t: AnswerTable = {
      columns: [
        ['2024', 'H1'],
        ['2024', 'H2'],
        ['2025', 'H1']
      ],
      indexNames: ['region'],
      index: [['North'], ['South-east']],
      rows: [
        [1200, 15.5, null],
        [7, 1234567, 'n/a']
      ],
      rowCount: 2
    }
    expect(answerTableText(t).split('\n')).toEqual([
      '            2024              2025',
      'region      H1     H2         H1',
      'North       1,200       15.5',
      'South-east      7  1,234,567  n/a'
    ])
  })

  it('shows the first rows and says how many more there are', () => {
    const t: AnswerTable = {
      columns: [['name'], ['n']],
      indexNames: [],
      index: [],
      rows: Array.from({ length: 30 }, (_, i) => [`item ${i}`, i]),
      rowCount: 500
    }
    const lines = answerTableText(t, 5).split('\n')
    expect(lines).toHaveLength(1 + 5 + 1)
    expect(lines[0]).toBe('name    n')
    expect(lines[1]).toBe('item 0  0')
    expect(lines.at(-1)).toBe('… 495 more rows')
  })
})
