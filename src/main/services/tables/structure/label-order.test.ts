import { describe, expect, it } from 'vitest'
import type { RawGrid } from '../../../../shared/table'
import { normalizeGrid, rawText } from './grid'
import { labelOrder, reorderColumns } from './label-order'

describe('a grid read with its label column in front', () => {
  it('puts the label columns first and keeps the others in their order', () => {
    expect(labelOrder(6, 2, 1)).toEqual([2, 0, 1, 3, 4, 5])
    expect(labelOrder(5, 1, 2)).toEqual([1, 2, 0, 3, 4])
  })

  it('moves cells, indentation and merges with their columns, and cuts a merge the move splits', () => {
    const raw: RawGrid = {
      name: 't',
      cells: [
        ['Index', 'Name', 'Years', '', ''],
        ['', '', '2020', '2021', '2022'],
        ['1', 'World', '10', '11', '12'],
        ['2', '  Africa', '4', '5', '6']
      ],
      // "Index" over two rows; "Years" over the three year columns; a band over the first two columns.
      merges: [
        { top: 0, left: 0, bottom: 1, right: 0 },
        { top: 0, left: 2, bottom: 0, right: 4 }
      ],
      styles: { '3,1': { indent: 1 } },
      warnings: []
    }
    const g = reorderColumns(normalizeGrid(raw), labelOrder(5, 1, 1))
    expect(g.cells[2]).toEqual(['World', '1', '10', '11', '12'])
    expect(g.indent(3, 0)).toBe(1)
    expect(g.indent(3, 1)).toBe(0)
    expect(g.merges).toEqual([
      { top: 0, left: 1, bottom: 1, right: 1 },
      { top: 0, left: 2, bottom: 0, right: 4 }
    ])
    expect(rawText(g, 1, 1)).toBe('')
    expect(rawText(g, 0, 2)).toBe('Years')
    expect(rawText(g, 0, 3)).toBe('')
  })

  it('keeps the text of a merge whose first column moves behind the label column at the first cell of its run', () => {
    const raw: RawGrid = {
      name: 't',
      cells: [
        ['Population by location', '', '', ''],
        ['1', 'World', '10', '11']
      ],
      merges: [{ top: 0, left: 0, bottom: 0, right: 3 }],
      warnings: []
    }
    const g = reorderColumns(normalizeGrid(raw), labelOrder(4, 1, 1))
    expect(g.merges).toEqual([{ top: 0, left: 0, bottom: 0, right: 3 }])
    expect(rawText(g, 0, 0)).toBe('Population by location')
    expect(rawText(g, 1, 0)).toBe('World')
  })
})
