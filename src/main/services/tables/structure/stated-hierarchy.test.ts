import { describe, expect, it } from 'vitest'
import type { HeaderNode, ParsedTable, RawGrid } from '../../../../shared/table'
import { numberedReport, NUMBERED_REPORT_NAME } from '../../../../../test/fixtures/sheets/numbered-report'
import {
  populationLocations,
  populationReport,
  populationRow,
  POPULATION_REPORT_NAME,
  type PopulationOptions
} from '../../../../../test/fixtures/sheets/population-report'
import { importFileSync } from '../import'
import { explainStructure } from './explain'
import { detectStructure, structureGrid } from './index'
import { withoutRules } from './rules/types'

function sheet(name: string, bytes: Uint8Array, sheetName: string): RawGrid {
  const read = importFileSync(name, bytes)
  if (!read.ok) throw new Error(read.error.message)
  const grid = read.value.find((g) => g.name.endsWith(` › ${sheetName}`))
  if (grid === undefined) throw new Error(`no sheet ${sheetName}`)
  return grid
}

const population = (options: PopulationOptions = {}): RawGrid => sheet(POPULATION_REPORT_NAME, populationReport(options), 'Estimates')

/** Each label row's parent row (1-based; null: the top level), from the left tree's nodes. */
function detectedParents(t: ParsedTable): Map<number, number | null> {
  const out = new Map<number, number | null>()
  const walk = (node: HeaderNode, above: number | null): void => {
    const row = node.cell === null ? null : node.cell.row + 1
    if (row !== null && row !== above && !out.has(row)) out.set(row, above)
    for (const child of node.children) walk(child, row ?? above)
  }
  for (const node of t.leftTree.children) walk(node, null)
  return out
}

/** Of the 289 locations, how many sit under the row their parent code names (1-based sheet rows). */
function rightParents(grid: RawGrid): number {
  const placed = detectedParents(structureGrid(grid, detectStructure(grid)))
  return populationLocations().filter((l, i) => placed.get(populationRow(i)) === (l.parent < 0 ? null : populationRow(l.parent))).length
}

/** The reason the explanation gives for a sheet row's place. */
function placeReason(grid: RawGrid, row: number): string {
  const why = explainStructure(grid).rows.find((r) => r.row === row - 1)
  return why?.reasons.map((r) => `${r.text} [${r.rule}]`).join('; ') ?? ''
}

describe('a population table by location (UN-style): codes, parent codes, indentation', () => {
  it('reads the title block, the one header row and the names behind the number and variant columns', () => {
    const grid = population()
    expect(detectStructure(grid)).toMatchObject({ titleRows: 15, headerRows: 1, headerCols: 1, labelsFrom: 2 })
    const t = structureGrid(grid, detectStructure(grid))
    expect(t.columns.slice(0, 6).map((c) => c[0])).toEqual(['Index', 'Variant', 'Notes', 'Location code', 'Type', 'Parent code'])
    // The index columns keep their typed values: the running number is a number column.
    expect(t.stored?.[0]?.kinds.slice(0, 3)).toBe('nnn')
  })

  it('nests all 289 rows under their parent code, and says the indentation agrees', () => {
    const grid = population()
    expect(rightParents(grid)).toBe(289)
    expect(placeReason(grid, populationRow(12))).toBe(
      "nested under 'Northern Australis': its parent code 904 is the code of that row, and the indentation agrees [nesting-parent-codes]"
    )
  })

  it('follows the codes where the indentation disagrees, and says so', () => {
    const grid = population({ misindented: [13, 60] })
    expect(rightParents(grid)).toBe(289)
    expect(placeReason(grid, populationRow(13))).toMatch(
      /^nested under 'Northern Australis': its parent code 904 is the code of that row; the indentation would put it under '.+': the codes win \[nesting-parent-codes\]$/
    )
    // Without the rule the indentation decides, and the two misindented rows go under the row above them.
    const without = withoutRules(['nesting-parent-codes'], () => rightParents(grid))
    expect(without).toBe(287)
  })

  it('nests by the indentation alone when the sheet has no parent codes', () => {
    const grid = population({ parentCodes: false })
    expect(rightParents(grid)).toBe(289)
    expect(placeReason(grid, populationRow(12))).toBe(
      "nested under 'Northern Australis': indented deeper than it [nesting-indentation-column]"
    )
  })

  it('nests by the row outline when the sheet groups its rows and has neither codes nor indentation', () => {
    const grid = population({ parentCodes: false, indent: false, outline: true })
    expect(grid.outline?.slice(16, 20)).toEqual([0, 1, 2, 2])
    expect(rightParents(grid)).toBe(289)
    expect(placeReason(grid, populationRow(1))).toBe(
      "nested under 'WORLD': at outline level 1, deeper than that row [nesting-outline-levels]"
    )
    // Without the rule the sums still find most aggregates (275 of 289 here), not every row.
    expect(withoutRules(['nesting-outline-levels'], () => rightParents(grid))).toBeLessThan(289)
  })
})

