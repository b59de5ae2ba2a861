import { describe, expect, it } from 'vitest'
import { Workspace } from './workspace'

describe('workspace row blocks', () => {
  it('carry the source row of each row and the source column of each data column', async () => {
    const workspace = new Workspace({ maxTables: 4, maxCells: 1_000_000 })
    const bytes = new TextEncoder().encode('city,2019,2020\nOslo,1,2\nBergen,3,4\nTromso,5,6\n')
    const opened = await workspace.open('cities.csv', bytes)
    if (!opened.ok) throw new Error(opened.error.message)
    const table = opened.value[0]
    if (!table) throw new Error('no table')
    const block = workspace.rows(table.id, 1, 2)
    if (!block.ok) throw new Error(block.error.message)
    // Each shown cell is the source cell its row and column point to.
    const source = ['city,2019,2020', 'Oslo,1,2', 'Bergen,3,4', 'Tromso,5,6'].map((line) => line.split(','))
    block.value.rows.forEach((row, i) => {
      row.forEach((cell, j) => {
        expect(source[block.value.rowSource[i] ?? -1]?.[block.value.colSource[j] ?? -1]).toBe(cell)
      })
    })
    expect(block.value.rowSource).toHaveLength(2)
  })
})
