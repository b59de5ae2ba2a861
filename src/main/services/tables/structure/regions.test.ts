import { describe, expect, it } from 'vitest'
import type { MergedRegion, RawGrid } from '../../../../shared/table'
import { structureGrid } from './index'
import { OPTIONAL_RULES, withoutRules } from './rules/types'

const grid = (cells: string[][], merges: MergedRegion[] = []): RawGrid => ({ name: 't', cells, merges, warnings: [] })
const labels = (g: RawGrid): string[] => structureGrid(g).index.map((t) => t.filter((x) => x.length > 0).join(' > '))
const PLACE_RULES = ['block-country-regions', 'nesting-country-after-whole']
// The rules that read knowledge/places.json (ISO 3166), in use by default.

describe('a country over its regions, from the countries of ISO 3166 and their first-level subdivisions', () => {
  it('reads the place list by default, and only through its rules', () => {
    expect(OPTIONAL_RULES.filter((id) => PLACE_RULES.includes(id))).toEqual([])
    const rates = grid([
      ['', 'january', 'february'],
      ['canada', '3.7', '3.7'],
      ['newfoundland and labrador', '3.7', '4.1'],
      ['prince edward island', '5.4', '6.4'],
      ['nova scotia', '4.0', '4.1']
    ])
    expect(labels(rates)[1]).toBe('canada > newfoundland and labrador')
    expect(withoutRules(PLACE_RULES, () => labels(rates))).toEqual([
      'canada',
      'newfoundland and labrador',
      'prince edward island',
      'nova scotia'
    ])
  })

  it('puts the Länder under Germany, written as ISO writes them or with their accents folded', () => {
    // Unemployment rates: the Länder do not add up to the country, so only the place list nests them.
    const laender = grid([
      ['', '2022', '2023'],
      ['Germany', '5.3', '5.7'],
      ['Baden-Württemberg', '3.5', '3.9'],
      ['Bayern', '3.1', '3.4'],
      ['Berlin', '8.8', '9.1'],
      ['Thuringen', '5.6', '5.8']
    ])
    expect(labels(laender)).toEqual([
      'Germany',
      'Germany > Baden-Württemberg',
      'Germany > Bayern',
      'Germany > Berlin',
      'Germany > Thuringen'
    ])
    expect(withoutRules(PLACE_RULES, () => labels(laender))).toEqual(['Germany', 'Baden-Württemberg', 'Bayern', 'Berlin', 'Thuringen'])
    // The nations of the United Kingdom under it, by its official name.
    const nations = grid([
      ['', 'rate'],
      ['United Kingdom of Great Britain and Northern Ireland', '4.1'],
      ['England', '4.0'],
      ['Wales', '4.4'],
      ['Scotland', '4.3'],
      ['Northern Ireland', '3.9']
    ])
    expect(labels(nations).slice(1)).toEqual([
      'United Kingdom of Great Britain and Northern Ireland > England',
      'United Kingdom of Great Britain and Northern Ireland > Wales',
      'United Kingdom of Great Britain and Northern Ireland > Scotland',
      'United Kingdom of Great Britain and Northern Ireland > Northern Ireland'
    ])
  })

  it('does not nest countries listed side by side, nor a country that is also the name of a region', () => {
    const medals = grid([
      ['nation', 'gold', 'silver'],
      ['United States', '40', '44'],
      ['China', '40', '27'],
      ['Japan', '20', '12'],
      ['Australia', '18', '19'],
      ['France', '16', '26'],
      ['Georgia', '3', '3'],
      ['Germany', '12', '13']
    ])
    expect(labels(medals)).toEqual(['United States', 'China', 'Japan', 'Australia', 'France', 'Georgia', 'Germany'])
    // "georgia" names a country and a US state: among the states it is a state, and "united states" heads them.
    const states = labels(
      grid([
        ['state', 'rate'],
        ['United States', '3.7'],
        ['Florida', '3.0'],
        ['Georgia', '3.2'],
        ['Hawaii', '2.9'],
        ['Idaho', '3.4']
      ])
    )
    expect(states.slice(1)).toEqual([
      'United States > Florida',
      'United States > Georgia',
      'United States > Hawaii',
      'United States > Idaho'
    ])
  })

  it('puts the regions of a country listed under it beneath it, though rates do not add up, but not in a ranked list', () => {
    const rates = labels(
      grid([
        ['', 'january', 'february'],
        ['canada', '3.7', '3.7'],
        ['newfoundland and labrador', '3.7', '4.1'],
        ['prince edward island', '5.4', '6.4'],
        ['nova scotia', '4.0', '4.1'],
        ['quebec', '3.6', '3.6']
      ])
    )
    expect(rates).toEqual([
      'canada',
      'canada > newfoundland and labrador',
      'canada > prince edward island',
      'canada > nova scotia',
      'canada > quebec'
    ])
    const states = labels(
      grid([
        ['state', 'all r&d', 'percent'],
        ['united statesc', '2317126', '27.4'],
        ['alabama', '24799', '46.1'],
        ['alaska', '10073', '77.4'],
        ['arizona', '15680', '37.9']
      ])
    )
    expect(states.slice(1)).toEqual(['united statesc > alabama', 'united statesc > alaska', 'united statesc > arizona'])
    const ranked = labels(
      grid([
        ['', '2018', '1976'],
        ['alberta', '17.2', '18.1'],
        ['ontario', '15.5', '10.5'],
        ['canada', '15.3', '12.2'],
        ['prince edward island', '15.3', '20.0'],
        ['manitoba', '14.2', '13.9'],
        ['nova scotia', '13.3', '10.6']
      ])
    )
    expect(ranked).toEqual(['alberta', 'ontario', 'canada', 'prince edward island', 'manitoba', 'nova scotia'])
  })

  it("does not put the country after its regions' wholes under the last of them", () => {
    const got = labels(
      grid([
        ['', 'women', 'men'],
        ['', 'rate per 100,000 population', ''],
        ['provinces overall', '3,391', '2,008'],
        ['quebec', '2,279', '1,606'],
        ['ontario', '2,734', '1,573'],
        ['territories overall', '7,232', '3,272'],
        ['yukon', '4,356', '1,884'],
        ['nunavut', '7,491', '3,438'],
        ['canada', '3,643', '2,090']
      ])
    )
    expect(got.slice(-4)).toEqual([
      'rate per 100,000 population > territories overall',
      'rate per 100,000 population > territories overall > yukon',
      'rate per 100,000 population > territories overall > nunavut',
      'rate per 100,000 population > canada'
    ])
  })

  it("closes a whole's rows at a country only right after one of its own regions", () => {
    const laender = labels(
      grid([
        ['', 'women', 'men'],
        ['western Länder overall', '3,391', '2,008'],
        ['Bayern', '2,279', '1,606'],
        ['Hessen', '2,734', '1,573'],
        ['eastern Länder overall', '7,232', '3,272'],
        ['Sachsen', '4,356', '1,884'],
        ['Thüringen', '7,491', '3,438'],
        ['Germany', '3,643', '2,090']
      ])
    )
    expect(laender.slice(-3)).toEqual(['eastern Länder overall > Sachsen', 'eastern Länder overall > Thüringen', 'Germany'])
    // Countries listed under the whole they make up are its rows.
    const europe = labels(
      grid([
        ['', 'women', 'men'],
        ['europe overall', '1,310', '1,188'],
        ['France', '334', '311'],
        ['Germany', '421', '409'],
        ['Italy', '301', '289'],
        ['asia overall', '2,101', '2,213'],
        ['Japan', '640', '601'],
        ['India', '1,461', '1,612']
      ])
    )
    expect(europe.slice(1, 4)).toEqual(['europe overall > France', 'europe overall > Germany', 'europe overall > Italy'])
  })
})