describe('labels numbered by place or by account codes', () => {
  const budget = (): RawGrid => sheet(NUMBERED_REPORT_NAME, numberedReport(), 'Budget')
  const accounts = (): RawGrid => sheet(NUMBERED_REPORT_NAME, numberedReport(), 'Accounts')
  const paths = (grid: RawGrid): string[] =>
    structureGrid(grid, detectStructure(grid)).index.map((t) => t.filter((x) => x !== '').join(' > '))

  it('nests "1.1.1" under "1.1" under "1", and leaves the unnumbered totals at the top', () => {
    const p = paths(budget())
    expect(p).toContain('1 Revenue > 1.1 Taxes > 1.1.2 Sales tax')
    expect(p).toContain('2 Expenditure > 2.3 Transportation > 2.3.2 Public transit')
    expect(p).toContain('3 Debt service')
    expect(p).toContain('Balance')
    // The figures add up here, so without the rule the sums give the same tree; the numbers decide it first.
    expect(placeReason(budget(), 8)).toBe("nested under '1.1 Taxes': its number '1.1.2' extends that row's [nesting-numbered-labels]")
    expect(placeReason(budget(), 25)).toBe('at the top level: its label is not numbered [nesting-numbered-labels]')
  })

  it('nests account codes under the code they extend', () => {
    const p = paths(accounts())
    expect(p).toContain('2000 Liabilities > 2100 Current liabilities > 2120 Accrued expenses')
    expect(p).toContain('3000 Equity > 3200 Retained earnings')
    expect(placeReason(accounts(), 14)).toBe(
      "nested under '2000 Liabilities': its number '2100' extends that row's [nesting-numbered-labels]"
    )
    // Without the rule the lines under the liabilities stay at the top level (the sums do not nest them here).
    expect(withoutRules(['nesting-numbered-labels'], () => paths(accounts()))).toContain('2120 Accrued expenses')
  })
})

describe('a stated hierarchy deeper than the index can show', () => {
  it('puts rows deeper than 32 levels under their ancestor at level 32, as the sweep bounds its open parents', () => {
    const rows = Array.from({ length: 40 }, (_, i) => [`Item ${i}`, String(i)])
    const grid: RawGrid = {
      name: 't',
      cells: [['Item', 'Value'], ...rows],
      merges: [],
      warnings: [],
      outline: [0, ...rows.map((_, i) => i)]
    }
    const t = structureGrid(grid, detectStructure(grid))
    expect(Math.max(...t.index.map((x) => x.filter((l) => l !== '').length))).toBe(33)
    expect(t.index[39]?.filter((l) => l !== '').slice(-2)).toEqual(['Item 31', 'Item 39'])
  })
})

describe('where parent codes are looked for', () => {
  // Codes and parent codes of a short listing (figures that are no sums); "Kenya" is written one level too deep.
  const rows: [string, string, string, string][] = [
    ['WORLD', '900', '', '7'],
    ['AFRICA', '903', '900', '3'],
    ['Eastern Africa', '910', '903', '9'],
    ['Burundi', '108', '910', '4'],
    ['Kenya', '404', '910', '8'],
    ['Middle Africa', '911', '903', '2'],
    ['Angola', '24', '911', '6'],
    ['ASIA', '935', '900', '5'],
    ['India', '356', '935', '1']
  ]
  const depth = [0, 1, 2, 3, 4, 2, 3, 1, 2]
  const table = (indent: boolean): RawGrid => ({
    name: 't',
    cells: [
      ['Location', 'Code', 'Parent code', '2020'],
      ...rows.map(([l, ...r], i) => [`${indent ? '  '.repeat(depth[i] ?? 0) : ''}${l}`, ...r])
    ],
    merges: [],
    warnings: []
  })
  const path = (grid: RawGrid, label: string): string =>
    structureGrid(grid, detectStructure(grid))
      .index.map((t) => t.filter((x) => x !== ''))
      .find((t) => t[t.length - 1] === label)
      ?.join(' > ') ?? ''

  it('reads them where the labels are indented, and they win over the indentation', () => {
    expect(path(table(true), 'Kenya')).toBe('WORLD > AFRICA > Eastern Africa > Kenya')
    expect(withoutRules(['nesting-parent-codes'], () => path(table(true), 'Kenya'))).toBe(
      'WORLD > AFRICA > Eastern Africa > Burundi > Kenya'
    )
  })

  it('does not look for them in a short table whose labels are not indented (known limit: it reads flat)', () => {
    expect(path(table(false), 'Kenya')).toBe('Kenya')
  })
})
