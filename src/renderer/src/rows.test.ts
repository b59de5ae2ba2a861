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
  it('numbers rows from the block start', () => {
    expect(toGridRows(5, [['a'], ['b']])).toEqual([
      { n: 5, cells: ['a'] },
      { n: 6, cells: ['b'] }
    ])
  })
})
