import { describe, expect, it } from 'vitest'
import { detectedParents, labelledGrid, labelledParents, readSheetLabels } from '../../../../../scripts/bench/parse-sheets'
import type { RawGrid } from '../../../../shared/table'
import { detectStructure, structureGrid } from './index'
import { normalizeGrid } from './grid'
import { findStaircase } from './rules/staircase'
import { withoutRules } from './rules/types'

// The hand-labelled sheet whose row labels sit in the column of their depth, behind line numbers.
const label = readSheetLabels().find((l) => l.labels === 'A-K' && l.file.includes('methodology'))
const sheet = label === undefined ? undefined : labelledGrid(label)
const CUT_ROWS = 41

/** The first rows of the real sheet, cut here so that no text of it is kept in the repository. */
function cut(g: RawGrid, rows: number): RawGrid {
  return { ...g, cells: g.cells.slice(0, rows), merges: g.merges.filter((m) => m.bottom < rows) }
}

/** Each body row's parent (1-based sheet rows) as detected, for the rows the hand labels cover. */
function parents(g: RawGrid): Map<number, number | null> {
  const placed = detectedParents(structureGrid(g, detectStructure(g)))
  return new Map([...placed].filter(([row]) => row <= CUT_ROWS))
}

describe.skipIf(sheet === undefined)('label columns written as a staircase', () => {
  const want = (): Map<number, number | null> =>
    new Map([...labelledParents(label?.parents ?? [])].filter(([row]) => row <= CUT_ROWS).sort((a, b) => a[0] - b[0]))

  it('nests each row under the nearest row above it written further left', () => {
    const g = cut(sheet as RawGrid, CUT_ROWS)
    expect(detectStructure(g).headerCols).toBe(11)
    const got = parents(g)
    expect([...want()].map(([row]) => [row, got.get(row)])).toEqual([...want()])
    // At least four depths in the cut, so the rows checked are an outline and not a flat list.
    expect(new Set(want().values()).size).toBeGreaterThanOrEqual(4)
  })

  it('reads the rows as a flat list without the rule', () => {
    const g = cut(sheet as RawGrid, CUT_ROWS)
    const off = withoutRules(['labels-staircase', 'nesting-staircase'], () => ({ options: detectStructure(g), got: parents(g) }))
    expect(off.options.headerCols).toBe(0)
    expect([...want()].filter(([row, parent]) => off.got.get(row) === parent).length).toBeLessThan(3)
    // The nesting alone, with the label columns set by hand, still places the rows by their column.
    const byHand = structureGrid(g, { ...detectStructure(g), headerCols: 11 })
    const nested = withoutRules(['nesting-staircase'], () => detectedParents(structureGrid(g, { ...detectStructure(g), headerCols: 11 })))
    expect(detectedParents(byHand).get(6)).toBe(5)
    expect(nested.get(6)).not.toBe(5)
  })
})

describe('what is not a staircase', () => {
  const grid = (cells: string[][]): RawGrid => ({ name: 't', cells, merges: [], warnings: [] })
  const regions = ['North', 'South', 'East', 'West']

  it('leaves several label columns filled on every row alone', () => {
    const cells = [['Region', 'State', 'County', 'Population']]
    for (let i = 0; i < 12; i++) cells.push([regions[i % 4] ?? '', `State ${i}`, `County ${i}`, String(1000 + i)])
    expect(findStaircase(normalizeGrid(grid(cells)), 1)).toBeNull()
  })

  it('leaves labels written once per group, with the inner labels on every row, alone', () => {
    const cells = [['Region', 'State', 'City', 'Population']]
    for (let i = 0; i < 12; i++)
      cells.push([i % 4 === 0 ? (regions[i / 4] ?? '') : '', i % 2 === 0 ? `State ${i}` : '', `City ${i}`, String(i)])
    expect(findStaircase(normalizeGrid(grid(cells)), 1)).toBeNull()
  })

  it('finds an outline written by column position in a small grid of its own', () => {
    const cells = [['Line', 'Item', '', '', 'Code']]
    const depths = [0, 1, 2, 2, 1, 2, 0, 1, 2, 2]
    depths.forEach((d, i) => {
      const row = [String(i + 1), '', '', '', `C${i}`]
      row[1 + d] = `Item ${i}`
      cells.push(row)
    })
    expect(findStaircase(normalizeGrid(grid(cells)), 1)).toEqual({ from: 1, to: 3 })
  })

  it('reads an outline of 300,000 rows without running out of stack', () => {
    const cells = [['Line', 'Item', '', '', 'Code']]
    const depths = [0, 1, 2, 2, 1, 2, 0, 1, 2, 2]
    for (let i = 0; i < 300_000; i++) {
      const row = [String(i + 1), '', '', '', `C${i}`]
      row[1 + (depths[i % depths.length] ?? 0)] = `Item ${i}`
      cells.push(row)
    }
    expect(findStaircase(normalizeGrid(grid(cells)), 1)).toEqual({ from: 1, to: 3 })
  })
})
