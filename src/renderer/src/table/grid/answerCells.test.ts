import { describe, expect, it } from 'vitest'
import { toGridRows } from '../rows'
import { answerCells, answerColumns, answerRows, NO_ANSWER_CELLS, readByAnswer } from './answerCells'

// A sheet with a title row and one header row above the data, and one left header column: data rows
// come from source rows 2.., data columns from source columns 1...
const block = {
  start: 0,
  rows: [
    ['10', '11'],
    ['20', '21'],
    ['30', '31']
  ],
  rowSource: [2, 3, 4],
  colSource: [1, 2]
}

describe('answer cells on the grid', () => {
  it('maps source cells to the grid cells showing them', () => {
    const rows = toGridRows(block)
    const answer = answerCells(
      [
        { row: 3, col: 2 },
        { row: 4, col: 1 }
      ],
      block.colSource
    )
    const read = rows.flatMap((row) => [0, 1].filter((j) => readByAnswer(answer, row.source, j)).map((j) => row.cells[j]))
    expect(read).toEqual(['21', '30'])
    expect(answerColumns(answer)).toEqual([0, 1])
    expect([...answerRows(answer)].sort()).toEqual([3, 4])
  })

  it('marks nothing for header cells, unknown rows or before the columns are known', () => {
    const header = answerCells([{ row: 1, col: 1 }], block.colSource)
    expect(toGridRows(block).some((row) => readByAnswer(header, row.source, 0) || readByAnswer(header, row.source, 1))).toBe(false)
    expect(answerCells([{ row: 2, col: 1 }], null)).toBe(NO_ANSWER_CELLS)
    const answer = answerCells([{ row: 2, col: 1 }], block.colSource)
    expect(readByAnswer(answer, undefined, 0)).toBe(false)
    expect(readByAnswer(answer, 2, 0)).toBe(true)
    expect(readByAnswer(answer, 2, 5)).toBe(false)
  })
})
