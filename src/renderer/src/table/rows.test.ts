import { describe, expect, it } from 'vitest'
import { nextBlock, toGridRows } from './rows'

describe('nextBlock', () => {
  it('walks the table in blocks and stops at rowCount', () => {
    const blocks: { start: number; count: number }[] = []
    let loaded = 0
    for (let b = nextBlock(loaded, 45_000); b; b = nextBlock(loaded, 45_000)) {
      blocks.push(b)
      loaded += b.count
    }
    expect(blocks).toEqual([
      { start: 0, count: 20_000 },
      { start: 20_000, count: 20_000 },
      { start: 40_000, count: 5_000 }
    ])
  })

  it('asks for nothing on an empty table', () => {
    expect(nextBlock(0, 0)).toBeNull()
  })
})

describe('toGridRows', () => {
  it('numbers rows from the block start and spreads numbers to their columns', () => {
    const rows = toGridRows({
      start: 5,
      rows: [
        ['a', '1'],
        ['b', 'x']
      ],
      index: [['r1'], ['r2']],
      numbers: { columns: [1], values: [[1, null]] }
    })
    expect(rows).toEqual([
      { n: 5, cells: ['a', '1'], index: ['r1'], numbers: [undefined, 1] },
      { n: 6, cells: ['b', 'x'], index: ['r2'], numbers: [undefined, null] }
    ])
  })

  it('reads blocks without an index or numbers as a flat table', () => {
    expect(toGridRows({ start: 0, rows: [['a']] })).toEqual([{ n: 0, cells: ['a'], index: [], numbers: [] }])
  })
})
