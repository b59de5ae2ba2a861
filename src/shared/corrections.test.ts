import { describe, expect, it } from 'vitest'
import { MAX_ROW_MOVES, readRowMoves, withRowMove, type RowMove } from './corrections'

const a: RowMove = { row: 11, label: 'Chemistry', under: 6, underLabel: 'Life sciences' }
const b: RowMove = { row: 10, label: 'Physical sciences', under: null, underLabel: '' }

describe('rows moved by hand', () => {
  it('reads valid moves and says why each other entry was left out', () => {
    const read = readRowMoves([
      a,
      { ...a, row: 2.5 },
      { ...a, under: 'six' },
      { ...a, label: 7 },
      { row: 4, label: 'x', under: 4, underLabel: 'x' },
      null,
      b
    ])
    expect(read.moves).toEqual([a, b])
    expect(read.problems).toEqual([
      'move 2: its row is not a row number',
      'move 3: the row it goes under is not a row number',
      'move 4: its labels are missing',
      'move 5: row 5 cannot go under itself',
      'move 6: it is not an object'
    ])
    expect(readRowMoves(undefined)).toEqual({ moves: [], problems: [] })
    expect(readRowMoves('moves')).toEqual({ moves: [], problems: ['the moved rows are not a list'] })
  })

  it('keeps the last move of a row, in the place of the last', () => {
    const again = { ...a, under: null, underLabel: '' }
    expect(readRowMoves([a, b, again]).moves).toEqual([b, again])
    expect(withRowMove([a, b], 11, again)).toEqual([b, again])
    expect(withRowMove([a, b], 11, null)).toEqual([b])
  })

  it('bounds how many moves it reads', () => {
    const many = Array.from({ length: MAX_ROW_MOVES + 3 }, (_, i) => ({ row: i + 1, label: '', under: null, underLabel: '' }))
    const read = readRowMoves(many)
    expect(read.moves).toHaveLength(MAX_ROW_MOVES)
    expect(read.problems).toEqual([`3 moves past the first ${MAX_ROW_MOVES} were left out`])
  })
})
