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
    expect(labels[0]).toBe('CONSOLIDAT…OF OPERATIONS')
    expect(labels[1]).toBe('CONSOLIDAT…OF CASH FLOWS')
    expect(labels[2]).toBe('CONSOLIDATED BALANCE SHEETS…')
  })

  it('keeps the differing end of names alike for longer than a label', () => {
    const labels = tabLabels(['Table 1.1 Employment by industry and sex, 2021', 'Table 1.1 Employment by industry and sex, 2022'])
    expect(new Set(labels).size).toBe(2)
    expect(labels[0]).toContain('2021')
    expect(labels[1]).toContain('2022')
  })

  it('numbers tables with the very same name', () => {
    expect(tabLabels(['a.csv', 'a.csv', 'b.csv'])).toEqual(['a.csv', 'a.csv (2)', 'b.csv'])
  })
})
