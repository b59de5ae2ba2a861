import { describe, expect, it } from 'vitest'
import { fileStem, numberFormatter, tableGrid, toCsv, toTsv } from './answerExport'

const table = {
  columns: [
    ['2016', 'men'],
    ['2016', '']
  ],
  indexNames: ['region', ''],
  index: [
    ['North', 'all'],
    ['South, east', '']
  ],
  rows: [
    [1.5, '=SUM(A1)'],
    [null, 'say "hi"']
  ],
  rowCount: 2
}

describe('exporting a table answer', () => {
  it('puts the row index first, names blank levels and leaves missing values empty', () => {
    expect(tableGrid(table)).toEqual([
      ['region', 'level 2', '2016 › men', '2016'],
      ['North', 'all', '1.5', '=SUM(A1)'],
      ['South, east', '', '', 'say "hi"']
    ])
  })

  it('writes CSV that a spreadsheet opens as data, never as formulas', () => {
    expect(toCsv(tableGrid(table))).toBe('region,level 2,2016 › men,2016\r\nNorth,all,1.5,\'=SUM(A1)\r\n"South, east",,,"say ""hi"""\r\n')
    expect(toCsv([['-12', '-x']])).toBe("-12,'-x\r\n")
  })

  it('copies as tab-separated text', () => {
    expect(
      toTsv([
        ['a\tb', 'c'],
        ['1', '2']
      ])
    ).toBe('a b\tc\n1\t2\n')
  })

  it('names the file after the question', () => {
    expect(fileStem('How did sales change from 2010 to 2020, by region?')).toBe('How-did-sales-change-from-2010-to-2020')
    expect(fileStem('???')).toBe('answer')
  })
})

describe('numbers of a table answer', () => {
  it('groups digits only in a column that holds a number of five digits or more', () => {
    const years = numberFormatter([1910, 1911, null, 2020])
    expect([1910, 2020, 7.5].map(years)).toEqual(['1910', '2020', '7.5'])
    const amounts = numberFormatter([1910, -25_000.5, null])
    expect([1910, -25_000.5].map(amounts)).toEqual(['1,910', '-25,000.5'])
  })
})
