import { describe, expect, it } from 'vitest'
import type { MergedRegion, RawGrid } from '../../../../shared/table'
import { detectStructure, structureGrid, treePaths } from './index'

const grid = (cells: string[][], merges: MergedRegion[] = []): RawGrid => ({ name: 't', cells, merges, warnings: [] })
const m = (top: number, left: number, bottom: number, right: number): MergedRegion => ({ top, left, bottom, right })

describe('label columns named in the corner', () => {
  it('takes leading columns named only in the last header row, under empty cells, as label columns', () => {
    const g = grid(
      [
        ['', '', 'overall', '', 'conference', '', ''],
        ['name', 'years', 'won-lost', 'pct', 'won-lost', 'pct', 'notes'],
        ['ann lee', '1968-88', '190-116', '61.0%', '9-9', '50.0%', 'two titles'],
        ['bo kim', '1989-2001', '127-106', '54.2%', '62-37', '61.8%', '']
      ],
      [m(0, 2, 0, 3), m(0, 4, 0, 5)]
    )
    expect(detectStructure(g)).toMatchObject({ headerRows: 2, headerCols: 2 })
    const p = structureGrid(g)
    expect(p.index).toEqual([
      ['ann lee', '1968-88'],
      ['bo kim', '1989-2001']
    ])
    expect(treePaths(p.topTree)[0]).toEqual(['overall', 'won-lost'])
  })

  it('reads a missing marker above a column name as empty', () => {
    const g = grid(
      [
        ['none', 'none', 'overall', ''],
        ['name', 'years', 'won-lost', 'pct'],
        ['ann lee', '1968-88', '190-116', '61.0%'],
        ['bo kim', '1989-2001', '127-106', '54.2%']
      ],
      [m(0, 2, 0, 3)]
    )
    expect(detectStructure(g)).toMatchObject({ headerRows: 2, headerCols: 2 })
  })

  it('stops at the first column with a header above its last header row', () => {
    const g = grid(
      [
        ['', 'men', '', 'women', ''],
        ['region', '2011', '2016', '2011', '2016'],
        ['east', '1', '2', '3', '4'],
        ['west', '5', '6', '7', '8']
      ],
      [m(0, 1, 0, 2), m(0, 3, 0, 4)]
    )
    expect(detectStructure(g)).toMatchObject({ headerRows: 2, headerCols: 1 })
  })

  it('continues two text label columns with a numeric one named under an empty cell', () => {
    const g = grid(
      [
        ['year', 'team', '', 'rushing', ''],
        ['', '', 'gp', 'att', 'yds'],
        ['1987', 'rai', '7', '81', '554'],
        ['1988', 'rai', '10', '136', '580']
      ],
      [m(0, 0, 1, 0), m(0, 1, 1, 1), m(0, 3, 0, 4)]
    )
    expect(detectStructure(g)).toMatchObject({ headerRows: 2, headerCols: 3 })
    // After one label column the same numeric column stays data.
    const one = grid(
      [
        ['city', '', 'black', ''],
        ['', 'population', 'rank', 'percent'],
        ['detroit', '713,777', '1', '84.3'],
        ['jackson', '173,514', '2', '80.1']
      ],
      [m(0, 0, 1, 0), m(0, 2, 0, 3)]
    )
    expect(detectStructure(one)).toMatchObject({ headerRows: 2, headerCols: 1 })
    // Nor after two, when its numbers are measures in the tens of thousands or more (a population).
    const measures = grid(
      [
        ['area', 'year', 'population', 'violent crime', ''],
        ['', '', '', 'number', 'rate'],
        ['northeast', '2015', '56,184,737', '180,474', '321.2'],
        ['', '2016', '56,209,510', '178,244', '317.1'],
        ['', 'percent change', '', '-1.2', '-1.3']
      ],
      [m(0, 0, 1, 0), m(0, 1, 1, 1), m(0, 2, 1, 2), m(0, 3, 0, 4)]
    )
    expect(detectStructure(measures)).toMatchObject({ headerRows: 2, headerCols: 2 })
  })

  it('reads missing markers under a column name as empty header cells', () => {
    const g = grid(
      [
        ['station', 'capacity', 'owner', 'payment', ''],
        ['none', 'none', 'none', '2018', '2019'],
        ['afsin a', '1355', 'celikler', 'none', 'none'],
        ['bolu', '270', 'kazanci', '30', 'eligible']
      ],
      [m(0, 3, 0, 4)]
    )
    expect(detectStructure(g)).toMatchObject({ headerRows: 2, headerCols: 3 })
  })

  it('takes a text first column as row labels when most other columns hold numbers, not when most hold text', () => {
    const measures = grid([
      ['state', 'r&d', 'r&d/gdp', 'largest industry', 'share'],
      ['california', '64104', '3.4', 'semiconductors', '17'],
      ['washington', '13659', '3.8', 'software', '56'],
      ['texas', '12920', '1', 'semiconductors', '21']
    ])
    expect(detectStructure(measures)).toMatchObject({ headerRows: 1, headerCols: 1 })
    const records = grid([
      ['union', 'employee group', 'employees', 'status'],
      ['pilots association', 'pilots', '2,871', 'amendable 4/1/2020'],
      ['flight attendants association', 'flight attendants', '5,815', 'amendable 12/17/2021']
    ])
    expect(detectStructure(records)).toMatchObject({ headerRows: 1, headerCols: 0 })
  })

  it('takes a text first column as row labels beside measures and a column of sentences about the rows', () => {
    const described = grid([
      ['census metropolitan area', 'percent change in crime severity index', 'violations driving the change'],
      ['canada', '2', 'increase in fraud, sexual assault (level 1) and child pornography'],
      ["st. john's", '12', 'increase in weapons violations, fraud and breaking and entering'],
      ['halifax', '2', 'increase in sexual assault (level 1) and child pornography']
    ])
    expect(detectStructure(described)).toMatchObject({ headerRows: 1, headerCols: 1 })
    // With another text column beside the sentences, the table is one of records.
    const records = grid([
      ['name', 'city', 'length', 'lanes', 'notes'],
      ['alewife brook parkway', 'cambridge', '2.05', '4', 'runs from concord avenue to the mystic valley parkway'],
      ['american legion highway', 'westport', '9.1', '2', 'runs through tiverton, fall river and westport on its way'],
      ['amvets memorial highway', 'fall river', '4.3', '4', 'connects the highway to the braga bridge across the river']
    ])
    expect(detectStructure(records)).toMatchObject({ headerRows: 1, headerCols: 0 })
  })
})

