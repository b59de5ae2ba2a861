import { describe, expect, it } from 'vitest'
import { matchTables } from './sheetSearch'

const tables = ['book.xlsx › Table 1.1', 'book.xlsx › Table 1.2 Employment', 'book.xlsx › Notes'].map((name) => ({ name }))

describe('finding a table by name', () => {
  it('keeps the tables whose name holds every word, in their order, ignoring case', () => {
    expect(matchTables(tables, 'table employ').map((t) => t.name)).toEqual(['book.xlsx › Table 1.2 Employment'])
    expect(matchTables(tables, 'TABLE 1.').map((t) => t.name)).toHaveLength(2)
    expect(matchTables(tables, 'cash')).toEqual([])
  })

  it('lists every table for an empty query', () => {
    expect(matchTables(tables, '  ')).toHaveLength(3)
  })
})
