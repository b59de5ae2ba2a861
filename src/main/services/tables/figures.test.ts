import { describe, expect, it } from 'vitest'
import { figureShare } from './figures'

describe('how much of a table body is figures', () => {
  it('is all of a table of measures, missing-value markers aside', () => {
    expect(
      figureShare([
        ['1,200', '..', '-'],
        ['900', '(15)', '3.5%']
      ])
    ).toBe(1)
  })

  it('is none of a contents sheet: table numbers count up, the rest is titles', () => {
    const contents = ['1.1', '1.2', '1.3', '1.9', '1.10', '1.11', '2.1'].map((n, i) => [n, `Supply of energy, table ${i}`])
    expect(figureShare(contents)).toBe(0)
    expect(figureShare([['Cover'], ['This workbook holds the tables of chapter 1.'], ['Contact: stats office']])).toBe(0)
  })

  it('leaves out a column that repeats a few numbers down a listing', () => {
    const listing = Array.from({ length: 20 }, (_, i) => [`A23258${i}K`, 'Index Numbers', i < 18 ? '282' : '281'])
    expect(figureShare(listing)).toBe(0)
  })

  it('counts the measure of a long table among its labels, and a first column of measures', () => {
    const long = Array.from({ length: 9 }, (_, i) => ['North East', 'Imports', String(100 + ((i * 37) % 50))])
    expect(figureShare(long)).toBeCloseTo(1 / 3, 2)
    // Population by region: the first column is a measure although it is the first.
    expect(figureShare([['48'], ['18'], ['22'], ['7']])).toBe(1)
  })

  it('is 0 for an empty body', () => {
    expect(figureShare([])).toBe(0)
  })
})
