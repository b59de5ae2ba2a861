import { describe, expect, it } from 'vitest'
import type { HeaderNode } from '../../../shared/table'
import { choiceText, moveProblem, parentChoices, pathOfRow, rowAt } from './moves'

function n(text: string, row: number, col: number, children: HeaderNode[] = []): HeaderNode {
  return { text, cell: { row, col }, children }
}

// Rows 1–6 of a report with two label columns: "North | Oslo" is one row of two nodes.
const tree: HeaderNode = {
  text: '',
  cell: null,
  children: [
    n('All', 1, 0, [n('North', 2, 0, [n('Oslo', 2, 1, [n('Centre', 3, 1)]), n('Bergen', 4, 1)]), n('South', 5, 0)]),
    n('Notes', 6, 0)
  ]
}

describe('moving rows: what the inspector offers', () => {
  it('names the row of a node by its outermost node, with the row it sits under', () => {
    expect(rowAt(tree, ['All', 'North', 'Oslo'])).toEqual({ row: 2, label: 'North', path: ['All', 'North'], parentRow: 1 })
    expect(rowAt(tree, ['All', 'North', 'Oslo', 'Centre'])).toEqual({
      row: 3,
      label: 'Centre',
      path: ['All', 'North', 'Oslo', 'Centre'],
      parentRow: 2
    })
    expect(rowAt(tree, ['All'])?.parentRow).toBeNull()
    expect(rowAt(tree, ['Nowhere'])).toBeNull()
    expect(pathOfRow(tree, 4)).toEqual(['All', 'North', 'Bergen'])
    expect(pathOfRow(tree, 9)).toBeNull()
  })

  it('offers the rows above, marks the current parent and the rows nested under the moved one', () => {
    const choices = parentChoices(tree, 5)
    expect(choices.map(choiceText)).toEqual([
      'All (sheet row 2) — its parent now',
      'North (sheet row 3) — under All',
      'Centre (sheet row 4) — under All › North › Oslo',
      'Bergen (sheet row 5) — under All › North'
    ])
    expect(choices.map((c) => [c.row, c.current, c.inside])).toEqual([
      [1, true, false],
      [2, false, false],
      [3, false, false],
      [4, false, false]
    ])
    // Rows above that sit under the moved row (after an earlier move) cannot take it.
    const moved: HeaderNode = { text: '', cell: null, children: [n('All', 1, 0, [n('South', 5, 0, [n('North', 2, 0)])])] }
    const inside = parentChoices(moved, 5).find((c) => c.row === 2)
    expect(inside?.inside).toBe(true)
    const south = rowAt(moved, ['All', 'South'])
    if (south === null || inside === undefined) throw new Error('expected rows')
    expect(moveProblem(south, inside)).toBe("'North' is nested under 'South': a row cannot go under one of its own rows.")
    expect(moveProblem(south, { ...south, current: false, inside: false })).toBe("'South' cannot go under itself.")
    expect(moveProblem(south, { row: 1, label: 'All', path: ['All'], current: true, inside: false })).toBeNull()
  })
})
