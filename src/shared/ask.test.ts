import { describe, expect, it } from 'vitest'
import { answerHeadline, type AnswerTable } from './ask'

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
