import { describe, expect, it } from 'vitest'
import type { MergedRegion, RawGrid } from '../../../../shared/table'
import { explainStructure } from './explain'
import { withoutRules } from './rules/types'
import { detectStructure, structureGrid } from './index'

const grid = (cells: string[][], merges: MergedRegion[] = [], styles?: RawGrid['styles']): RawGrid => ({
  name: 't',
  cells,
  merges,
  warnings: [],
  ...(styles ? { styles } : {})
})
const m = (top: number, left: number, bottom: number, right: number): MergedRegion => ({ top, left, bottom, right })

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
    // The evidence: the first row without a mark ends the header; without the rule the header runs on.
    expect(explainStructure(grid(plates, [], th([0], 5))).headerRows[1]).toEqual({
      row: 1,
      reasons: [{ rule: 'header-ends-at-unmarked-row', text: 'the source marks its header cells and none of this row' }]
    })
    expect(withoutRules(['header-ends-at-unmarked-row'], () => detectStructure(grid(plates, [], th([0], 5)))).headerRows).toBe(3)
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
