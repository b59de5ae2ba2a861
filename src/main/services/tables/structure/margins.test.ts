import { describe, expect, it } from 'vitest'
import type { MergedRegion, RawGrid } from '../../../../shared/table'
import { detectStructure, structureGrid, treePaths } from './index'
import { dropLeadingRows } from './margins'

const grid = (cells: string[][], merges: MergedRegion[] = [], extra: Partial<RawGrid> = {}): RawGrid => ({
  name: 't',
  cells,
  merges,
  warnings: [],
  ...extra
})
const labels = (cells: string[][], merges: MergedRegion[] = []): string[] =>
  structureGrid(grid(cells, merges)).index.map((t) => t.filter((x) => x.length > 0).join(' > '))

describe('title block above the table', () => {
  it('keeps a title, a unit line and a blank row out of the header and the body', () => {
    const cells = [
      ['HOUSEHOLD DATA\nANNUAL AVERAGES\n11. Employed persons by occupation', '', ''],
      ['[Numbers in thousands]', '', ''],
      ['', '', ''],
      ['Occupation', 'Total employed', 'Women'],
      ['Total, 16 years and over', '152,581', '47.0'],
      ['Management occupations', '64,744', '52.0']
    ]
    const g = grid(cells, [{ top: 0, left: 0, bottom: 0, right: 2 }])
    const options = detectStructure(g)
    expect(options).toMatchObject({ titleRows: 3, headerRows: 1, headerCols: 1 })
    const parsed = structureGrid(g, options)
    expect(parsed.columns).toEqual([['Total employed'], ['Women']])
    expect(parsed.index.map((t) => t.filter((x) => x.length > 0).join(' > '))).toEqual([
      'Total, 16 years and over',
      'Total, 16 years and over > Management occupations'
    ])
    // Source references name the rows of the whole sheet.
    expect(parsed.rowSource).toEqual([4, 5])
    expect(parsed.columnCells).toEqual([
      { row: 3, col: 1 },
      { row: 3, col: 2 }
    ])
    expect(parsed.indexCells[0]).toEqual({ row: 4, col: 0 })
    expect(parsed.topTree.children[0]?.cell).toEqual({ row: 3, col: 1 })
    expect(parsed.title).toBe('HOUSEHOLD DATA ANNUAL AVERAGES 11. Employed persons by occupation\n[Numbers in thousands]')
  })

  it('reads source lines, a paragraph running over cells and its next line in a column of their own', () => {
    const cells = [
      ['', 'Table 1. State and Local Government Finances', '', ''],
      ['', '(Dollar amounts are in thousands.)', '', ''],
      ['', 'Source: U.S. Census Bureau, Annual Survey of State and Local Government Finances.', '', ''],
      ['', 'Information on sampling and nonsampling error', '', ''],
      ['', 'may be found at:', '', ''],
      ['', 'http://www2.census.gov/govs/state/methodology.pdf', 'and', 'http://www2.census.gov/govs/local/methodology.pdf'],
      ['Line', 'Description', 'United States', 'Alabama'],
      ['1', 'Revenue', '3,180,023,050', '42,188,979'],
      ['2', 'General revenue', '2,510,845,953', '34,859,175']
    ]
    const g = grid(cells, [{ top: 0, left: 1, bottom: 0, right: 3 }])
    expect(detectStructure(g).titleRows).toBe(6)
    expect(treePaths(structureGrid(g).topTree).slice(-2)).toEqual([['United States'], ['Alabama']])
  })

  it('reads a table number beside its title, merged over blank rows, and a unit at the right edge', () => {
    const cells = [
      ['1a', '', 'CONSTRUCTION OUTPUT IN GREAT BRITAIN', '', ''],
      ['', '', '', '', ''],
      ['', '', '', '', '£ million'],
      ['Period', '', 'Public', 'Private', 'Total'],
      ['2019', 'Q1', '4,200', '9,100', '13,300'],
      ['', 'Q2', '4,300', '9,000', '13,300']
    ]
    const merges = [
      { top: 0, left: 0, bottom: 1, right: 1 },
      { top: 0, left: 2, bottom: 1, right: 4 }
    ]
    expect(detectStructure(grid(cells, merges)).titleRows).toBe(3)
  })

  it('reads title lines merged over the first columns only', () => {
    const cells = [
      ['Overall response rates (%)', '', '', '', '', '', ''],
      ['May 2018 to August 2020', '', '', '', '', '', ''],
      ['Great Britain', '', '', '', '', '', ''],
      ['', '', '', '', '', '', ''],
      ['', 'Month 1', '', 'Month 2', '', 'Month 3', ''],
      ['Publication', 'Turnover', 'Questionnaire', 'Turnover', 'Questionnaire', 'Turnover', 'Questionnaire'],
      ['2018 -May', '82.3', '66.6', '91.8', '71.9', '93.1', '73.0'],
      ['2018 - June', '73.6', '62.0', '84.7', '71.0', '85.8', '72.1']
    ]
    const merges = [
      { top: 0, left: 0, bottom: 0, right: 2 },
      { top: 1, left: 0, bottom: 1, right: 2 },
      { top: 4, left: 1, bottom: 4, right: 2 },
      { top: 4, left: 3, bottom: 4, right: 4 },
      { top: 4, left: 5, bottom: 4, right: 6 }
    ]
    expect(detectStructure(grid(cells, merges))).toMatchObject({ titleRows: 4, headerRows: 2, headerCols: 1 })
  })

  it('reads the same title block repeated over tables side by side', () => {
    const cells = [
      ['Table 1.6a: Woodland by age class, conifers', '', '', '', 'Table 1.6b: Woodland by age class, broadleaves', '', ''],
      ['Source: National Forestry Inventory', '', '', '', 'Source: National Forestry Inventory', '', ''],
      ['This worksheet contains two tables.', '', '', '', 'This worksheet contains two tables.', '', ''],
      ['Shorthand: 1 ha = 1 hectare.', '', '', '', 'Shorthand: 1 ha = 1 hectare.', '', ''],
      ['Age class (years)', 'England', 'Wales', '', 'Age class (years)', 'England', 'Wales'],
      ['0-20', '37', '19', '', '0-20', '25', '13'],
      ['21-40', '120', '45', '', '21-40', '98', '30']
    ]
    expect(detectStructure(grid(cells))).toMatchObject({ titleRows: 4, headerRows: 1 })
  })

  it('leaves headers alone: a band over the data columns, a corner merged down, a plain first row', () => {
    // A spanning label over the data columns, as HiTab and AIT-QA headers have.
    const band = [
      ['', 'volunteer rate', '', ''],
      ['', '2013', '2010', '2007'],
      ['total', '44', '47', '46'],
      ['men', '42', '46', '45']
    ]
    expect(detectStructure(grid(band, [{ top: 0, left: 1, bottom: 0, right: 3 }])).titleRows).toBeUndefined()
    // A long band label beside a corner merged down through the header rows.
    const corner = [
      ['', 'people who saw relatives a few times a month or more often', '', ''],
      ['', '2003', '2008', '2013'],
      ['men', '44', '47', '46'],
      ['women', '42', '46', '45']
    ]
    const cornerMerges = [
      { top: 0, left: 0, bottom: 1, right: 0 },
      { top: 0, left: 1, bottom: 0, right: 3 }
    ]
    expect(detectStructure(grid(corner, cornerMerges)).titleRows).toBeUndefined()
    // Written once over empty cells, CSV style.
    const written = [
      ['', 'volunteer rate', '', ''],
      ['', '2013', '2010', '2007'],
      ['total', '44', '47', '46']
    ]
    expect(detectStructure(grid(written)).titleRows).toBeUndefined()
    expect(
      detectStructure(
        grid([
          ['name', 'city'],
          ['Ann', 'Oslo'],
          ['Bo', 'Rome']
        ])
      ).titleRows
    ).toBeUndefined()
  })

  it('does not take a list of lone lines, or a database table, for a title block', () => {
    const list = grid([
      ['Contents', ''],
      ['Table 1.1 Employment by occupation', ''],
      ['Table 1.2 Employment by industry', ''],
      ['Table 1.3 Fastest growing', '']
    ])
    expect(detectStructure(list).titleRows).toBeUndefined()
    const database = grid(
      [
        ['A long text that reads like the title of a report, written in row one', ''],
        ['id', 'name'],
        ['1', 'x']
      ],
      [],
      {
        relational: { table: 't', primaryKey: [], foreignKeys: [] }
      }
    )
    expect(detectStructure(database).titleRows).toBeUndefined()
  })

  it('follows an override of the title rows, and clamps one that does not fit', () => {
    const cells = [
      ['Table 3. Crime by state, 2016', '', ''],
      ['State', 'Population', 'Violent crime'],
      ['Alabama', '4,863,300', '25,878'],
      ['Alaska', '741,894', '5,966']
    ]
    const g = grid(cells)
    expect(detectStructure(g).titleRows).toBe(1)
    const none = structureGrid(g, { titleRows: 0, headerRows: 2, headerCols: 1 })
    expect(none.title).toBeUndefined()
    expect(none.options.titleRows).toBeUndefined()
    expect(none.rowSource).toEqual([2, 3])
    const tooMany = structureGrid(g, { titleRows: 9, headerRows: 1, headerCols: 1 })
    expect(tooMany.options.titleRows).toBe(3)
    expect(tooMany.warnings?.some((w) => w.includes('title block of 9 rows'))).toBe(true)
  })

  it('moves merges and styles up with the cells, so indentation still nests the body', () => {
    const cells = [
      ['Table 2. Revenue', '', ''],
      ['', '2019', '2020'],
      ['Revenue', '100', '120'],
      ['Taxes', '50', '60'],
      ['Charges', '30', '40']
    ]
    const raw = grid(cells, [{ top: 0, left: 0, bottom: 0, right: 2 }], { styles: { '3,0': { indent: 1 }, '4,0': { indent: 1 } } })
    const dropped = dropLeadingRows(raw, 1)
    expect(dropped.merges).toEqual([])
    expect(dropped.styles).toEqual({ '2,0': { indent: 1 }, '3,0': { indent: 1 } })
    expect(labels(cells, [{ top: 0, left: 0, bottom: 0, right: 2 }])).toEqual(['Revenue', 'Taxes', 'Charges'])
    expect(structureGrid(raw).index.map((t) => t.filter((x) => x.length > 0).join(' > '))).toEqual([
      'Revenue',
      'Revenue > Taxes',
      'Revenue > Charges'
    ])
  })

  it("takes the source's own title when the grid has no title rows, and its title rows when it has", () => {
    const body = [
      ['', '2019', '2020'],
      ['north', '1', '2'],
      ['south', '3', '4']
    ]
    expect(structureGrid(grid(body, [], { hints: { title: 'Sales by region' } })).title).toBe('Sales by region')
    const titled = [['Table 3. Sales by region, in thousands', '', ''], ...body]
    expect(structureGrid(grid(titled, [], { hints: { title: 'sales.html' } })).title).toBe('Table 3. Sales by region, in thousands')
  })
})