describe('label columns merged in step with the first', () => {
  it('takes columns merged over the same groups of rows as column 0, and the text column after them, as labels', () => {
    const g = grid(
      [
        ['industry', 'share of assets', 'type', 'assets'],
        ['', '%', '', '$ millions'],
        ['construction', '18.6', 'mnes', '3.80'],
        ['', '', 'domestic', '0.13'],
        ['trade', '60.8', 'mnes', '6.90'],
        ['', '', 'domestic', '0.22']
      ],
      [m(0, 0, 1, 0), m(0, 2, 1, 2), m(2, 0, 3, 0), m(2, 1, 3, 1), m(4, 0, 5, 0), m(4, 1, 5, 1)]
    )
    expect(detectStructure(g)).toMatchObject({ headerRows: 2, headerCols: 3 })
    expect(structureGrid(g).index).toEqual([
      ['construction', '18.6', 'mnes'],
      ['construction', '18.6', 'domestic'],
      ['trade', '60.8', 'mnes'],
      ['trade', '60.8', 'domestic']
    ])
  })

  it('leaves a column merged over other spans than column 0 as data', () => {
    const g = grid(
      [
        ['club', 'season', 'league', '', ''],
        ['', '', 'division', 'apps', 'goals'],
        ['stoke', '1990', 'first', '7', '1'],
        ['', '1991', '', '9', '0'],
        ['', '1992', 'second', '3', '2']
      ],
      [m(0, 0, 1, 0), m(0, 1, 1, 1), m(0, 2, 0, 4), m(2, 0, 4, 0), m(2, 2, 3, 2)]
    )
    expect(detectStructure(g).headerCols).toBe(2)
  })
})

