import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { RowMove } from '../../../shared/corrections'
import type { HeaderNode, RawGrid } from '../../../shared/table'
import { datasetsDir } from '../paths'
import { applyRowMoves, correctWhy } from './corrections'
import { importFileSync } from './import'
import { prepareTable } from './prepare'
import { splitSideBySide, structureGrid } from './structure'
import { explainStructure } from './structure/explain'

// The NSF's doctorates by field: "All fields" over broad fields, each over its fields by indentation.
function phd(): RawGrid {
  const name = 'PhD_major-field.xlsx'
  const read = importFileSync(name, new Uint8Array(readFileSync(join(datasetsDir(), 'spreadsheets', 'tidyabs', name))))
  if (!read.ok) throw new Error(read.error.message)
  const grid = read.value.flatMap(splitSideBySide)[0]
  if (grid === undefined) throw new Error('no sheet')
  return grid
}

// Sheet rows of the PhD table (0-based).
const LIFE = 6
const AGRICULTURE = 7
const HEALTH = 9
const PHYSICAL = 10
const CHEMISTRY = 11
const PHYSICS = 13

const LIFE_LABEL = 'Life sciences'
const PHYSICAL_LABEL = 'Physical sciences and earth sciences'

function children(root: HeaderNode, text: string): string[] {
  const stack = [root]
  while (stack.length > 0) {
    const node = stack.pop() as HeaderNode
    if (node.text === text) return node.children.map((c) => c.text)
    stack.push(...node.children)
  }
  throw new Error(`no node ${text}`)
}

function tupleOf(index: string[][], rowSource: number[], row: number): string[] | undefined {
  return index[rowSource.indexOf(row)]
}

const underLife: RowMove = { row: CHEMISTRY, label: 'Chemistry', under: LIFE, underLabel: LIFE_LABEL }

