import { describe, expect, it } from 'vitest'
import type { MergedRegion, RawGrid } from '../../../../shared/table'
import { detectStructure, flattenTable, structureGrid, treePaths } from './index'

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

describe('header detection', () => {
  it('finds two header rows under a merged parent and an empty corner', () => {
    const g = grid(
      [
        ['', 'eastern', '', 'northern', ''],
        ['', 'men', 'women', 'men', 'women'],
        ['food', '1', '2', '3', '4'],
        ['retail', '5', '6', '7', '8']
      ],
      [m(0, 1, 0, 2), m(0, 3, 0, 4), m(0, 0, 1, 0)]
    )
    expect(detectStructure(g)).toMatchObject({ headerRows: 2, headerCols: 1 })
    const p = structureGrid(g)
    expect(p.columns).toEqual([
      ['eastern', 'men'],
      ['eastern', 'women'],
      ['northern', 'men'],
      ['northern', 'women']
    ])
    expect(p.index).toEqual([['food'], ['retail']])
    expect(p.numbers()).toEqual([
      [1, 2, 3, 4],
      [5, 6, 7, 8]
    ])
    expect(p.columnCells[1]).toEqual({ row: 1, col: 2 })
    expect(p.rowSource).toEqual([2, 3])
    expect(p.colSource).toEqual([1, 2, 3, 4])
  })

  it('reads a CSV-style header whose parents are written once over empty cells', () => {
    const g = grid([
      ['region', '2018', '', '2019', ''],
      ['', 'men', 'women', 'men', 'women'],
      ['a', '1', '2', '3', '4']
    ])
    expect(detectStructure(g)).toMatchObject({ headerRows: 2, headerCols: 1 })
    expect(structureGrid(g).columns).toEqual([
      ['2018', 'men'],
      ['2018', 'women'],
      ['2019', 'men'],
      ['2019', 'women']
    ])
  })

  it('reads one header row in a CSV of records whose rows are all text, also under an unnamed column', () => {
    // An image column left empty, names, dates and free text: rows that read like header labels are records.
    const people = [
      ['Image', 'Name', 'Birth date', 'Death date', 'Brief biography'],
      ['', 'Harriet Churchill', 'October 1679', 'October 1679', 'Died an infant'],
      ['', 'Anne Churchill', '27 February 1683', '15 April 1716', 'Married the Earl of Sunderland'],
      ['—', 'Charles Churchill', '19 August 1690', '22 May 1692', 'Died an infant']
    ]
    expect(detectStructure({ ...grid(people), hints: { records: true } })).toMatchObject({ headerRows: 1, headerCols: 0 })
    // A last column without a name, as if a parent spanned it: its "children" read the same as the records below.
    const chart = [
      ['Chart Year', 'Artist', 'Album', 'Song', 'Billboard Hot 100', ''],
      ['2014', 'Puff Daddy', 'Forthcoming Album', 'Big Homie', 'New Single', ''],
      ['2014', 'Rick Ross', 'Mastermind', 'War Ready', 'New Single', ''],
      ['2014', 'Yo Gotti', 'I Am', 'I Know', 'New Single', '']
    ]
    expect(detectStructure({ ...grid(chart), hints: { records: true } })).toMatchObject({ headerRows: 1 })
    // Child labels under parents written once, over numbers, are still header rows in a CSV.
    const spanned = [
      ['region', '2018', '', '2019', ''],
      ['', 'men', 'women', 'men', 'women'],
      ['a', '1', '2', '3', '4']
    ]
    expect(detectStructure({ ...grid(spanned), hints: { records: true } })).toMatchObject({ headerRows: 2 })
    // Also when a section label comes before the first numbers.
    const sectioned = [spanned[0] ?? [], spanned[1] ?? [], ['earnings', '', '', '', ''], ['wages', '10', '11', '12', '13']]
    expect(detectStructure({ ...grid(sectioned), hints: { records: true } })).toMatchObject({ headerRows: 2 })
  })

  it('ends the header of an HTML table at the first row without header cells (<th>)', () => {
    const th = (rows: number[], cols: number): RawGrid['styles'] => {
      const styles: NonNullable<RawGrid['styles']> = {}
      for (const r of rows) for (let c = 0; c < cols; c++) styles[`${r},${c}`] = { bold: true, header: true }
      return styles
    }
    // Plates by year: the years are text-like and every cell is text, so without the markup the rows read as
    // header rows one after another.
    const plates = [
      ['Image', 'First issued', 'Design', 'Slogan', 'Serial format'],
      ['', '1955', 'White embossed digits', 'GRAND CANYON STATE', 'A-12345'],
      ['', '1958', 'White embossed digits', 'GRAND CANYON STATE', 'ABC-123'],
      ['', '1960', 'Blue embossed digits', 'GRAND CANYON STATE', 'ABC-123']
    ]
    expect(detectStructure(grid(plates, [], th([0], 5)))).toMatchObject({ headerRows: 1 })
    expect(detectStructure(grid(plates)).headerRows).toBeGreaterThan(1)
    // Two rows of <th> stay the header; a first column of <th> row labels does not make a row a header row.
    const charts = [
      ['Year', 'Title', 'Chart positions', ''],
      ['', '', 'AU', 'UK'],
      ['1995', 'You Oughta Know', 'Four', 'Twenty-two'],
      ['1996', 'Ironic', 'Three', 'Eleven']
    ]
    const styles = { ...th([0, 1], 4), '2,0': { bold: true, header: true }, '3,0': { bold: true, header: true } }
    expect(detectStructure(grid(charts, [m(0, 2, 0, 3)], styles))).toMatchObject({ headerRows: 2 })
    // The only <th> is a title over the table, and the header row is bold <td> cells: the rows after it are body.
    // Its rows are texts and years, and its header ends in an empty cell, as if a parent spanned the last columns.
    const fleet = [
      ['Current fleet', '', '', '', '', ''],
      ['Make/Model', 'Series', 'Model', 'Year', 'Notes', ''],
      ['New Flyer', '101-135', 'D40LFR', '2010', '', ''],
      ['New Flyer', '140-169', 'D40LFR', '2011', '140-143 wrapped', ''],
      ['MCI', '301-334', 'Classic', '1988', 'all retired', ''],
      ['New Flyer', '340-366', 'D40', '1992', 'used only during rush hour', '']
    ]
    expect(detectStructure(grid(fleet, [m(0, 0, 0, 4)], { '0,0': { bold: true, header: true } }))).toMatchObject({
      titleRows: 1,
      headerRows: 1
    })
  })

  it('keeps small numbers under a spanning parent in the header', () => {
    const g = grid(
      [
        ['cohort', 'years since landing', '', ''],
        ['', '1', '2', '3'],
        ['1999', '73.8', '47.3', '36.4'],
        ['2000', '73.8', '50.6', '35.6']
      ],
      [m(0, 1, 0, 3), m(0, 0, 1, 0)]
    )
    expect(detectStructure(g)).toMatchObject({ headerRows: 2, headerCols: 1 })
    expect(structureGrid(g).index).toEqual([['1999'], ['2000']])
  })

  it('treats a plain relational CSV as one header row and no index', () => {
    const g = grid([
      ['name', 'city', 'age'],
      ['ann', 'oslo', '31'],
      ['bob', 'rome', '42']
    ])
    expect(detectStructure(g)).toMatchObject({ headerRows: 1, headerCols: 0 })
    const p = structureGrid(g)
    expect(p.index).toEqual([[], []])
    expect(p.columns).toEqual([['name'], ['city'], ['age']])
  })

  it('gives a matrix with a labelled corner and numeric body a label column', () => {
    const g = grid([
      ['shipment type', 'kilometres'],
      ['crude', '110'],
      ['other', '313']
    ])
    expect(detectStructure(g)).toMatchObject({ headerRows: 1, headerCols: 1 })
  })

  it('finds several label columns in an empty corner', () => {
    const g = grid(
      [
        ['', '', '2018', '2017'],
        ['Compensation cost:', 'RSUs', '$98', '$63'],
        ['', 'Total', '$101', '$73']
      ],
      [m(1, 0, 2, 0)]
    )
    expect(detectStructure(g)).toMatchObject({ headerRows: 1, headerCols: 2 })
    expect(structureGrid(g).index).toEqual([
      ['Compensation cost:', 'RSUs'],
      ['Compensation cost:', 'Total']
    ])
  })

  it('keeps an ordinal first column under a merged corner as row labels when there are several header rows', () => {
    const g = grid(
      [
        ['years with earnings', 'men', '', 'women', ''],
        ['', 'percent', 'mean', 'percent', 'mean'],
        ['0', '28.9', '..', '51.0', '..'],
        ['1', '10.5', '7,300', '11.5', '4,800'],
        ['2', '8.1', '9,100', '9.0', '6,000']
      ],
      [m(0, 0, 1, 0), m(0, 1, 0, 2), m(0, 3, 0, 4)]
    )
    expect(detectStructure(g)).toMatchObject({ headerRows: 2, headerCols: 1 })
    expect(structureGrid(g).index).toEqual([['0'], ['1'], ['2']])
  })

  it('still reads a numeric column right of one label column under a merged header as data', () => {
    const g = grid(
      [
        ['impact', '%', 'interval', ''],
        ['', '', 'from', 'to'],
        ['none', '14.4', '9.1', '22.1'],
        ['some', '21.7', '15.8', '29.2']
      ],
      [m(0, 0, 1, 0), m(0, 1, 1, 1), m(0, 2, 0, 3)]
    )
    expect(detectStructure(g)).toMatchObject({ headerRows: 2, headerCols: 1 })
  })

  it('continues two text label columns with a numeric one under a merged header', () => {
    const g = grid(
      [
        ['year', 'team', 'games', 'passing', ''],
        ['', '', '', 'att', 'yds'],
        ['2000', 'nyj', '1', '5', '67'],
        ['2001', 'nyj', '2', '20', '92'],
        ['2002', 'bal', '15', '399', '3,120']
      ],
      [m(0, 0, 1, 0), m(0, 1, 1, 1), m(0, 2, 1, 2), m(0, 3, 0, 4)]
    )
    expect(detectStructure(g)).toMatchObject({ headerRows: 2, headerCols: 3 })
  })

  it('gives a report with several header rows and a text first column one label column', () => {
    const g = grid(
      [
        ['england', 'first innings', '', 'second innings', ''],
        ['batsman', 'dismissal', 'runs', 'dismissal', 'runs'],
        ['hutton', 'b johnson', '20', 'c johnson', '13'],
        ['washbrook', 'c tallon', '8', 'c tallon', '37']
      ],
      [m(0, 1, 0, 2), m(0, 3, 0, 4)]
    )
    expect(detectStructure(g)).toMatchObject({ headerRows: 2, headerCols: 1 })
    expect(detectStructure({ ...g, hints: { records: true } })).toMatchObject({ headerCols: 0 })
  })

  it('keeps a one-label header row above another header row in the header', () => {
    const g = grid(
      [
        ['', '', 'Year ended', '', ''],
        ['', '', 'December 31,', '', ''],
        ['', '', '2019', '2018', 'Percent Change'],
        ['Operating income', '', '$2,957', '$3,206', '(7.8)'],
        ['Net income', '', '$2,300', '$2,465', '(6.7)']
      ],
      [m(0, 2, 0, 3), m(1, 2, 1, 3), m(3, 0, 3, 1), m(4, 0, 4, 1)]
    )
    const p = structureGrid(g)
    expect(p.options).toMatchObject({ headerRows: 3 })
    expect(p.columns).toEqual([
      ['Year ended', 'December 31,', '2019'],
      ['Year ended', 'December 31,', '2018'],
      ['', '', 'Percent Change']
    ])
  })

  it('keeps a header row with one label under one column, and numbers under an unmerged header as data', () => {
    const g = grid(
      [
        ['', '', '', 'December 31, 2018', 'December 31, 2017'],
        ['', '', '', '', 'As Recast'],
        ['ASSETS', 'Current assets:', 'Cash', '$1,854', '$1,495'],
        ['', '', 'Short-term investments', '1,835', '1,778'],
        ['', 'Goodwill', '', '970', '970']
      ],
      [m(2, 0, 4, 0), m(2, 1, 3, 1), m(4, 1, 4, 2)]
    )
    const p = structureGrid(g)
    expect(p.options).toMatchObject({ headerRows: 2, headerCols: 3 })
    expect(p.columns).toEqual([
      ['December 31, 2018', ''],
      ['December 31, 2017', 'As Recast']
    ])
  })

  it('does not take a column of yes/no marks under a merged header for row labels', () => {
    const g = grid(
      [
        ['', '', 'Loyalty', 'Codeshare', ''],
        ['', '', '', 'ours', 'theirs'],
        ['Major', 'Air France', 'Yes', 'No', 'Yes'],
        ['', 'KLM', 'Yes', 'No', 'No'],
        ['Regional', 'PenAir', 'No', 'Yes', 'No']
      ],
      [m(0, 2, 1, 2), m(0, 3, 0, 4), m(2, 0, 3, 0)]
    )
    expect(detectStructure(g)).toMatchObject({ headerRows: 2, headerCols: 2 })
  })

  it('takes the metadata rows between the series names and the first date of a time series into the header', () => {
    const g = grid([
      ['', 'Index ; Sydney ;', 'Index ; Melbourne ;', 'Index ; Perth ;'],
      ['Unit', 'Index Numbers', 'Index Numbers', 'Index Numbers'],
      ['Series Type', 'Original', 'Original', 'Original'],
      ['Frequency', 'Quarter', 'Quarter', 'Quarter'],
      ['Series Start', 'Sep-1948', 'Sep-1948', 'Mar-1950'],
      ['No. Obs', '282', '282', '276'],
      ['Series ID', 'A2325806K', 'A2325811C', 'A2325816R'],
      ['Sep-1948', '3.7', '3.8', ''],
      ['Dec-1948', '3.7', '3.8', ''],
      ['Mar-1950', '4.1', '4.2', '4.0'],
      ['Jun-1950', '4.2', '4.3', '4.1']
    ])
    expect(detectStructure(g)).toMatchObject({ headerRows: 7, headerCols: 1 })
    const p = structureGrid(g)
    expect(p.columns[0]).toEqual(['Index ; Sydney ;', 'Index Numbers', 'Original', 'Quarter', 'Sep-1948', '282', 'A2325806K'])
    expect(p.index).toEqual([['Sep-1948'], ['Dec-1948'], ['Mar-1950'], ['Jun-1950']])
    // A total above the years is a row of the body, not metadata.
    const total = grid([
      ['year', 'exports', 'imports'],
      ['all years', '1,200', '1,100'],
      ['2019', '400', '350'],
      ['2020', '380', '390'],
      ['2021', '420', '360']
    ])
    expect(detectStructure(total)).toMatchObject({ headerRows: 1 })
  })

  it('takes a last header row whose numbers rise along it beside column names ("Median | Mean | 10 | 25 | 75 | 90")', () => {
    const g = grid([
      ['', 'Number', '', '', 'Percentiles', '', '', ''],
      ['Description', '(thousand)', 'Median', 'Mean', '10', '25', '75', '90'],
      ['All employees', '0.0', '0.2', '0.2', '0.1', '0.1', '0.2', '0.3'],
      ['18-21', '0.4', '0.3', '0.6', '0.6', '0.0', '0.2', '0.4'],
      ['22-29', '0.5', '0.5', '0.5', '0.2', '0.2', '0.3', '0.3']
    ])
    expect(detectStructure(g)).toMatchObject({ headerRows: 2, headerCols: 1 })
    // Rising whole numbers in a row of data are data.
    const counts = grid([
      ['', 'Number', '', '', 'Cumulative', '', '', ''],
      ['women', '12', '14', '15', '20', '31', '45', '60'],
      ['men', '11', '13', '17', '21', '30', '44', '58']
    ])
    expect(detectStructure(counts)).toMatchObject({ headerRows: 1 })
  })

  it('starts the body where the first column numbers the rows, though labels cascade across columns like header rows', () => {
    const g = grid([
      ['Line', 'Description', '', '', ''],
      ['1', 'Total Revenue', '', '', ''],
      ['2', '', 'General Revenue', '', ''],
      ['3', '', '', 'Intergovernmental', ''],
      ['4', '', '', '', 'From Federal'],
      ['5', '', '', '', 'From State']
    ])
    expect(detectStructure(g)).toMatchObject({ headerRows: 1 })
  })

  it('goes on past a blank row inside the header when a plain header row follows it', () => {
    const g = grid([
      ['', '', "Overseas residents' visits", '', "UK residents' visits"],
      ['', '', 'Earnings', '', 'Expenditure'],
      ['', '', '', '', ''],
      ['', '', 'NSA', 'SA', 'NSA'],
      ['2012', 'Jan', '1,119', '1,490', '1,904'],
      ['', 'Feb', '950', '1,450', '1,853']
    ])
    expect(detectStructure(g)).toMatchObject({ headerRows: 4 })
  })

  it('reads a grid without a header row when its first row is numbers', () => {
    expect(
      detectStructure(
        grid([
          ['1', '2'],
          ['3', '4']
        ])
      )
    ).toMatchObject({ headerRows: 0 })
  })
})