describe('header rows inside merges', () => {
  it('keeps a row covered throughout by merges from the header row above in the header', () => {
    const g = grid(
      [
        ['factor', '%', 'confidence interval', ''],
        ['', '', '', ''],
        ['', '', 'from', 'to'],
        ['reasons for use', '', '', ''],
        ['base tan', '62.0', '57.3', '66.6'],
        ['aesthetic', '21.0', '17.2', '24.8']
      ],
      [m(0, 0, 2, 0), m(0, 1, 2, 1), m(0, 2, 1, 3), m(3, 1, 3, 3)]
    )
    expect(detectStructure(g)).toMatchObject({ headerRows: 3, headerCols: 1 })
    expect(treePaths(structureGrid(g).topTree)).toEqual([['%'], ['confidence interval', 'from'], ['confidence interval', 'to']])
  })

  it('takes a label under an empty corner beside a unit merged over the data into the header', () => {
    const g = grid(
      [
        ['', 'all crimes', 'violent crimes'],
        ['number of victimizations', 'percent', ''],
        ['0', '6.7', '7.6'],
        ['1', '11.7', '18.1'],
        ['3 or more', '17.6', 'f']
      ],
      [m(1, 1, 1, 2)]
    )
    expect(detectStructure(g)).toMatchObject({ headerRows: 2, headerCols: 1 })
    expect(structureGrid(g).index).toEqual([['0'], ['1'], ['3 or more']])
    // Under a named corner, or followed by rows of the same shape, such a row heads a section of the body.
    const named = grid(
      [
        ['ancestry', 'all crimes', 'violent crimes'],
        ['region of ancestry', 'percent', ''],
        ['europe', '6.7', '7.6'],
        ['asia', '11.7', '18.1']
      ],
      [m(1, 1, 1, 2)]
    )
    expect(detectStructure(named)).toMatchObject({ headerRows: 1, headerCols: 1 })
    const sections = grid(
      [
        ['', 'all crimes', 'violent crimes'],
        ['region of ancestry', 'percent', ''],
        ['europe', '6.7', '7.6'],
        ['country of ancestry', 'percent', ''],
        ['haiti', '11.7', '18.1']
      ],
      [m(1, 1, 1, 2), m(3, 1, 3, 2)]
    )
    expect(detectStructure(sections)).toMatchObject({ headerRows: 1, headerCols: 1 })
  })
})

describe('placeholder rows', () => {
  it('drops a body row written only with placeholders, as an empty row', () => {
    const g = grid([
      ['state', 'total', 'rate'],
      ['none', 'none', 'none'],
      ['alabama', '99,800', '2,640'],
      ['alaska', '12,900', '2,320']
    ])
    const p = structureGrid(g, { headerRows: 1, headerCols: 1, leftHierarchy: 'auto' })
    expect(p.index).toEqual([['alabama'], ['alaska']])
    expect(p.rowSource).toEqual([2, 3])
  })
})

describe('a second label column of text', () => {
  it('reads a text column beside an outer label written once per group as the inner labels', () => {
    const g = grid([
      ['NUTS1 area', '', 'Primary', 'Manufacturing'],
      ['North East', 'Imports', '..', '558'],
      ['', 'Exports', '..', '1,149'],
      ['', 'Balance', '-209', '592'],
      ['North West', 'Imports', '204', '1,829'],
      ['', 'Exports', '183', '1,235'],
      ['', 'Balance', '-22', '-594']
    ])
    expect(detectStructure(g)).toMatchObject({ headerRows: 1, headerCols: 2 })
    expect(structureGrid(g).index.slice(0, 4)).toEqual([
      ['North East', 'Imports'],
      ['North East', 'Exports'],
      ['North East', 'Balance'],
      ['North West', 'Imports']
    ])
  })

  it('keeps every header cell of a parent row in the paths of the rows under it', () => {
    const g = grid([
      ['', 'FARE MEDIA', '2017', '2016'],
      ['WHO', 'ADULT', '', ''],
      ['', 'TOKENS', '76,106', '102,073'],
      ['', 'TICKETS', '1,200', '1,310'],
      ['', 'SENIOR', '', ''],
      ['', 'MONTHLY PASS', '27,324', '27,621']
    ])
    expect(detectStructure(g)).toMatchObject({ headerRows: 1, headerCols: 2 })
    expect(structureGrid(g).index.map((t) => t.filter((x) => x.length > 0).join(' > '))).toEqual([
      'WHO > ADULT > TOKENS',
      'WHO > ADULT > TICKETS',
      'WHO > SENIOR > MONTHLY PASS'
    ])
  })

  it('leaves a named text column of a table of records as data', () => {
    const g = grid([
      ['club', 'season', 'division', 'apps', 'goals'],
      ['leeds', '1990', 'first', '30', '4'],
      ['leeds', '1991', 'first', '28', '2'],
      ['york', '1992', 'second', '35', '9']
    ])
    expect(detectStructure(g).headerCols).toBeLessThan(3)
  })
})