describe('applyRowMoves', () => {
  const grid = phd()
  const detected = structureGrid(grid)

  it('moves a row under another parent: the tree, its index tuple and nothing else change, and the data rows keep their order', () => {
    const { parsed, applied, dropped } = applyRowMoves(detected, [underLife])
    expect(dropped).toEqual([])
    expect(applied).toEqual([underLife])
    expect(parsed.options.rowMoves).toEqual([underLife])
    // Among its new siblings in sheet order.
    expect(children(parsed.leftTree, LIFE_LABEL)).toEqual([
      'Agricultural sciences and natural resources',
      'Biological and biomedical sciences',
      'Health sciences',
      'Chemistry'
    ])
    expect(children(parsed.leftTree, PHYSICAL_LABEL)).toEqual([
      'Geosciences, atmospheric sciences, and ocean sciences',
      'Physics and astronomy'
    ])
    expect(tupleOf(parsed.index, parsed.rowSource, CHEMISTRY)).toEqual(['All fields', LIFE_LABEL, 'Chemistry'])
    expect(parsed.rowSource).toEqual(detected.rowSource)
    expect(parsed.values).toBe(detected.values)
    const changed = parsed.index.flatMap((t, i) => (JSON.stringify(t) === JSON.stringify(detected.index[i]) ? [] : [parsed.rowSource[i]]))
    expect(changed).toEqual([CHEMISTRY])
    // The table it was given is left as it was.
    expect(tupleOf(detected.index, detected.rowSource, CHEMISTRY)).toEqual(['All fields', PHYSICAL_LABEL, 'Chemistry'])
  })

  it('moves a row with the rows nested under it, to the top level', () => {
    const { parsed, dropped } = applyRowMoves(detected, [{ row: PHYSICAL, label: PHYSICAL_LABEL, under: null, underLabel: '' }])
    expect(dropped).toEqual([])
    expect(parsed.leftTree.children.map((c) => c.text)).toEqual(['All fields', PHYSICAL_LABEL])
    expect(children(parsed.leftTree, 'All fields')).not.toContain(PHYSICAL_LABEL)
    // Its rows come along, a level higher; the index stays as deep as its deepest path.
    expect(tupleOf(parsed.index, parsed.rowSource, PHYSICS)).toEqual([PHYSICAL_LABEL, 'Physics and astronomy', ''])
    expect(tupleOf(parsed.index, parsed.rowSource, PHYSICAL)).toEqual([PHYSICAL_LABEL, '', ''])
    expect(tupleOf(parsed.index, parsed.rowSource, HEALTH)).toEqual(['All fields', LIFE_LABEL, 'Health sciences'])
    expect(parsed.index.every((t) => t.length === 3)).toBe(true)
  })

  it('applies moves in order: a row moved under a moved row follows it', () => {
    const { parsed, dropped } = applyRowMoves(detected, [
      { row: PHYSICAL, label: PHYSICAL_LABEL, under: AGRICULTURE, underLabel: 'Agricultural sciences and natural resources' },
      { row: CHEMISTRY, label: 'Chemistry', under: HEALTH, underLabel: 'Health sciences' }
    ])
    expect(dropped).toEqual([])
    expect(tupleOf(parsed.index, parsed.rowSource, PHYSICS)).toEqual([
      'All fields',
      LIFE_LABEL,
      'Agricultural sciences and natural resources',
      PHYSICAL_LABEL,
      'Physics and astronomy'
    ])
    expect(tupleOf(parsed.index, parsed.rowSource, CHEMISTRY)).toEqual(['All fields', LIFE_LABEL, 'Health sciences', 'Chemistry', ''])
    expect(parsed.index.every((t) => t.length === 5)).toBe(true)
  })

  it('drops a move under one of its own rows, with a warning, and applies the others', () => {
    const inside: RowMove = { row: LIFE, label: LIFE_LABEL, under: AGRICULTURE, underLabel: 'Agricultural sciences and natural resources' }
    const { parsed, applied, dropped } = applyRowMoves(detected, [inside, underLife])
    expect(applied).toEqual([underLife])
    expect(dropped).toEqual([{ move: inside, reason: 'that row is nested under it' }])
    expect(parsed.options.rowMoves).toEqual([underLife])
    expect(parsed.warnings).toContain(
      "Row 7 ('Life sciences') was moved under row 8 ('Agricultural sciences and natural resources') by hand; that no longer fits (that row is nested under it), so it was dropped."
    )
    expect(children(parsed.leftTree, LIFE_LABEL)).toContain('Agricultural sciences and natural resources')
  })

  it('drops stale moves: a row that reads otherwise, a parent that reads otherwise, a row not in the tree, a table without label columns', () => {
    const stale: RowMove[] = [
      { row: CHEMISTRY, label: 'Chemistry (old)', under: LIFE, underLabel: LIFE_LABEL },
      { row: PHYSICS, label: 'Physics and astronomy', under: LIFE, underLabel: 'Biology' },
      { row: 400, label: 'Gone', under: null, underLabel: '' }
    ]
    const { parsed, applied, dropped } = applyRowMoves(detected, stale)
    expect(applied).toEqual([])
    expect(dropped.map((d) => d.reason)).toEqual([
      "the row now reads 'Chemistry'",
      "row 7 now reads 'Life sciences'",
      'the row is not in the left tree'
    ])
    expect(parsed.index).toEqual(detected.index)
    expect(parsed.options.rowMoves).toBeUndefined()
    expect(parsed.warnings?.length).toBe((detected.warnings?.length ?? 0) + 3)

    const flat = structureGrid(grid, { ...detected.options, headerCols: 0 })
    const none = applyRowMoves(flat, [underLife])
    expect(none.dropped).toEqual([{ move: underLife, reason: 'the table has no label columns' }])
  })

  it('hangs a row under the innermost label cell of a parent with several, and moves a row by its outermost node', () => {
    const small: RawGrid = {
      name: 'regions.csv',
      cells: [
        ['Region', 'City', '2020'],
        ['North', 'Oslo', '1'],
        ['South', 'Rome', '2'],
        ['', 'Nice', '3']
      ],
      merges: [],
      warnings: []
    }
    const base = structureGrid(small, { headerRows: 1, headerCols: 2, leftHierarchy: 'none' })
    expect(base.index).toEqual([
      ['North', 'Oslo'],
      ['South', 'Rome'],
      ['South', 'Nice']
    ])
    const { parsed, dropped } = applyRowMoves(base, [{ row: 2, label: 'South', under: 1, underLabel: 'North' }])
    expect(dropped).toEqual([])
    expect(parsed.index).toEqual([
      ['North', 'Oslo', '', ''],
      ['North', 'Oslo', 'South', 'Rome'],
      ['North', 'Oslo', 'South', 'Nice']
    ])
  })

  it('moves a row with 150,000 rows under it', () => {
    const n = 150_000
    const rows = Array.from({ length: n }, (_, i) => i + 2)
    const base = structureGrid(
      {
        name: 'big.csv',
        cells: [['Label', 'Value'], ['Top', '1'], ['Section', ''], ...rows.map((r) => [`  item ${r}`, String(r)])],
        merges: [],
        warnings: [],
        styles: Object.fromEntries(rows.map((r) => [`${r + 1},0`, { indent: 1 }]))
      },
      { headerRows: 1, headerCols: 1 }
    )
    expect(base.leftTree.children.map((c) => c.text)).toEqual(['Top', 'Section'])
    expect(base.leftTree.children[1]?.children).toHaveLength(n)
    const { parsed, dropped } = applyRowMoves(base, [{ row: 2, label: 'Section', under: 1, underLabel: 'Top' }])
    expect(dropped).toEqual([])
    expect(parsed.index[0]).toEqual(['Top', '', ''])
    expect(parsed.index[n]).toEqual(['Top', 'Section', `item ${n + 1}`])
    expect(parsed.index.every((t) => t.length === 3)).toBe(true)
  })

  it('reaches the prepared table, the flat view and the reasons; the structure pass does not see the moves', () => {
    const options = { ...detected.options, rowMoves: [underLife] }
    const prepared = prepareTable(grid, options)
    expect(prepared.structure.rowMoves).toEqual([underLife])
    expect(tupleOf(prepared.parsed.index, prepared.parsed.rowSource, CHEMISTRY)).toEqual(['All fields', LIFE_LABEL, 'Chemistry'])
    const payload = JSON.parse(new TextDecoder().decode(prepared.payload)) as { index: string[][] }
    expect(payload.index).toEqual(prepared.parsed.index)
    const flat = prepareTable(grid, options, 'flatten')
    const i = flat.parsed.rowSource.indexOf(CHEMISTRY)
    expect(flat.parsed.values[i]?.slice(0, 3)).toEqual(['All fields', LIFE_LABEL, 'Chemistry'])

    const why = correctWhy(explainStructure(grid, detected.options), [underLife])
    const placed = why.rows.find((p) => p.row === CHEMISTRY)
    expect(placed?.parentRow).toBe(LIFE)
    expect(placed?.reasons).toEqual([{ rule: 'by-hand', text: "placed by you under 'Life sciences'" }])
    expect(why.rows.find((p) => p.row === PHYSICS)?.parentRow).toBe(PHYSICAL)
  })
})