describe('left hierarchy', () => {
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
    const q = structureGrid(lines, { ...detectStructure(lines), headerRows: 1, headerCols: 2 })
    expect(rowPaths(q)).toEqual(['1 > Taxes', '1 > Taxes > 2 > Property', '1 > Taxes > 3 > Sales', '4 > Charges'])
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

  it('nests a run of up to five section rows, and reads a longer run as a list of labels side by side', () => {
    const run = (n: number): string[][] => [['', 'n'], ...Array.from({ length: n }, (_v, i) => [`s${i}`, '']), ['a', '1'], ['b', '2']]
    expect(structureGrid(grid(run(5))).index).toEqual([
      ['s0', 's1', 's2', 's3', 's4', 'a'],
      ['s0', 's1', 's2', 's3', 's4', 'b']
    ])
    const long = structureGrid(grid(run(6)))
    expect(long.index).toEqual([
      ['s5', 'a'],
      ['s5', 'b']
    ])
    expect(long.leftTree.children.map((n) => n.text)).toEqual(['s0', 's1', 's2', 's3', 's4', 's5'])
  })

  it('stops nesting a staircase of ever deeper rows at 32 open parents', () => {
    const cells = [['', 'n'], ...Array.from({ length: 40 }, (_v, i) => [`step ${i}`, String(i)])]
    const styles = Object.fromEntries(Array.from({ length: 39 }, (_v, i) => [`${i + 2},0`, { indent: i + 1 }]))
    const p = structureGrid(grid(cells, [], styles))
    expect(p.index[31]?.filter((x) => x.length > 0)).toHaveLength(32)
    // Past the bound each row sits beside the one before, under the same 32 parents.
    expect(p.index[39]?.filter((x) => x.length > 0)).toEqual([...Array.from({ length: 32 }, (_v, i) => `step ${i}`), 'step 39'])
  })

  it('nests a section that recurs in turn with other sections inside each of them', () => {
    const g = grid([
      ['', '2009', '2010'],
      ['u.s. companies', '', ''],
      ['domestic r&d', '282,393', '278,977'],
      ['source of funds', '', ''],
      ['the company', '224,920', '221,706'],
      ['others', '57,473', '57,271'],
      ['foreign affiliates', '', ''],
      ['domestic r&d', '35,538', '39,700'],
      ['source of funds', '', ''],
      ['the company', '27,798', '30,175'],
      ['others', '7,739', '9,524']
    ])
    expect(labels(g)).toEqual([
      'u.s. companies > domestic r&d',
      'u.s. companies > source of funds > the company',
      'u.s. companies > source of funds > others',
      'foreign affiliates > domestic r&d',
      'foreign affiliates > source of funds > the company',
      'foreign affiliates > source of funds > others'
    ])
    // Parallel sections that happen to repeat one heading, not in turn, stay siblings.
    const parallel = grid([
      ['', 'a', 'b'],
      ['work', '', ''],
      ['hours', '17.8', '31.7'],
      ['wages of these workers', '', ''],
      ['25th percentile', '180', '404'],
      ['wages of all employees', '', ''],
      ['25th percentile', '1,703', '422'],
      ['family', '', ''],
      ['size', '3.8', '2.0'],
      ['wages of all employees', '', ''],
      ['25th percentile', '867', '323']
    ])
    expect(labels(parallel)).toEqual([
      'work > hours',
      'wages of these workers > 25th percentile',
      'wages of all employees > 25th percentile',
      'family > size',
      'wages of all employees > 25th percentile'
    ])
  })

  it('keeps a total that opens a section inside it, and does not read "all other" as a total', () => {
    const g = grid([
      ['', 'beta'],
      ['sedentary', ''],
      ['total', '0.12'],
      ['weekday', '0.07'],
      ['light', ''],
      ['retail', '0.5'],
      ['all other industries', '0.4'],
      ['total', '0.9'],
      ['overall', '1.0']
    ])
    expect(structureGrid(g).index).toEqual([
      ['sedentary', 'total'],
      ['sedentary', 'weekday'],
      ['light', 'retail'],
      ['light', 'all other industries'],
      ['light', 'total'],
      ['overall', '']
    ])
  })

  it('makes a row that adds up the rows below it their parent', () => {
    const g = grid([
      ['', '2018', '2019', 'share'],
      ['canada', '1,500', '1,800', '100.0'],
      ['ontario', '700', '900', '50.0'],
      ['quebec', '500', '600', '33.3'],
      ['alberta', '300', '300', '16.7'],
      ['abroad', '42', '57', '']
    ])
    expect(structureGrid(g).index).toEqual([
      ['canada', ''],
      ['canada', 'ontario'],
      ['canada', 'quebec'],
      ['canada', 'alberta'],
      ['abroad', '']
    ])
  })

  it('nests aggregates inside aggregates and takes a pair only when a total or another aggregate follows', () => {
    const g = grid([
      ['', 'a', 'b'],
      ['positive', '790', '800'],
      ['excellent', '150', '140'],
      ['very good', '300', '310'],
      ['good', '340', '350'],
      ['negative', '210', '200'],
      ['fair', '155', '150'],
      ['poor', '55', '50'],
      ['total', '1,000', '1,000']
    ])
    expect(labels(g)).toEqual([
      'positive',
      'positive > excellent',
      'positive > very good',
      'positive > good',
      'negative',
      'negative > fair',
      'negative > poor',
      'total'
    ])
    const statement = grid([
      ['', '2018', '2017'],
      ['revenue', '$44,438', '$41,138'],
      ['expense', '39,174', '35,172'],
      ['income', '5,264', '5,966'],
      ['tax', '(1,216)', '(2,295)']
    ])
    expect(structureGrid(statement).index).toEqual([['revenue'], ['expense'], ['income'], ['tax']])
  })

  it('takes a pair followed by a plain row when the block around it adds up only with the pair nested', () => {
    const g = grid([
      ['', 'women', 'share', 'men', 'share'],
      ['all arrangements', '13,976.5', '100.0', '13,293.3', '100.0'],
      ['in a couple', '7,856.0', '56.2', '7,867.7', '59.2'],
      ['married', '6,291.9', '45.0', '6,296.0', '47.4'],
      ['common-law', '1,564.1', '11.2', '1,571.7', '11.8'],
      ['lone parents', '1,200.3', '8.6', '327.5', '2.5'],
      ['as children', '1,987.3', '14.2', '2,443.8', '18.4'],
      ['alone', '2,932.9', '21.0', '2,654.3', '20.0']
    ])
    expect(labels(g)).toEqual([
      'all arrangements',
      'all arrangements > in a couple',
      'all arrangements > in a couple > married',
      'all arrangements > in a couple > common-law',
      'all arrangements > lone parents',
      'all arrangements > as children',
      'all arrangements > alone'
    ])
  })

  it('takes neighbouring pairs that add up as sibling groups', () => {
    const g = grid([
      ['', 'count', 'share'],
      ['couple', '13,812', '69.2'],
      ['with children', '9,151', '45.9'],
      ['without children', '4,661', '23.4'],
      ['lone parent', '1,995', '10.0'],
      ['female', '1,208', '6.1'],
      ['male', '787', '3.9'],
      ['other household', '876', '4.4']
    ])
    expect(labels(g)).toEqual([
      'couple',
      'couple > with children',
      'couple > without children',
      'lone parent',
      'lone parent > female',
      'lone parent > male',
      'other household'
    ])
  })

  it('makes a total heading the body the parent of the rows below, even when its values are rates', () => {
    const g = grid([
      ['', 'rate'],
      ['all industries', '4.1'],
      ['mining', '6.0'],
      ['retail', '3.2'],
      ['', 'percent'],
      ['total', '100.0'],
      ['men', '48.0']
    ])
    expect(labels(g)).toEqual([
      'all industries',
      'all industries > mining',
      'all industries > retail',
      'percent > total',
      'percent > total > men'
    ])
  })

  it('needs one column to add up to the unit, not only within rounding', () => {
    const g = grid([
      ['', 'owned', 'total', 'age'],
      ['B-767', '21', '21', '18.0'],
      ['B-777', '8', '8', '19.1'],
      ['B-777LR', '10', '10', '9.8'],
      ['A220', '4', '4', '0.1']
    ])
    expect(structureGrid(g).index).toEqual([['B-767'], ['B-777'], ['B-777LR'], ['A220']])
  })

  it('does not take small counts that add up while more columns lie among the parts', () => {
    const g = grid([
      ['', 'jobs', 'jobs', 'wages', 'wages', 'sales', 'sales'],
      ['agriculture', '23', '22', '422', '487', '2,976', '3,464'],
      ['mining', '2', '2', '231', '247', '962', '807'],
      ['manufacturing', '17', '17', '943', '994', '6,515', '6,881'],
      ['electricity', '3', '3', '360', '349', '2,482', '2,422'],
      ['construction', '15', '15', '675', '703', '3,610', '3,466']
    ])
    expect(labels(g)).toEqual(['agriculture', 'mining', 'manufacturing', 'electricity', 'construction'])
  })

  it('takes large totals that their rounded parts miss by a thousandth, preferring a block that adds up to the unit', () => {
    // Counts rounded to multiples of 5: the provinces sum to 50,745 and 44,785.
    const rounded = grid([
      ['', 'cohort', 'treated', 'percent'],
      ['canada', '50,740', '44,780', '88.2'],
      ['newfoundland', '1,055', '965', '91.5'],
      ['prince edward island', '330', '305', '91.8'],
      ['nova scotia', '2,090', '1,875', '89.7'],
      ['new brunswick', '1,555', '1,410', '90.7'],
      ['ontario', '26,095', '22,565', '86.5'],
      ['manitoba', '2,390', '2,040', '85.3'],
      ['saskatchewan', '1,940', '1,740', '89.6'],
      ['alberta', '6,185', '5,575', '90.1'],
      ['british columbia', '9,105', '8,310', '91.3'],
      ['abroad', '17', '12', '70.6']
    ])
    expect(labels(rounded)).toEqual([
      'canada',
      'canada > newfoundland',
      'canada > prince edward island',
      'canada > nova scotia',
      'canada > new brunswick',
      'canada > ontario',
      'canada > manitoba',
      'canada > saskatchewan',
      'canada > alberta',
      'canada > british columbia',
      'abroad'
    ])
    // 1,050 of 1,051 is near after four parts; the fifth makes it exact, and belongs to the block.
    const longer = grid([
      ['', 'incidents', 'organized'],
      ['all drug violations', '1,051', '586'],
      ['heroin', '159', '118'],
      ['cocaine', '459', '283'],
      ['cannabis', '161', '62'],
      ['other drugs', '271', '122'],
      ['production', '1', '1'],
      ['total', '1,639', '676']
    ])
    expect(labels(longer)).toEqual([
      'all drug violations',
      'all drug violations > heroin',
      'all drug violations > cocaine',
      'all drug violations > cannabis',
      'all drug violations > other drugs',
      'all drug violations > production',
      'total'
    ])
  })

  it('lets a near fit that runs to the end of the rows win over an earlier near fit', () => {
    // The provinces sum to 25,245 and 23,010 against 25,248 and 23,012; the territories add 5 and then 0,
    // which leaves the fit near.
    const g = grid([
      ['', 'cohort', 'treated', 'percent'],
      ['canada', '25,248', '23,012', '91.2'],
      ['newfoundland', '560', '530', '94.6'],
      ['nova scotia', '1,030', '970', '94.2'],
      ['ontario', '12,930', '11,550', '89.3'],
      ['manitoba', '1,180', '1,050', '89.0'],
      ['alberta', '3,075', '2,825', '91.9'],
      ['british columbia', '6,470', '6,085', '94.0'],
      ['yukon', '5', '5', '100.0'],
      ['nunavut', '0', '0', '0.0']
    ])
    expect(labels(g).slice(-2)).toEqual(['canada > yukon', 'canada > nunavut'])
  })

  it('takes one large column that adds up beside rates, for four parts or more that run to the end of the rows', () => {
    const rows = [
      ['', 'job vacancies', 'vacancy rate', 'unemployment rate'],
      ['', 'thousands', 'percent', ''],
      ['national', '392.5', '2.7', '6.9'],
      ['east', '105.2', '3.1', '8.6'],
      ['centre', '122.6', '2.0', '6.7'],
      ['prairies', '10.7', '2.1', '5.1'],
      ['west', '82.4', '4.6', '4.5'],
      ['coast', '71.7', '2.6', '6.6']
    ]
    expect(labels(grid(rows)).slice(-2)).toEqual(['national > west', 'national > coast'])
    // The parts add up to 392.6, a rounding error away. The same near sum with a row after it, or with three
    // parts, is left alone: one column may come that near by chance.
    expect(labels(grid([...rows, ['abroad', '1.2', '0.4', '']])).slice(-3)).toEqual(['west', 'coast', 'abroad'])
    const three = [
      ...rows.slice(0, 3),
      ['east', '227.8', '3.1', '8.6'],
      ['prairies', '10.7', '2.1', '5.1'],
      ['west', '154.1', '4.6', '4.5']
    ]
    expect(labels(grid(three))).toEqual(['national', 'east', 'prairies', 'west'])
  })

  it('takes one column of counts that adds up beside shares, when the counts are a hundred or more', () => {
    const rows = [
      ['', 'total', 'open areas', 'residences'],
      ['', 'number', 'percent', ''],
      ['race/ethnicity', '2,412', '36', '24'],
      ['black', '838', '36', '27'],
      ['south asian', '711', '42', '19'],
      ['indigenous', '863', '33', '25'],
      ['religion', '822', '23', '28'],
      ['jewish', '303', '17', '25'],
      ['muslim', '519', '28', '29'],
      ['sexual orientation', '940', '39', '28']
    ]
    expect(labels(grid(rows))).toEqual([
      'race/ethnicity',
      'race/ethnicity > black',
      'race/ethnicity > south asian',
      'race/ethnicity > indigenous',
      'religion',
      'religion > jewish',
      'religion > muslim',
      'sexual orientation'
    ])
    // Small counts (21 = 15 + 2 + 4), or a column with parts below zero, add up by chance.
    const small = grid([
      ['', 'wales', 'great britain'],
      ['oak', '3', '21'],
      ['beech', '2', '15'],
      ['sycamore', '0', '2'],
      ['ash', '1', '4'],
      ['birch', '11', '19']
    ])
    expect(labels(small)).toEqual(['oak', 'beech', 'sycamore', 'ash', 'birch'])
    const signed = grid([
      ['', 'change', 'rate'],
      ['hamilton', '205', '3.1'],
      ['brantford', '-31', '4.2'],
      ['guelph', '142', '2.9'],
      ['london', '94', '3.5'],
      ['windsor', '-57', '2.2']
    ])
    expect(labels(signed)).toEqual(['hamilton', 'brantford', 'guelph', 'london', 'windsor'])
  })

  it('never makes a period the parent of the periods after it, though its values add up', () => {
    // 106.5 = 35.1 + 35.4 + 36.0 by chance in every column of an index series.
    const g = grid([
      ['', 'all groups', 'food'],
      ['Sep-1953', '106.5', '106.5'],
      ['Dec-1953', '35.1', '35.1'],
      ['Mar-1954', '35.4', '35.4'],
      ['Jun-1954', '36.0', '36.0'],
      ['Sep-1954', '36.2', '36.2']
    ])
    expect(labels(g)).toEqual(['Sep-1953', 'Dec-1953', 'Mar-1954', 'Jun-1954', 'Sep-1954'])
    // A year over its quarters is not a run of the same kind of period.
    const year = grid([
      ['', 'sales', 'returns'],
      ['2019', '1,000', '240'],
      ['2019 Q1', '200', '50'],
      ['2019 Q2', '300', '60'],
      ['2019 Q3', '250', '70'],
      ['2019 Q4', '250', '60']
    ])
    expect(structureGrid(year).index[4]?.filter((x) => x.length > 0)).toEqual(['2019', '2019 Q4'])
  })

  it('reads periods without values before periods of the same kind as rows of the series, not sections', () => {
    const g = grid([
      ['Year', 'Broadleaves', 'Conifers'],
      ['1974 [x]', '', ''],
      ['1975 [x]', '', ''],
      ['1976', '0.02', '1.04'],
      ['1977', '0.02', '0.98']
    ])
    const p = structureGrid(g, { ...detectStructure(g), headerRows: 1, headerCols: 1 })
    expect(rowPaths(p)).toEqual(['1974 [x]', '1975 [x]', '1976', '1977'])
    // A year over its months is still a section.
    const months = grid([
      ['', 'visits'],
      ['2014', ''],
      ['Jan', '2,392'],
      ['Feb', '2,077']
    ])
    expect(labels(months)).toEqual(['2014 > Jan', '2014 > Feb'])
  })

  it('reads rows whose data cells a merge from a row above covers as data rows, not sections', () => {
    const g = grid(
      [
        ['Season', 'Coach', 'Wins'],
        ['1942', 'Rowland', '5'],
        ['1943', 'No Team', ''],
        ['1944', '', ''],
        ['1945', '', ''],
        ['1946', 'Decker', '3'],
        ['1947', 'Decker', '3']
      ],
      [{ top: 2, left: 1, bottom: 4, right: 2 }]
    )
    const p = structureGrid(g, { ...detectStructure(g), headerCols: 1 })
    expect(rowPaths(p)).toEqual(['1942', '1943', '1944', '1945', '1946', '1947'])
    // The merged value is every covered cell's value, across the columns and down the rows it spans.
    expect(p.values.slice(1, 4)).toEqual([
      ['No Team', 'No Team'],
      ['No Team', 'No Team'],
      ['No Team', 'No Team']
    ])
    expect(g.cells[3]).toEqual(['1944', '', ''])
  })

  it('gives cells under a value merged down from a data row that value, and reads their lone texts as data, not units', () => {
    // Old municipalities merged into new ones (an HTML rowspan over the new municipality and its seat).
    const cells = [
      ['New municipality', 'Old municipalities', 'Seat'],
      ['Gortynia', 'Dimitsana', 'Dimitsana'],
      ['', 'Vytina', ''],
      ['', 'Iraia', ''],
      ['Tripoli', 'Tripoli', 'Tripoli'],
      ['', 'Tegea', '']
    ]
    const g = grid(cells, [m(1, 0, 3, 0), m(1, 2, 3, 2), m(4, 0, 5, 0), m(4, 2, 5, 2)])
    const p = structureGrid(g)
    expect(p.values.map((v) => v.slice(-2))).toEqual([
      ['Dimitsana', 'Dimitsana'],
      ['Vytina', 'Dimitsana'],
      ['Iraia', 'Dimitsana'],
      ['Tripoli', 'Tripoli'],
      ['Tegea', 'Tripoli']
    ])
    // With the first column as the row labels, as in the inspector: every old municipality is a row under its new one.
    const labelled = structureGrid(g, { headerRows: 1, headerCols: 1, leftHierarchy: 'auto' })
    expect(rowPaths(labelled)).toEqual(['Gortynia', 'Gortynia', 'Gortynia', 'Tripoli', 'Tripoli'])
    expect(labelled.values.map((v) => v[0])).toEqual(['Dimitsana', 'Vytina', 'Iraia', 'Tripoli', 'Tegea'])
    // The grid without label columns shares its rows with the table: they are copied, not written into.
    expect(g.cells[2]).toEqual(['', 'Vytina', ''])
  })

  it('nests a pair inside a block known from its labels, and a second breakdown of the same whole', () => {
    const list = (
      business: string[],
      federal: string[],
      intramural: string[],
      ffrdcs: string[],
      universities: string[],
      share: string[]
    ): string[][] => [
      ['business', ...business],
      ['federal government', ...federal],
      ['federal intramural', ...intramural],
      ['ffrdcs', ...ffrdcs],
      ['universities', ...universities],
      ['percent distribution', ...share]
    ]
    const rows = [
      ['', 'total', 'federal funds'],
      ['r&d', '1,000', '400'],
      ...list(['610', '100'], ['300', '280'], ['200', '200'], ['100', '80'], ['90', '20'], ['100', '40']),
      ['basic research', '400', '200'],
      ...list(['200', '40'], ['150', '140'], ['100', '100'], ['50', '40'], ['50', '20'], ['100', '50']),
      ['development', '600', '200'],
      ...list(['400', '60'], ['150', '140'], ['100', '100'], ['50', '40'], ['50', '0'], ['100', '33.3'])
    ]
    const nested = labels(grid(rows))
    expect(nested.slice(0, 8)).toEqual([
      'r&d',
      'r&d > business',
      'r&d > federal government',
      'r&d > federal government > federal intramural',
      'r&d > federal government > ffrdcs',
      'r&d > universities',
      'r&d > percent distribution',
      'r&d > basic research'
    ])
    expect(nested.slice(-4)).toEqual([
      'r&d > development > federal government > federal intramural',
      'r&d > development > federal government > ffrdcs',
      'r&d > development > universities',
      'r&d > development > percent distribution'
    ])
    // The second breakdown must end the rows: with a plain row after it, "basic research" is not a part.
    const followed = labels(grid([...rows, ['abroad', '12', '3']]))
    expect(followed[7]).toBe('basic research')
  })

  it('keeps rows whose values are suppressed in the block that adds up before them, when they end the rows', () => {
    const rows = [
      ['', 'cohort', 'treated', 'percent'],
      ['canada', '6,070', '5,745', '94.7'],
      ['ontario', '4,095', '3,855', '94.1'],
      ['manitoba', '185', '170', '90.9'],
      ['alberta', '1,290', '1,250', '96.9'],
      ['british columbia', '500', '470', '94.0'],
      ['yukon', 'x', 'x', '0.0'],
      ['nunavut', 'x', '0', '100.0']
    ]
    expect(labels(grid(rows)).slice(-3)).toEqual(['canada > british columbia', 'canada > yukon', 'canada > nunavut'])
    // A row with a known value after the block, or a plain row after the suppressed ones, stays outside it.
    expect(labels(grid([...rows.slice(0, 6), ['yukon', 'x', '12', '0.0']])).slice(-1)).toEqual(['yukon'])
    expect(labels(grid([...rows, ['abroad', '17', '12', '70.6']])).slice(-3)).toEqual(['yukon', 'nunavut', 'abroad'])
  })

  it('makes a row whose statistic sits in columns its next rows leave empty the head of a group', () => {
    const g = grid([
      ['', '%', 'from', 'to', 'chi2'],
      ['sex', '', '', '', '10.1'],
      ['men', '91.6', '89.1', '93.6', ''],
      ['women', '96.3', '94.7', '97.4', ''],
      ['education', '', '', '', '1.8'],
      ['college', '95.9', '91.5', '98.1', '']
    ])
    const p = structureGrid(g)
    expect(rowPaths(p)).toEqual(['sex', 'sex > men', 'sex > women', 'education', 'education > college'])
    expect(p.values[0]).toEqual(['', '', '', '10.1'])
  })

  it('takes a block whose counts add up though its medians and changes do not, when those lie among the parts', () => {
    const g = grid([
      ['', 'cases', 'median days', 'cases', 'median days', 'change'],
      ['violent', '1,300', '160', '1,200', '166', '-8'],
      ['robbery', '700', '184', '650', '201', '-7'],
      ['assault', '400', '127', '380', '134', '-5'],
      ['threats', '200', '134', '170', '143', '-15'],
      ['property', '900', '113', '800', '120', '-11'],
      ['theft', '500', '100', '450', '102', '-10'],
      ['fraud', '400', '131', '350', '115', '-13']
    ])
    expect(labels(g)).toEqual([
      'violent',
      'violent > robbery',
      'violent > assault',
      'violent > threats',
      'property',
      'property > theft',
      'property > fraud'
    ])
    // A median outside its parts' range speaks against the block: two adding columns are then outvoted.
    const outside = grid([
      ['', 'cases', 'median days', 'cases', 'median days', 'change'],
      ['violent', '1,300', '90', '1,200', '95', '-30'],
      ['robbery', '700', '184', '650', '201', '-7'],
      ['assault', '400', '127', '380', '134', '-5'],
      ['threats', '200', '134', '170', '143', '-15']
    ])
    expect(structureGrid(outside).index).toEqual([['violent'], ['robbery'], ['assault'], ['threats']])
  })

  it('nests a run of labels the way the same run nests where it adds up', () => {
    const g = grid([
      ['year and industry', 'r&d', 'software'],
      ['2006', '', ''],
      ['all industries', '247,669', '48,299'],
      ['manufacturing', '171,814', '10,720'],
      ['services', '75,855', '37,579'],
      ['growth rate (%)', '', ''],
      ['all industries', '4.2', '9.6'],
      ['manufacturing', '3.8', '12.9'],
      ['services', '5', '8.5']
    ])
    expect(labels(g)).toEqual([
      '2006 > all industries',
      '2006 > all industries > manufacturing',
      '2006 > all industries > services',
      'growth rate (%) > all industries',
      'growth rate (%) > all industries > manufacturing',
      'growth rate (%) > all industries > services'
    ])
  })

  it('does not count small values that add up by chance', () => {
    const g = grid([
      ['', 'a', 'b'],
      ['x', '0.2', '2'],
      ['y', '0.1', '1'],
      ['z', '0.1', '1']
    ])
    expect(structureGrid(g).index).toEqual([['x'], ['y'], ['z']])
  })

  it("keeps every row flat when the hierarchy is overridden with 'none', recomputed from the same grid", () => {
    const g = grid([
      ['', '2018'],
      ['men', ''],
      ['young', '1']
    ])
    const auto = structureGrid(g)
    expect(auto.index).toEqual([['men', 'young']])
    const flat = structureGrid(g, { ...auto.options, leftHierarchy: 'none' })
    expect(flat.index).toEqual([['men'], ['young']])
  })

  it('shares a vertically merged outer label between the rows it covers', () => {
    const g = grid(
      [
        ['club', 'season', 'apps'],
        ['braga', '2002', '24'],
        ['', '2003', '26'],
        ['apoel', '2009', '13']
      ],
      [m(1, 0, 2, 0)]
    )
    const p = structureGrid(g, { headerRows: 1, headerCols: 2 })
    expect(p.index).toEqual([
      ['braga', '2002'],
      ['braga', '2003'],
      ['apoel', '2009']
    ])
    expect(p.leftTree.children.map((n) => n.text)).toEqual(['braga', 'apoel'])
  })
})

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
