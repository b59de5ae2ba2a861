import { describe, expect, it } from 'vitest'
import { tabLabels } from './tabLabels'

describe('tab labels', () => {
  it('drops the file name the sheets share', () => {
    expect(tabLabels(['book.xlsx › Contents', 'book.xlsx › Table 1'])).toEqual(['Contents', 'Table 1'])
  })

  it('keeps names that do not share a prefix', () => {
    expect(tabLabels(['a.db › users', 'b.db › users'])).toEqual(['a.db › users', 'b.db › users'])
    expect(tabLabels(['users', 'orders'])).toEqual(['users', 'orders'])
  })

  it('shortens long names so that they still differ', () => {
    const names = [
      'f.htm › CONSOLIDATED STATEMENTS OF OPERATIONS',
      'f.htm › CONSOLIDATED STATEMENTS OF CASH FLOWS',
      'f.htm › CONSOLIDATED BALANCE SHEETS (Parenthetical)'
    ]
    const labels = tabLabels(names)
    expect(new Set(labels).size).toBe(3)
    for (const label of labels) expect(label.length).toBeLessThanOrEqual(28)
    expect(labels[0]).toBe('CONSOLIDATED STAT…OPERATIONS')
    expect(labels[1]).toBe('CONSOLIDATED STAT…CASH FLOWS')
    expect(labels[2]).toBe('CONSOLIDATED BALANCE SHEETS…')
  })

  it('keeps the differing end of names alike for longer than a label', () => {
    const labels = tabLabels(['Table 1.1 Employment by industry and sex, 2021', 'Table 1.1 Employment by industry and sex, 2022'])
    expect(new Set(labels).size).toBe(2)
    expect(labels).toEqual(['Table 1.1 Employment by…2021', 'Table 1.1 Employment by…2022'])
  })

  it('keeps the whole word that differs, and the start of the name as far as it fits', () => {
    const labels = tabLabels(['Construction output – Table 1a', 'Construction output – Table 1b', 'Construction output – Table 10'])
    expect(labels).toEqual(['Construction output…Table 1a', 'Construction output…Table 1b', 'Construction output…Table 10'])
  })

  it('keeps the differing words of long names', () => {
    const a = 'Summary of results by region: detailed breakdown for the north'
    const b = 'Summary of results by region: detailed breakdown for the south'
    const c = 'Summary of results by region: averages'
    const [x, y, z] = tabLabels([a, b, c])
    expect([x, y, z]).toEqual(['Summary of results by…north', 'Summary of results by…south', 'Summary of results…averages'])
  })

  it('tells the sheets of several files apart by their sheet, after a short file name', () => {
    const labels = tabLabels([
      'bulletindataset2v2.xls › Table 10',
      'bulletindataset2v2.xls › Table 11',
      '63060.0.xlsx › Contents',
      'stores.csv'
    ])
    expect(labels).toEqual(['bulletindataset2v2.… › Table 10', 'bulletindataset2v2.… › Table 11', '63060.0.xlsx › Contents', 'stores.csv'])
  })

  it('cuts a long differing part too, marking both cuts', () => {
    const labels = tabLabels([
      'Annual statistical digest of the region: income by age group',
      'Annual statistical digest of the region: expenditure by age'
    ])
    expect(labels).toEqual(['Annual sta…income by age gr…', 'Annual sta…expenditure by a…'])
  })

  it('numbers tables with the very same name', () => {
    expect(tabLabels(['a.csv', 'a.csv', 'b.csv'])).toEqual(['a.csv', 'a.csv (2)', 'b.csv'])
  })
})