describe('notes under the table', () => {
  it('keeps source lines and footnotes out of the rows of a flat table, and keeps them with nesting off', () => {
    const cells = [
      ['occupation', 'employment', 'change'],
      ['Pump operators', '11.2', '-0.4'],
      ['Tank car loaders', '22.5', '1.3'],
      ['', '', ''],
      ['Source: Employment Projections program, U.S. Bureau of Labor Statistics', '', ''],
      ['1 Includes occupations not shown separately.', '', '']
    ]
    const g = grid(cells, [], { hints: { records: true } })
    const p = structureGrid(g)
    expect(p.values.map((v) => v[0])).toEqual(['Pump operators', 'Tank car loaders'])
    const raw = structureGrid(g, { headerRows: 1, headerCols: 0, leftHierarchy: 'none' })
    expect(raw.values).toHaveLength(4)
  })

  it('makes notes under a report leaves of the left tree, not sections or rows', () => {
    const cells = [
      ['', '2019', '2020'],
      ['Revenue', '100', '120'],
      ['Taxes', '50', '60'],
      ['NOTE: Detail may not add to total because of rounding.', '', ''],
      ['* Estimate.', '', '']
    ]
    const p = structureGrid(grid(cells))
    expect(p.index).toEqual([['Revenue'], ['Taxes']])
    expect(p.leftTree.children.map((c) => c.text)).toEqual([
      'Revenue',
      'Taxes',
      'NOTE: Detail may not add to total because of rounding.',
      '* Estimate.'
    ])
    expect(p.notes).toBe('NOTE: Detail may not add to total because of rounding.\n* Estimate.')
  })

  it('reads a last line merged across the whole table as a note, and copies it into no column', () => {
    // A race result with a link to its report under it, written as one cell across the table (an HTML colspan).
    const cells = [
      ['Pos', 'No', 'Driver', 'Team'],
      ['1', '10', 'Dario Franchitti', 'Chip Ganassi Racing'],
      ['2', '9', 'Scott Dixon', 'Chip Ganassi Racing'],
      ['OFFICIAL BOX SCORE', '', '', '']
    ]
    const p = structureGrid(grid(cells, [{ top: 3, left: 0, bottom: 3, right: 3 }]))
    expect(p.values.map((v) => v[2])).toEqual(['Dario Franchitti', 'Scott Dixon'])
    expect(p.notes).toBe('OFFICIAL BOX SCORE')
    // Inside the table such a line is a row of its own, written once: not a value of every column.
    const inside = [cells[0] ?? [], ['Representing Brazil', '', '', ''], cells[1] ?? [], cells[2] ?? []]
    const q = structureGrid(grid(inside, [{ top: 1, left: 0, bottom: 1, right: 3 }]), {
      headerRows: 1,
      headerCols: 0,
      leftHierarchy: 'auto'
    })
    expect(q.values[0]).toEqual(['Representing Brazil', '', '', ''])
  })

  it('does not take a short last record, or a list of lines, for notes', () => {
    const records = grid(
      [
        ['name', 'city'],
        ['Ann', 'Oslo'],
        ['Bo', '']
      ],
      [],
      { hints: { records: true } }
    )
    expect(structureGrid(records).values).toHaveLength(2)
    const list = grid([
      ['Notes', ''],
      ['Source: survey of 2019 households, weighted to the census population.', ''],
      ['1 Excludes territories.', '']
    ])
    expect(structureGrid(list, { headerRows: 0, headerCols: 0 }).values.length).toBeGreaterThan(0)
  })
})
