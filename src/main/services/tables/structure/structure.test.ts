import { describe, expect, it } from 'vitest'
import type { MergedRegion, RawGrid } from '../../../../shared/table'
import { explainStructure } from './explain'
import { detectStructure, flattenTable, structureGrid, treePaths } from './index'
import { withoutRules } from './rules/types'

const grid = (cells: string[][], merges: MergedRegion[] = [], styles?: RawGrid['styles']): RawGrid => ({
  name: 't',
  cells,
  merges,
  warnings: [],
  ...(styles ? { styles } : {})
})
const m = (top: number, left: number, bottom: number, right: number): MergedRegion => ({ top, left, bottom, right })

/** Each row's index tuple, blank levels left out, joined with ' > '. */
const rowPaths = (p: { index: string[][] }): string[] => p.index.map((t) => t.filter((x) => x.length > 0).join(' > '))

describe('header rows written again in the body', () => {
  it('leaves a header repeated between groups of rows and under the last one out of the data', () => {
    const p = structureGrid(
      grid([
        ['Member', 'Party', 'Term'],
        ['John Ryan', 'None', '1859–1864'],
        ['James Watson', 'None', '1869–1880'],
        ['Member', 'Party', 'Term'],
        ['James Carroll', 'Labor', '1894–1895'],
        ['Ian Armstrong', 'National', '1981–2007'],
        ['Member', 'Party', 'Term']
      ])
    )
    expect(p.values.map((v) => v[0])).toEqual(['John Ryan', 'James Watson', 'James Carroll', 'Ian Armstrong'])
    expect(p.rowSource).toEqual([1, 2, 4, 5])
    expect(p.warnings).toContain('Rows 4 and 7 repeat the column headers and are not read as data.')
  })

  it('reads the header of a second stacked table with its own corner label as a section over its rows', () => {
    // Two tables with the same columns, by employment size and by industry, the second with its two header rows
    // written again (the first one's label merged over two columns, as in the first table's header).
    const cells = [
      ['Construction output: matched pairs', '', ''],
      ['', 'Businesses showing growth', ''],
      ['Employment', 'Number of businesses', 'Value (£m)'],
      ['0-9', '675', '1,167'],
      ['10+', '252', '545'],
      ['Total', '927', '1,712'],
      ['', '', ''],
      ['', 'Businesses showing growth', ''],
      ['SIC (Division)', 'Number of businesses', 'Value (£m)'],
      ['41 (Buildings)', '547', '975'],
      ['42 (Infrastructure)', '380', '737'],
      ['Total', '927', '1,712']
    ]
    const p = structureGrid(grid(cells, [m(1, 1, 1, 2), m(7, 1, 7, 2)]))
    expect(p.options).toMatchObject({ titleRows: 1, headerRows: 2, headerCols: 1 })
    expect(rowPaths(p)).toEqual([
      '0-9',
      '10+',
      'Total',
      'SIC (Division) > 41 (Buildings)',
      'SIC (Division) > 42 (Infrastructure)',
      'SIC (Division) > Total'
    ])
    expect(p.values).not.toContainEqual(['Number of businesses', 'Value (£m)'])
    // Rows of the sheet, the title row counted.
    expect(p.warnings).toContain('Rows 8 and 9 repeat the column headers and are not read as data.')
    // The corner label written again is no section.
    const again = cells.map((row, r) => (r === 8 ? ['Employment', ...row.slice(1)] : row))
    expect(rowPaths(structureGrid(grid(again, [m(1, 1, 1, 2), m(7, 1, 7, 2)])))).toEqual([
      '0-9',
      '10+',
      'Total',
      '41 (Buildings)',
      '42 (Infrastructure)',
      'Total'
    ])
  })

  it('ends the header at the rows the body writes again, though the rows after them read like header rows', () => {
    // A web table of a seat's members by period: a title row, "Member" merged over the party colour column and
    // the name column, and the header again under each period's heading. Names and year ranges are all text.
    const cells = [
      ['First period (1859–1880)', '', '', ''],
      ['Member', '', 'Party', 'Term'],
      ['', 'John Ryan', 'None', '1859–1864'],
      ['', 'James Martin', 'None', '1864–1869'],
      ['', 'James Watson', 'None', '1869–1880'],
      ['Second period (1894–1920)', '', '', ''],
      ['Member', '', 'Party', 'Term'],
      ['', 'James Carroll', 'Labor', '1894–1895'],
      ['', 'Andrew Kelly', 'Labor', '1904–1913'],
      ['Third period (1927–1950)', '', '', ''],
      ['Member', '', 'Party', 'Term'],
      ['', 'Ernest Buttenshaw', 'Country', '1927–1938']
    ]
    const merges = [m(0, 0, 0, 3), m(1, 0, 1, 1), m(5, 0, 5, 3), m(6, 0, 6, 1), m(9, 0, 9, 3), m(10, 0, 10, 1)]
    const p = structureGrid(grid(cells, merges))
    expect(p.options).toMatchObject({ titleRows: 1, headerRows: 1, headerCols: 1 })
    expect(p.columns).toEqual([['Member'], ['Party'], ['Term']])
    // The evidence: the header is the rows the body writes again; without the rule it runs into the body.
    expect(explainStructure(grid(cells, merges)).headerRows[1]?.reasons).toContainEqual({
      rule: 'header-as-written-again',
      text: 'the body writes the first 1 header rows again'
    })
    expect(withoutRules(['header-as-written-again'], () => detectStructure(grid(cells, merges))).headerRows).toBe(4)
    expect(p.values.map((v) => v[0])).toEqual([
      'John Ryan',
      'James Martin',
      'James Watson',
      'James Carroll',
      'Andrew Kelly',
      'Ernest Buttenshaw'
    ])
    expect(p.index.map((t) => t[0])).toEqual([
      '',
      '',
      '',
      'Second period (1894–1920)',
      'Second period (1894–1920)',
      'Third period (1927–1950)'
    ])
  })

  it('takes neither a row of numbers equal to a header of years nor rows under a header cell merged down for repeats', () => {
    const years = structureGrid(
      grid([
        ['', '2019', '2020'],
        ['North', '2019', '2020'],
        ['South', '800', '900']
      ])
    )
    expect(years.index).toEqual([['North'], ['South']])
    expect(years.warnings).toEqual([])
    // The second header row is covered by merges from the first: a section row with empty data cells matches
    // its written cells, and must stay a section.
    const merged = structureGrid(
      grid(
        [
          ['factor', '%', '95% confidence interval', ''],
          ['', '', '', ''],
          ['', '', 'from', 'to'],
          ['reasons for use', '', '', ''],
          ['get base tan', '62.0', '57.3', '66.6'],
          ['aesthetic', '21.0', '17.2', '24.8']
        ],
        [m(0, 0, 2, 0), m(0, 1, 2, 1), m(0, 2, 1, 3)]
      )
    )
    expect(rowPaths(merged)).toEqual(['reasons for use > get base tan', 'reasons for use > aesthetic'])
    expect(merged.warnings).toEqual([])
  })
})

