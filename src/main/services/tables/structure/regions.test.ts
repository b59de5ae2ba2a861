import { describe, expect, it } from 'vitest'
import type { MergedRegion, RawGrid } from '../../../../shared/table'
import { structureGrid } from './index'
import { OPTIONAL_RULES, withRules } from './rules/types'

const grid = (cells: string[][], merges: MergedRegion[] = []): RawGrid => ({ name: 't', cells, merges, warnings: [] })
const labels = (g: RawGrid): string[] => structureGrid(g).index.map((t) => t.filter((x) => x.length > 0).join(' > '))
// The place list (knowledge/places.json) is optional data, read only with its rules turned on.
const withPlaces = <T>(work: () => T): T => withRules(['block-country-regions', 'nesting-country-after-whole'], work)

describe('a country over its regions, from the optional place list', () => {
  it('reads the place list only when its rules are turned on', () => {
    expect(OPTIONAL_RULES).toEqual(['block-country-regions', 'nesting-country-after-whole'])
    const rates = grid([
      ['', 'january', 'february'],
      ['canada', '3.7', '3.7'],
      ['newfoundland and labrador', '3.7', '4.1'],
      ['prince edward island', '5.4', '6.4'],
      ['nova scotia', '4.0', '4.1']
    ])
    expect(labels(rates)).toEqual(['canada', 'newfoundland and labrador', 'prince edward island', 'nova scotia'])
    expect(withPlaces(() => labels(rates))[1]).toBe('canada > newfoundland and labrador')
  })

  it('puts the regions of a country listed under it beneath it, though rates do not add up, but not in a ranked list', () => {
    const rates = withPlaces(() =>
      labels(
        grid([
          ['', 'january', 'february'],
          ['canada', '3.7', '3.7'],
          ['newfoundland and labrador', '3.7', '4.1'],
          ['prince edward island', '5.4', '6.4'],
          ['nova scotia', '4.0', '4.1'],
          ['quebec', '3.6', '3.6']
        ])
      )
    )
    expect(rates).toEqual([
      'canada',
      'canada > newfoundland and labrador',
      'canada > prince edward island',
      'canada > nova scotia',
      'canada > quebec'
    ])
    const states = withPlaces(() =>
      labels(
        grid([
          ['state', 'all r&d', 'percent'],
          ['united statesc', '2317126', '27.4'],
          ['alabama', '24799', '46.1'],
          ['alaska', '10073', '77.4'],
          ['arizona', '15680', '37.9']
        ])
      )
    )
    expect(states.slice(1)).toEqual(['united statesc > alabama', 'united statesc > alaska', 'united statesc > arizona'])
    const ranked = withPlaces(() =>
      labels(
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
    )
    expect(ranked).toEqual(['alberta', 'ontario', 'canada', 'prince edward island', 'manitoba', 'nova scotia'])
  })

  it("does not put the country after its regions' wholes under the last of them", () => {
    const got = withPlaces(() =>
      labels(
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
    )
    expect(got.slice(-4)).toEqual([
      'rate per 100,000 population > territories overall',
      'rate per 100,000 population > territories overall > yukon',
      'rate per 100,000 population > territories overall > nunavut',
      'rate per 100,000 population > canada'
    ])
  })
})