describe('label columns merged in groups', () => {
  it('takes a column merged in groups inside the groups of the column before it, and the text column after it', () => {
    const g = grid(
      [
        ['State', 'Area', '', 'Population', 'Violent crime', 'Murder', 'Robbery'],
        ['ALABAMA', 'Metropolitan area', '', '3,716,889', '', '', ''],
        ['', '', 'Area actually reporting', '99.2%', '20,793', '331', '4,320'],
        ['', '', 'Estimated total', '100.0%', '20,949', '332', '4,400'],
        ['', 'Nonmetropolitan counties', '', '625,989', '', '', ''],
        ['', '', 'Area actually reporting', '94.5%', '1,220', '31', '120'],
        ['', '', 'Estimated total', '100.0%', '1,291', '33', '130'],
        ['ALASKA', 'Metropolitan area', '', '401,781', '', '', ''],
        ['', '', 'Area actually reporting', '100.0%', '3,780', '52', '630'],
        ['', '', 'Estimated total', '100.0%', '3,780', '52', '630']
      ],
      [m(1, 0, 6, 0), m(1, 1, 3, 1), m(4, 1, 6, 1), m(7, 0, 9, 0), m(7, 1, 9, 1)]
    )
    expect(detectStructure(g)).toMatchObject({ headerRows: 1, headerCols: 3 })
    expect(
      structureGrid(g)
        .index.slice(0, 3)
        .map((t) => t.filter((x) => x.length > 0).join(' > '))
    ).toEqual([
      'ALABAMA > Metropolitan area',
      'ALABAMA > Metropolitan area > Area actually reporting',
      'ALABAMA > Metropolitan area > Estimated total'
    ])
  })
})

describe('the last rows of a report header', () => {
  it('keeps a row of column numbers under the column names in the header while the corner reaches it', () => {
    const g = grid(
      [
        ['Description', 'United States', '', 'Alabama', ''],
        ['', 'State', 'Local', 'State', 'Local'],
        ['', 'amount', 'amount', 'amount', 'amount'],
        ['', '1', '2', '1', '2'],
        ['Revenue', '100', '50', '20', '10'],
        ['Taxes', '60', '30', '12', '6']
      ],
      [m(0, 0, 3, 0), m(0, 1, 0, 2), m(0, 3, 0, 4)]
    )
    expect(detectStructure(g)).toMatchObject({ headerRows: 4, headerCols: 1 })
    expect(structureGrid(g).index).toEqual([['Revenue'], ['Taxes']])
  })

  it('takes a last header row that names every column, the label columns included', () => {
    const g = grid(
      [
        ['', 'Description', 'United States', '', 'Alabama', ''],
        ['', '', 'State', 'Local', 'State', 'Local'],
        ['Line', 'Description', 'C1', 'C2', 'C3', 'C4'],
        ['1', 'Revenue', '100', '50', '20', '10'],
        ['2', 'Taxes', '60', '30', '12', '6']
      ],
      [m(0, 1, 1, 1), m(0, 2, 0, 3), m(0, 4, 0, 5)]
    )
    expect(detectStructure(g)).toMatchObject({ headerRows: 3, headerCols: 2 })
    const p = structureGrid(g)
    expect(p.index).toEqual([
      ['1', 'Revenue'],
      ['2', 'Taxes']
    ])
    expect(p.columns[0]).toEqual(['United States', 'State', 'C1'])
  })
})

describe('a spacer row inside the header', () => {
  it('goes on past an empty row that header merges reach into, to a row of series codes', () => {
    const g = grid(
      [
        ['', '', 'New Housing', '', 'Total Housing'],
        ['Period', '', 'Public', 'Private', ''],
        ['', '', '', '', ''],
        ['', '', 'MV36', 'MV37', 'MVL7'],
        ['1997', '', '35.7', '46.9', '45.3'],
        ['1998', 'Q1', '28.9', '47.4', '44.7']
      ],
      [m(0, 2, 0, 3), m(0, 4, 2, 4), m(1, 0, 1, 1), m(1, 2, 2, 2), m(1, 3, 2, 3)]
    )
    expect(detectStructure(g).headerRows).toBe(4)
    expect(structureGrid(g).columns[0]).toEqual(['New Housing', 'Public', 'MV36'])
  })
})
