import { describe, expect, it } from 'vitest'
import { buildColumnTree, indexDepth, trimTuple, type ColumnNode } from './headers'
import { compareNumbers, numericText } from './numeric'
import { ancestorKeys, columnNode, columnsUnder, indexNode, pathKey } from './selection'
import { rowSpans, sameSpan } from './spans'
import { keysToDepth, visibleItems } from './treeItems'
import type { HeaderNode } from '../../../../shared/table'

/** A compact picture of a column tree: groups as {label: children}, leaves as their column index. */
function shape(nodes: ColumnNode[]): unknown[] {
  return nodes.map((n) => (n.kind === 'leaf' ? n.index : { [n.label]: shape(n.children) }))
}

describe('buildColumnTree', () => {
  it('gives plain columns for one-level tuples', () => {
    expect(shape(buildColumnTree([['a'], ['b']]))).toEqual([0, 1])
  })

  it('nests shared prefixes into groups and keeps short tuples as plain columns', () => {
    const columns = [
      ['2023', 'Revenue', 'H1'],
      ['2023', 'Revenue', 'H2'],
      ['2023', 'Units', 'H1'],
      ['2024', 'Revenue', 'H1'],
      ['Change', '', '']
    ]
    expect(shape(buildColumnTree(columns))).toEqual([{ '2023': [{ Revenue: [0, 1] }, { Units: [2] }] }, { '2024': [{ Revenue: [3] }] }, 4])
    const change = buildColumnTree(columns)[2]
    expect(change).toMatchObject({ kind: 'leaf', label: 'Change', path: ['Change'] })
  })

  it('starts a new group when a label comes back after another, and names blank columns', () => {
    const tree = buildColumnTree([
      ['a', 'x'],
      ['b', 'x'],
      ['a', 'y'],
      ['', '']
    ])
    expect(shape(tree)).toEqual([{ a: [0] }, { b: [1] }, { a: [2] }, 3])
    expect(tree[3]).toMatchObject({ label: 'Column 4', path: [''] })
    const ids = tree.flatMap((n) => (n.kind === 'group' ? [n.id] : []))
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('trims only the padding at the end of a tuple', () => {
    expect(trimTuple(['a', '', 'b', '', ''])).toEqual(['a', '', 'b'])
    expect(indexDepth([['a'], ['a', 'b'], []])).toBe(2)
  })
})

describe('row spans', () => {
  const index = [
    ['North', ''],
    ['North', 'Tea'],
    ['North', 'Coffee'],
    ['South', 'Tea'],
    ['South', 'Tea'],
    ['', 'Tea']
  ]

  it('spans a label over the rows that share its whole path', () => {
    expect(rowSpans(index, 0)).toEqual([3, 0, 0, 2, 0, 1])
    expect(rowSpans(index, 1)).toEqual([1, 1, 1, 2, 0, 1])
  })

  it('never spans blank labels or equal labels under different parents', () => {
    expect(sameSpan(['a', ''], ['a', ''], 1)).toBe(false)
    expect(sameSpan(['a', 'x'], ['b', 'x'], 1)).toBe(false)
    expect(sameSpan(['a', 'x'], ['a', 'x'], 1)).toBe(true)
    expect(sameSpan(undefined, ['a'], 0)).toBe(false)
  })
})

describe('tree ↔ cells', () => {
  const columns = [
    ['2023', 'Revenue', 'H1'],
    ['2023', 'Revenue', 'H2'],
    ['2023', 'Units', 'H1'],
    ['2024', 'Revenue', 'H1'],
    ['Change', '', '']
  ]

  it('finds the columns under a top node at every level', () => {
    expect(columnsUnder(columns, ['2023'])).toEqual([0, 1, 2])
    expect(columnsUnder(columns, ['2023', 'Revenue'])).toEqual([0, 1])
    expect(columnsUnder(columns, ['2024', 'Revenue', 'H1'])).toEqual([3])
    expect(columnsUnder(columns, ['Change'])).toEqual([4])
    expect(columnsUnder(columns, [])).toEqual([])
  })

  it('maps a clicked column back to its leaf node, whose columns include it', () => {
    for (let j = 0; j < columns.length; j++) {
      const node = columnNode(columns, j)
      expect(node?.axis).toBe('top')
      expect(columnsUnder(columns, node?.path ?? [])).toContain(j)
    }
    expect(columnNode(columns, 4)?.path).toEqual(['Change'])
    expect(columnNode(columns, 9)).toBeNull()
  })

  it('maps an index cell to the node at its level, or to the row label when the cell is padding', () => {
    expect(indexNode(['North', 'Tea'], 0)).toEqual({ axis: 'left', path: ['North'] })
    expect(indexNode(['North', 'Tea'], 1)).toEqual({ axis: 'left', path: ['North', 'Tea'] })
    expect(indexNode(['North', ''], 1)).toEqual({ axis: 'left', path: ['North'] })
    expect(indexNode([], 0)).toBeNull()
  })

  it('lists the ancestors to expand so a node shows', () => {
    expect(ancestorKeys(['a', 'b', 'c'])).toEqual([pathKey(['a']), pathKey(['a', 'b'])])
  })
})

describe('numeric view', () => {
  it('groups digits, keeps the printed decimals and the percent sign', () => {
    expect(numericText('1 234', 1234)).toBe('1,234')
    expect(numericText('(12)', -12)).toBe('-12')
    expect(numericText('12.50*', 12.5)).toBe('12.50')
    expect(numericText('7%', 7)).toBe('7%')
  })

  it('groups digits only where the source grouped them', () => {
    expect(numericText('2021', 2021)).toBe('2021')
    expect(numericText('1234567.5', 1234567.5)).toBe('1234567.5')
    expect(numericText('1,234,567', 1234567)).toBe('1,234,567')
    expect(numericText('$3,500.25', 3500.25)).toBe('3,500.25')
    expect(numericText("12'345", 12345)).toBe('12,345')
  })

  it('sorts numbers by value before cells that are not numbers', () => {
    expect([3, null, -1, 10].sort(compareNumbers)).toEqual([-1, 3, 10, null])
  })
})

describe('tree items', () => {
  const node = (text: string, children: HeaderNode[] = []): HeaderNode => ({ text, cell: null, children })
  const leaf = (text: string): HeaderNode => node(text)
  const root = node('', [node('a', [leaf('a1'), leaf('a2')]), leaf('b')])

  it('shows children of expanded nodes only, with their level, position and parent', () => {
    expect(visibleItems(root, new Set()).map((i) => i.text)).toEqual(['a', 'b'])
    const open = visibleItems(root, new Set([pathKey(['a'])]))
    expect(open.map((i) => [i.text, i.level, i.posInSet, i.setSize, i.parentId])).toEqual([
      ['a', 1, 1, 2, null],
      ['a1', 2, 1, 2, '0'],
      ['a2', 2, 2, 2, '0'],
      ['b', 1, 2, 2, null]
    ])
    expect(open[1]?.path).toEqual(['a', 'a1'])
  })

  it('shows the first children of a long list and counts the rest', () => {
    const long = node('', [node('big', [leaf('x'), leaf('y'), leaf('z')]), leaf('after')])
    const items = visibleItems(long, new Set([pathKey(['big'])]), 100, 2)
    expect(items.map((i) => [i.text, i.more])).toEqual([
      ['big', 0],
      ['x', 0],
      ['y', 1],
      ['after', 0]
    ])
  })

  it('opens parents down to a depth', () => {
    expect([...keysToDepth(root, 1)]).toEqual([pathKey(['a'])])
    expect(keysToDepth(root, 0).size).toBe(0)
  })
})
