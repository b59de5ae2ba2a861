import { describe, expect, it } from 'vitest'
import type { MergedRegion, RawGrid } from '../../../../shared/table'
import { detectStructure, structureGrid, treePaths } from './index'

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
const labels = (g: RawGrid): string[] => rowPaths(structureGrid(g))

describe('left hierarchy: units, sections and indentation', () => {
  it('makes a unit row the parent of the rows below it', () => {
    const g = grid(
      [
        ['group', 'a', 'b'],
        ['', 'percent', ''],
        ['x', '1', '2'],
        ['y', '3', '4']
      ],
      [m(1, 1, 1, 2)]
    )
    const p = structureGrid(g)
    expect(p.options.headerRows).toBe(1)
    expect(p.index).toEqual([
      ['percent', 'x'],
      ['percent', 'y']
    ])
    expect(p.rowSource).toEqual([2, 3])
  })

  it('reads a label with a unit merged across the data as a section', () => {
    const g = grid(
      [
        ['', 'women', 'men'],
        ['region of ancestry', 'percent', ''],
        ['africa', '12.1', '11.0'],
        ['asia', '30.2', '28.4'],
        ['country of ancestry', 'percent', ''],
        ['haiti', '79.6', '63.6']
      ],
      [m(1, 1, 1, 2), m(4, 1, 4, 2)]
    )
    expect(structureGrid(g).index).toEqual([
      ['region of ancestry', 'africa'],
      ['region of ancestry', 'asia'],
      ['country of ancestry', 'haiti']
    ])
    const crew = grid(
      [
        ['', 'film', 'sequel'],
        ['director', 'adam mckay', ''],
        ['writer', 'will ferrell', '']
      ],
      [m(1, 1, 1, 2), m(2, 1, 2, 2)]
    )
    const p = structureGrid(crew)
    expect(p.index).toEqual([['director'], ['writer']])
    expect(p.values.map((v) => v[0])).toEqual(['adam mckay', 'will ferrell'])
  })

  it('makes section rows parents until the next section, and a total row closes its section', () => {
    const g = grid([
      ['', '2018', '2019'],
      ['men', '', ''],
      ['young', '1', '2'],
      ['old', '3', '4'],
      ['women', '', ''],
      ['young', '5', '6'],
      ['total', '7', '8'],
      ['all', '9', '9']
    ])
    const p = structureGrid(g)
    expect(p.index).toEqual([
      ['men', 'young'],
      ['men', 'old'],
      ['women', 'young'],
      ['women', 'total'],
      ['all', '']
    ])
    expect(treePaths(p.leftTree)).toContainEqual(['men', 'old'])
  })

  it('nests indented labels, from styles or from leading spaces', () => {
    const styled = grid(
      [
        ['', 'n'],
        ['all', '10'],
        ['a', '4'],
        ['b', '6'],
        ['other', '1']
      ],
      [],
      { '2,0': { indent: 1 }, '3,0': { indent: 1 } }
    )
    expect(structureGrid(styled).index).toEqual([
      ['all', ''],
      ['all', 'a'],
      ['all', 'b'],
      ['other', '']
    ])
    const spaced = grid([
      ['', 'n'],
      ['all', '10'],
      ['  a', '4'],
      ['    a1', '1'],
      ['  b', '6']
    ])
    expect(structureGrid(spaced).index).toEqual([
      ['all', '', ''],
      ['all', 'a', ''],
      ['all', 'a', 'a1'],
      ['all', 'b', '']
    ])
  })

  it('reads indentation in the indented label column, and rows that leave it blank continue their group', () => {
    // An area written once over its years, the states indented under their division.
    const crime = grid([
      ['Area', 'Year', 'Violent crime', 'Rate'],
      ['New England', '2015', '42,121', '286.3'],
      ['', '2016', '41,598', '282.3'],
      ['', 'Percent change', '-1.2', '-1.4'],
      ['  Connecticut', '2015', '7,938', '221.4'],
      ['', '2016', '8,123', '227.1'],
      ['  Maine', '2015', '1,726', '129.8'],
      ['', '2016', '1,648', '123.8']
    ])
    const p = structureGrid(crime, { ...detectStructure(crime), headerRows: 1, headerCols: 2 })
    expect(rowPaths(p)).toEqual([
      'New England > 2015',
      'New England > 2016',
      'New England > Percent change',
      'New England > Connecticut > 2015',
      'New England > Connecticut > 2016',
      'New England > Maine > 2015',
      'New England > Maine > 2016'
    ])
    // An area merged down over its years is on each row's path once.
    const merged = grid(
      [
        ['Area', 'Year', 'Violent crime', 'Rate'],
        ['New England', '2015', '42,121', '286.3'],
        ['', '2016', '41,598', '282.3'],
        ['  Maine', '2015', '1,726', '129.8'],
        ['', '2016', '1,648', '123.8']
      ],
      [
        { top: 1, left: 0, bottom: 2, right: 0 },
        { top: 3, left: 0, bottom: 4, right: 0 }
      ]
    )
    const m = structureGrid(merged, { ...detectStructure(merged), headerRows: 1, headerCols: 2 })
    expect(m.index).toEqual([
      ['New England', '2015', ''],
      ['New England', '2016', ''],
      ['New England', 'Maine', '2015'],
      ['New England', 'Maine', '2016']
    ])
    // Line numbers before the indented labels come along with the label they number.
    const lines = grid([
      ['Line', 'Description', 'Amount'],
      ['1', 'Taxes', '100'],
      ['2', '  Property', '60'],
      ['3', '  Sales', '40'],
      ['4', 'Charges', '20']
    ])
    const q = structureGrid(lines, { ...detectStructure(lines), headerRows: 1, headerCols: 2, labelsFrom: 0 })
    expect(rowPaths(q)).toEqual(['1 > Taxes', '1 > Taxes > 2 > Property', '1 > Taxes > 3 > Sales', '4 > Charges'])
    // As detected, the line numbers index the rows and stay a column of the table (labels-after-index-columns).
    const detected = structureGrid(lines, detectStructure(lines))
    expect(rowPaths(detected)).toEqual(['Taxes', 'Taxes > Property', 'Taxes > Sales', 'Charges'])
    expect(detected.columns).toEqual([['Line'], ['Amount']])
  })

  it('makes a section row merged across the table a banner over the plain sections below it', () => {
    const block = (a: string, b: string): string[][] => [
      ['Males', '', ''],
      ['Full-time', a, b],
      ['Females', '', ''],
      ['Full-time', b, a]
    ]
    const g = grid(
      [
        ['', 'Under 35', 'All ages'],
        ['ESTIMATE', '', ''],
        ['EMPLOYEES', '', ''],
        ...block('1,254.4', '3,984.4'),
        ['EARNINGS ($)', '', ''],
        ...block('1,548.40', '1,810.90'),
        ['STANDARD ERROR', '', ''],
        ['EMPLOYEES', '', ''],
        ...block('30.1', '45.2'),
        ['EARNINGS ($)', '', ''],
        ...block('12.5', '10.1'),
        ['Source: Survey of Employee Earnings', '', '']
      ],
      [
        { top: 1, left: 0, bottom: 1, right: 2 },
        { top: 12, left: 0, bottom: 12, right: 2 }
      ],
      // Sexes indented one step, rows two; the banners and measures not at all.
      Object.fromEntries(
        [3, 5, 8, 10, 14, 16, 19, 21].flatMap((r) => [
          [`${r},0`, { indent: 1 }],
          [`${r + 1},0`, { indent: 2 }]
        ])
      )
    )
    const p = structureGrid(g)
    expect(rowPaths(p)).toEqual([
      'ESTIMATE > EMPLOYEES > Males > Full-time',
      'ESTIMATE > EMPLOYEES > Females > Full-time',
      'ESTIMATE > EARNINGS ($) > Males > Full-time',
      'ESTIMATE > EARNINGS ($) > Females > Full-time',
      'STANDARD ERROR > EMPLOYEES > Males > Full-time',
      'STANDARD ERROR > EMPLOYEES > Females > Full-time',
      'STANDARD ERROR > EARNINGS ($) > Males > Full-time',
      'STANDARD ERROR > EARNINGS ($) > Females > Full-time'
    ])
    // The note under the table belongs to no banner.
    expect(
      treePaths(p.leftTree)
        .map((path) => path.join(' > '))
        .slice(-1)
    ).toEqual(['Source: Survey of Employee Earnings'])
  })

  it('carries labels written once per group down in a grid with merges elsewhere, but not into a lone blank', () => {
    const rows = [
      ['Total value of trade', '', '', '', ''],
      ['', '', '', 'Production', ''],
      ['NUTS2', 'Name', '', 'EU', 'Rest of world'],
      ['UKC1', 'Tees Valley', 'Imports', '115', '95'],
      ['', '', 'Exports', '124', '161'],
      ['UKC2', 'Northumberland', 'Imports', '259', '178'],
      ['', '', 'Exports', '497', '346']
    ]
    const merges = [
      { top: 0, left: 0, bottom: 0, right: 4 },
      { top: 1, left: 3, bottom: 1, right: 4 }
    ]
    const g = grid(rows, merges)
    const p = structureGrid(g, { ...detectStructure(g), titleRows: 1, headerRows: 2, headerCols: 3 })
    expect(rowPaths(p)).toEqual([
      'UKC1 > Tees Valley > Imports',
      'UKC1 > Tees Valley > Exports',
      'UKC2 > Northumberland > Imports',
      'UKC2 > Northumberland > Exports'
    ])
    const games = grid(
      [
        ['Results', '', '', ''],
        ['No.', 'Date', 'Game', ''],
        ['', '', 'Winner', 'Score'],
        ...Array.from({ length: 6 }, (_, k) => [String(k + 1), `November ${k + 10}, 2001`, 'Troy State', '21']),
        ['', 'Totals', '', '126']
      ],
      [
        { top: 0, left: 0, bottom: 0, right: 3 },
        { top: 1, left: 2, bottom: 1, right: 3 }
      ]
    )
    const q = structureGrid(games, { ...detectStructure(games), titleRows: 1, headerRows: 2, headerCols: 3 })
    expect(q.index[q.index.length - 1]?.filter((x) => x.length > 0)).toEqual(['Totals'])
  })

  it('reads label rows after the last data row as notes, not as sections nesting each other', () => {
    const g = grid([
      ['', '', 'visits'],
      ['2014', '', ''],
      ['', 'Jan', '2,392'],
      ['', 'Feb', '2,077'],
      ['Source: International Passenger Survey', '', ''],
      ['1', 'Estimate rounded to nearest 10000', ''],
      ['         NSA   Not seasonally adjusted', '', '']
    ])
    const p = structureGrid(g, { ...detectStructure(g), headerRows: 1, headerCols: 2 })
    expect(rowPaths(p)).toEqual(['2014 > Jan', '2014 > Feb'])
    // A note written over two cells keeps both.
    expect(
      treePaths(p.leftTree)
        .map((path) => path.join(' > '))
        .slice(-3)
    ).toEqual(['Source: International Passenger Survey', '1 > Estimate rounded to nearest 10000', 'NSA   Not seasonally adjusted'])
  })

  it('reads an outer column written once per group beside indented labels as groups of their own', () => {
    const g = grid([
      ['', '', '2016', '2017'],
      ['WHO', 'ADULT', '', ''],
      ['', '    TOKENS', '1,100', '1,000'],
      ['', '    CASH', '36,045', '41,536'],
      ['', 'SENIOR', '', ''],
      ['', '    TICKETS', '31,195', '32,997'],
      ['WHERE', 'BUS', '', ''],
      ['', '    BUS', '261,113', '252,899'],
      ['WHEN', 'WEEKDAY', '424,155', '424,117'],
      ['', 'WEEKEND', '109,061', '113,962']
    ])
    const p = structureGrid(g, { ...detectStructure(g), headerRows: 1, headerCols: 2 })
    expect(rowPaths(p)).toEqual([
      'WHO > ADULT > TOKENS',
      'WHO > ADULT > CASH',
      'WHO > SENIOR > TICKETS',
      'WHERE > BUS > BUS',
      'WHEN > WEEKDAY',
      'WHEN > WEEKEND'
    ])
  })

  it('puts a total under its parts beside them, heading nothing, and one set further out ends their group', () => {
    // Fares indented two steps, their sub-totals one; the other fares after the children's sub-total, and the
    // system totals, add up with the sub-totals.
    const g = grid([
      ['', '', '2016', '2017'],
      ['WHO', 'ADULT', '', ''],
      ['', '    TOKENS', '1,100', '1,000'],
      ['', '    CASH', '36,045', '41,536'],
      ['', '  SUB-TOTAL', '37,145', '42,536'],
      ['', 'CHILDREN', '', ''],
      ['', '    FREE RIDES', '24,856', '21,875'],
      ['', '    CASH', '163', '36'],
      ['', '  SUB-TOTAL', '25,019', '21,911'],
      ['', '    DAY PASS', '6,728', '9,130'],
      ['', '    GTA PASS', '4,283', '4,855'],
      ['', '  SYSTEM TOTAL', '73,175', '78,432'],
      ['WHEN', 'WEEKDAY', '60,000', '61,000'],
      ['', 'WEEKEND', '13,175', '17,432'],
      ['', '  SYSTEM TOTAL', '73,175', '78,432']
    ])
    const p = structureGrid(g, { ...detectStructure(g), headerRows: 1, headerCols: 2 })
    expect(rowPaths(p)).toEqual([
      'WHO > ADULT > TOKENS',
      'WHO > ADULT > CASH',
      'WHO > ADULT > SUB-TOTAL',
      'WHO > CHILDREN > FREE RIDES',
      'WHO > CHILDREN > CASH',
      'WHO > CHILDREN > SUB-TOTAL',
      'WHO > DAY PASS',
      'WHO > GTA PASS',
      'WHO > SYSTEM TOTAL',
      'WHEN > WEEKDAY',
      'WHEN > WEEKEND',
      'WHEN > SYSTEM TOTAL'
    ])
  })

  it('closes a section whose rows are indented under it at the next row of its own indentation', () => {
    const g = grid([
      ['', '2004', '2005'],
      ['Energy taxes', '', ''],
      ['    Crude oil', '13,532', '14,352'],
      ['    Renewable certificates', '83', '101'],
      ['Transport taxes', '', ''],
      ['    Luxury car tax', '323', '298'],
      ['Waste levies', 'na', 'na'],
      ['Total', '19,085', '20,257']
    ])
    expect(labels(g)).toEqual([
      'Energy taxes > Crude oil',
      'Energy taxes > Renewable certificates',
      'Transport taxes > Luxury car tax',
      'Waste levies',
      'Total'
    ])
  })

  it('nests a run of section rows, and a later lone section closes only the inner one', () => {
    const g = grid([
      ['', 'n'],
      ['functional', ''],
      ['pain', ''],
      ['none', '1'],
      ['some', '2'],
      ['sleep', ''],
      ['well', '3'],
      ['social', ''],
      ['work', ''],
      ['no', '4']
    ])
    expect(structureGrid(g).index).toEqual([
      ['functional', 'pain', 'none'],
      ['functional', 'pain', 'some'],
      ['functional', 'sleep', 'well'],
      ['social', 'work', 'no']
    ])
  })
})
