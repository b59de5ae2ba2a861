import { describe, expect, it } from 'vitest'
import type { RawGrid } from '../../../../shared/table'
import { normalizeGrid } from './grid'
import { readColumn, type ColumnKind } from './index-columns'

const grid = (cells: string[][]): RawGrid => ({ name: 't', cells, merges: [], warnings: [] })

/** The kind of each column of a grid with one header row. */
function kinds(cells: string[][]): ColumnKind[] {
  const g = normalizeGrid(grid(cells))
  return Array.from({ length: g.cols }, (_, c) => readColumn(g, c, 1).kind)
}

describe('what a column holds', () => {
  it('tells row numbers, a variant, codes, kinds, labels and values apart (a UN-style location table)', () => {
    expect(
      kinds([
        ['Index', 'Variant', 'Region, subregion, country or area', 'Notes', 'Code', 'Type', '1950'],
        ['1', 'Estimates', 'WORLD', '', '900', 'World', '2536431.2'],
        ['2', 'Estimates', 'AFRICA', 'a', '903', 'Region', '227794.0'],
        ['3', 'Estimates', 'Eastern Africa', '', '910', 'Subregion', '65589.1'],
        ['4', 'Estimates', 'Burundi', '', '108', 'Country/Area', '2309.4'],
        ['5', 'Estimates', 'Comoros', '', '174', 'Country/Area', '159.0'],
        ['6', 'Estimates', 'Djibouti', '', '262', 'Country/Area', '62.0'],
        ['7', 'Estimates', 'Eritrea', '', '232', 'Country/Area', '822.7'],
        ['8', 'Estimates', 'Ethiopia', '', '231', 'Country/Area', '18128.5'],
        ['9', 'Estimates', 'Kenya', '', '404', 'Country/Area', '6077.9']
      ])
    ).toEqual(['row-numbers', 'constant', 'text', 'empty', 'code', 'kind', 'values'])
  })

  it('reads consecutive years as years, not row numbers, and counts with a gap as values', () => {
    expect(
      kinds([
        ['Year', 'Rank', 'Sales'],
        ['2015', '1', '12.5'],
        ['2016', '2', '14.1'],
        ['2017', '2', '13.0'],
        ['2018', '4', '15.2']
      ])
    ).toEqual(['years', 'values', 'values'])
  })

  it('does not take labels written once per group for an index column', () => {
    expect(
      kinds([
        ['', 'Item', '2016'],
        ['WHO', 'ADULT', '1'],
        ['', 'TOKENS', '2'],
        ['', 'CASH', '3'],
        ['WHERE', 'BUS', '4'],
        ['', 'SUBWAY', '5'],
        ['WHEN', 'WEEKDAY', '6'],
        ['', 'WEEKEND', '7']
      ])[0]
    ).toBe('text')
  })
})
