import { describe, expect, it } from 'vitest'
import type { RawGrid } from '../../../../shared/table'
import { explainStructure } from './explain'
import { detectStructure, structureGrid } from './index'
import { withoutRules } from './rules/types'

const grid = (cells: string[][]): RawGrid => ({ name: 't', cells, merges: [], warnings: [] })

// A location table as UN and World Bank downloads lay it out: a running number, a variant on every row, the
// indented names, a code and a type, then one column per year.
const LOCATIONS = [
  ['Index', 'Variant', 'Region, subregion, country or area', 'Code', 'Type', '1950', '1955'],
  ['1', 'Estimates', 'WORLD', '900', 'World', '2536431', '2773020'],
  ['2', 'Estimates', '  AFRICA', '903', 'Region', '227794', '253777'],
  ['3', 'Estimates', '    Eastern Africa', '910', 'Subregion', '65589', '72615'],
  ['4', 'Estimates', '      Burundi', '108', 'Country/Area', '2309', '2556'],
  ['5', 'Estimates', '      Comoros', '174', 'Country/Area', '159', '173'],
  ['6', 'Estimates', '    Middle Africa', '911', 'Subregion', '26099', '28660'],
  ['7', 'Estimates', '      Angola', '24', 'Country/Area', '4548', '4956'],
  ['8', 'Estimates', '      Chad', '148', 'Country/Area', '2502', '2728']
]

describe('labels-after-index-columns: the label column behind index columns', () => {
  it('finds the names behind a running number and a variant, and keeps those two as columns of the table', () => {
    const g = grid(LOCATIONS)
    const options = detectStructure(g)
    expect(options).toMatchObject({ headerRows: 1, headerCols: 1, labelsFrom: 2 })
    const t = structureGrid(g, options)
    expect(t.columns.map((c) => c[0])).toEqual(['Index', 'Variant', 'Code', 'Type', '1950', '1955'])
    expect(t.colSource).toEqual([0, 1, 3, 4, 5, 6])
    expect(t.values[3]).toEqual(['4', 'Estimates', '108', 'Country/Area', '2309', '2556'])
    // The labels nest by their indentation, and their cells are the sheet's column C.
    expect(t.index[3]?.filter((x) => x !== '')).toEqual(['WORLD', 'AFRICA', 'Eastern Africa', 'Burundi'])
    expect(t.indexCells[3]).toEqual({ row: 4, col: 2 })
    expect(explainStructure(g).labelColumns.map((r) => r.rule)).toEqual(['labels-after-index-columns'])
  })

  it('without the rule, reads the first column of numbers as data and the table as flat', () => {
    const options = withoutRules(['labels-after-index-columns'], () => detectStructure(grid(LOCATIONS)))
    expect(options.headerCols).toBe(0)
    expect(options.labelsFrom).toBeUndefined()
  })

  it('takes unindented names behind a variant written on every row, not behind a running number alone', () => {
    const flat = LOCATIONS.map((row) => row.map((c) => c.trim()))
    expect(detectStructure(grid(flat))).toMatchObject({ headerCols: 1, labelsFrom: 2 })
    // "Rank | Name | …" is a ranked list: read as before, without label columns.
    const ranked = flat.map((row) => [row[0] ?? '', ...row.slice(2)])
    expect(detectStructure(grid(ranked)).labelsFrom).toBeUndefined()
  })

  it('picks the column its header names among several text columns, in any of the four languages', () => {
    const cells = [
      ['Nr.', 'Variante', 'Anmerkung', 'Bezeichnung', '2020', '2021'],
      ['1', 'A', 'vorläufig', 'Einnahmen', '900', '950'],
      ['2', 'A', 'endgültig', 'Steuern', '600', '640'],
      ['3', 'A', 'geschätzt', 'Beiträge', '300', '310'],
      ['4', 'A', 'vorläufig', 'Ausgaben', '880', '905']
    ]
    expect(detectStructure(grid(cells))).toMatchObject({ headerCols: 1, labelsFrom: 3 })
  })

  it('leaves a column of ordinals under the corner of two header rows among the labels, as HiTab has them', () => {
    const cells = [
      ['', '', 'regular season', ''],
      ['', 'name', 'games', 'wins'],
      ['1', 'paul brown', '112', '55'],
      ['2', 'bill johnson', '33', '18'],
      ['3', 'homer rice', '27', '8'],
      ['4', 'forrest gregg', '57', '32']
    ]
    const g: RawGrid = { ...grid(cells), merges: [{ top: 0, left: 0, bottom: 1, right: 0 }] }
    expect(detectStructure(g)).toMatchObject({ headerRows: 2, headerCols: 2 })
    expect(detectStructure(g).labelsFrom).toBeUndefined()
  })
})