describe('bad input', () => {
  it('handles an empty grid', () => {
    const p = structureGrid(grid([]))
    expect(p.columns).toEqual([])
    expect(p.values).toEqual([])
  })

  it('handles a 1×1 grid and a grid of headers only', () => {
    const one = structureGrid(grid([['x']]))
    expect(one.columns).toEqual([['x']])
    expect(one.values).toEqual([])
    expect(one.warnings).toContain('The table has header rows but no data rows.')
    const headers = structureGrid(grid([['a', 'b']]))
    expect(headers.columns).toEqual([['a'], ['b']])
  })

  it('pads jagged rows', () => {
    const p = structureGrid(grid([['a', 'b', 'c'], ['1'], ['2', '3', '4', '5']]))
    expect(p.columns.length).toBe(4)
    expect(p.values.every((r) => r.length === 4)).toBe(true)
    expect(p.warnings?.some((w) => w.includes('padded'))).toBe(true)
  })

  it('clips merges outside the grid and ignores overlapping ones', () => {
    const p = structureGrid(
      grid(
        [
          ['', 'a', ''],
          ['', 'x', 'y'],
          ['r', '1', '2']
        ],
        [m(0, 1, 0, 9), m(0, 2, 1, 2), m(-5, -5, -4, -4), m(0, 0, 1, 0)]
      )
    )
    expect(p.columns).toEqual([
      ['a', 'x'],
      ['a', 'y']
    ])
    expect(p.warnings?.some((w) => w.includes('clipped'))).toBe(true)
    expect(p.warnings?.some((w) => w.includes('ignored'))).toBe(true)
  })

  it('clamps impossible overrides', () => {
    const p = structureGrid(grid([['a'], ['1']]), { headerRows: 99, headerCols: -3 })
    expect(p.options).toMatchObject({ headerRows: 2, headerCols: 0 })
  })

  it('structures 10,000 columns quickly', () => {
    const header = Array.from({ length: 10_000 }, (_, j) => `c${j}`)
    const rows = Array.from({ length: 5 }, (_, i) => header.map((_, j) => String(i * j)))
    const start = performance.now()
    const p = structureGrid(grid([header, ...rows]))
    expect(performance.now() - start).toBeLessThan(2000)
    expect(p.columns.length).toBe(10_000)
    expect(p.values.length).toBe(5)
  })

  it('structures a wide grid of unnamed text columns before numeric ones without scanning it per column', () => {
    const texts = 1_500
    const numbers = 2_500
    const header = ['name', ...Array.from({ length: texts }, () => ''), ...Array.from({ length: numbers }, (_, j) => `n${j}`)]
    const rows = Array.from({ length: 30 }, (_, i) => [
      `r${i}`,
      ...Array.from({ length: texts }, (_, j) => `t${i}-${j}`),
      ...Array.from({ length: numbers }, (_, j) => String(i + j))
    ])
    const start = performance.now()
    const p = structureGrid(grid([header, ...rows]))
    expect(performance.now() - start).toBeLessThan(5000)
    expect(p.options.headerCols).toBe(5)
  })

  it('reads numbers on demand, once, and leaves them out of the JSON payload', () => {
    const p = structureGrid(
      grid([
        ['a', 'b'],
        ['1,200', 'x'],
        ['(3)', '4%']
      ])
    )
    const first = p.numbers()
    expect(first).toEqual([
      [1200, null],
      [-3, 4]
    ])
    expect(p.numbers()).toBe(first)
    expect(Object.keys(JSON.parse(JSON.stringify(p)) as object)).not.toContain('numbers')
  })

  it('leaves out data columns empty from top to bottom, and keeps named ones without values', () => {
    const g = grid([
      ['', 'NSA', '', 'SA', ' ', '2020'],
      ['Jan', '1,119', '', '1,490', '', ''],
      ['Feb', '950', '', '1,450', ' ', '']
    ])
    const p = structureGrid(g)
    expect(p.columns).toEqual([['NSA'], ['SA'], ['2020']])
    expect(p.colSource).toEqual([1, 3, 5])
    expect(p.values).toEqual([
      ['1,119', '1,490', ''],
      ['950', '1,450', '']
    ])
    expect(p.numbers()[1]).toEqual([950, 1450, null])
    expect(treePaths(p.topTree)).toEqual([['NSA'], ['SA'], ['2020']])
    // A merge across the empty column keeps it: it belongs to the header above it.
    const merged = structureGrid(
      grid(
        [
          ['', 'total', '', ''],
          ['', 'a', '', 'b'],
          ['x', '1', '', '2']
        ],
        [m(0, 1, 0, 3)]
      )
    )
    expect(merged.columns).toHaveLength(3)
  })

  it('keeps each header row at its own level of the column tuples', () => {
    const g = grid(
      [
        ['', 'year ended', '', '', ''],
        ['', '2018', '2017', 'per ASM', 'percent'],
        ['', '', 'recast', 'change', 'change'],
        ['fuel', '2.89', '2.65', '0.24', '9.1']
      ],
      [m(0, 1, 0, 2)]
    )
    expect(structureGrid(g, { headerRows: 3, headerCols: 1 }).columns).toEqual([
      ['year ended', '2018', ''],
      ['year ended', '2017', 'recast'],
      ['', 'per ASM', 'change'],
      ['', 'percent', 'change']
    ])
  })

  it('gives a column that ends at a shared parent a blank leaf under it, in column order', () => {
    const g = grid(
      [
        ['', 'annual change', '', ''],
        ['', '', 'interval', ''],
        ['', '', 'from', 'to'],
        ['men', '1.2', '0.9', '1.5']
      ],
      [m(0, 1, 0, 3), m(1, 2, 1, 3)]
    )
    const p = structureGrid(g, { headerRows: 3, headerCols: 1 })
    expect(treePaths(p.topTree)).toEqual([
      ['annual change', ''],
      ['annual change', 'interval', 'from'],
      ['annual change', 'interval', 'to']
    ])
    expect(p.columns).toEqual([
      ['annual change', '', ''],
      ['annual change', 'interval', 'from'],
      ['annual change', 'interval', 'to']
    ])
    expect(p.columnCells[0]).toEqual({ row: 0, col: 1 })
  })

  it('keeps duplicate header paths and empty header cells', () => {
    const p = structureGrid(
      grid([
        ['', 'a', 'a', ''],
        ['r', '1', '2', '3']
      ])
    )
    expect(p.columns).toEqual([['a'], ['a'], ['']])
    expect(p.columnCells[2]).toBeNull()
  })
})

describe('flatten', () => {
  it('joins top paths and turns the left header into leading columns', () => {
    const g = grid(
      [
        ['', '2018', ''],
        ['', 'men', 'women'],
        ['total', '', ''],
        ['young', '1', '2']
      ],
      [m(0, 1, 0, 2), m(0, 0, 1, 0)]
    )
    const flat = flattenTable(structureGrid(g))
    expect(flat.columns).toEqual([['level 1'], ['level 2'], ['2018 - men'], ['2018 - women']])
    expect(flat.values).toEqual([['total', 'young', '1', '2']])
    expect(flat.index).toEqual([[]])
    expect(flat.numbers()).toEqual([[null, null, 1, 2]])
    expect(flat.options).toMatchObject({ headerRows: 1, headerCols: 0 })
  })
})
