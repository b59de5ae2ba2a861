import { describe, expect, it } from 'vitest'
import type { MergedRegion, RawGrid } from '../../../../shared/table'
import { structureGrid } from './index'

const grid = (cells: string[][], merges: MergedRegion[] = []): RawGrid => ({ name: 't', cells, merges, warnings: [] })
const labels = (g: RawGrid): string[] => structureGrid(g).index.map((t) => t.filter((x) => x.length > 0).join(' > '))

describe('left hierarchy from totals and wholes', () => {
  it('puts a closing total after four breakdowns outside the last one, and keeps it inside with fewer that do not add up to it', () => {
    const rows = [
      ['sex', ''],
      ['men', '48'],
      ['women', '52'],
      ['age group', ''],
      ['young', '30'],
      ['old', '70'],
      ['region', ''],
      ['east', '40'],
      ['west', '50'],
      ['income', ''],
      ['low', '45'],
      ['high', '55'],
      ['total', '100']
    ]
    const many = labels(grid([['', 'percent'], ...rows]))
    expect(many[many.length - 1]).toBe('total')
    const few = labels(grid([['', 'percent'], ...rows.slice(6)]))
    expect(few[few.length - 1]).toBe('income > total')
  })

  it('puts a closing total after fewer breakdowns outside the last one when another breakdown adds up to it', () => {
    const rows = [
      ['age', ''],
      ['12 to 14', '1,085'],
      ['15 to 17', '5,726'],
      ['unknown age', '550'],
      ['sex', ''],
      ['male', '5,625'],
      ['female', '1,736'],
      ['aboriginal identity', ''],
      ['aboriginal', '3,541'],
      ['non-aboriginal', '3,621']
    ]
    const table = labels(grid([['', 'number'], ...rows, ['total', '7,361']]))
    expect(table[table.length - 1]).toBe('total')
    // Rates do not add up: the total stays the last breakdown's.
    const rates = rows.map(([label = '', v = '']) => [label, v === '' ? '' : String(Number(v.replace(',', '')) / 1000)])
    const own = labels(grid([['', 'rate'], ...rates, ['total', '3.1']]))
    expect(own[own.length - 1]).toBe('aboriginal identity > total')
  })

  it('closes every section whose rows add up to a total after them, rates aside', () => {
    const got = labels(
      grid([
        ['', 'population', 'victims', 'rate', 'rate 2016'],
        ['500,000 and over', '', '', '', ''],
        ['toronto', '6,273,778', '92', '1.47', '1.56'],
        ['montreal', '4,148,023', '46', '1.11', '1.02'],
        ['100,000 to 500,000', '', '', '', ''],
        ['oshawa', '450,366', '5', '1.11', '0.93'],
        ['halifax', '431,721', '8', '1.85', '2.82'],
        ['cma total', '11,303,888', '151', '1.34', '1.36'],
        ['non-cma total', '10,831,966', '238', '2.20', '1.80']
      ])
    )
    expect(got.slice(-3)).toEqual(['100,000 to 500,000 > halifax', 'cma total', 'non-cma total'])
  })

  it('lists totals whose parts are all totals of their own side by side, each over its own parts', () => {
    const got = labels(
      grid([
        ['', '2018', '2019'],
        ['total drug offences', '84,927', '70,140'],
        ['total cannabis offences', '36,579', '16,868'],
        ['cannabis - possession', '26,402', '46'],
        ['cannabis - other', '10,177', '16,822'],
        ['total other drug offences', '48,348', '53,272'],
        ['cocaine - possession', '7,027', '6,732'],
        ['other drugs', '41,321', '46,540']
      ])
    )
    expect(got).toEqual([
      'total drug offences',
      'total cannabis offences',
      'total cannabis offences > cannabis - possession',
      'total cannabis offences > cannabis - other',
      'total other drug offences',
      'total other drug offences > cocaine - possession',
      'total other drug offences > other drugs'
    ])
  })

  it('keeps a closing total inside the last breakdown when the same total ends every breakdown', () => {
    const sections = ['goods', 'services', 'trade', 'unassigned'].flatMap((name) => [
      [name, ''],
      ['young firms', '30.6'],
      ['old firms', '69.4'],
      ['all age groups', '100.0']
    ])
    const got = labels(grid([['', 'percent'], ...sections]))
    expect(got.slice(-3)).toEqual(['unassigned > young firms', 'unassigned > old firms', 'unassigned > all age groups'])
    expect(got.filter((l) => l.endsWith('> all age groups'))).toHaveLength(4)
  })

  it('ends a section at a total only when no plain row follows it ("total cholesterol" among measures)', () => {
    const measures = labels(
      grid([
        ['', 'mean'],
        ['health measures', ''],
        ['bmi', '27.3'],
        ['sum of 5 skinfolds', '74.5'],
        ['grip strength', '70.5'],
        ['total cholesterol', '5.0'],
        ['total cholesterol/hdl', '3.9'],
        ['glycohemoglobin', '5.7']
      ])
    )
    expect(measures.every((l) => l.startsWith('health measures > '))).toBe(true)
    const decisions = labels(
      grid([
        ['', 'number'],
        ['ipv cases', ''],
        ['guilty', '30'],
        ['acquitted', '2'],
        ['total ipv decisions', '32'],
        ['non-ipv cases', ''],
        ['guilty', '24'],
        ['acquitted', '1'],
        ['total non-ipv decisions', '25'],
        ['total decisions', '57']
      ])
    )
    expect(decisions.slice(-2)).toEqual(['non-ipv cases > total non-ipv decisions', 'total decisions'])
  })

  it('makes a whole heading the body the parent of its parts, though rates do not add up', () => {
    const g = grid([
      ['', 'rate'],
      ['all regions', '16.8'],
      ['quebec', '27.8'],
      ['ontario', '10.4'],
      ['alberta', '19.5']
    ])
    expect(labels(g)).toEqual(['all regions', 'all regions > quebec', 'all regions > ontario', 'all regions > alberta'])
    // A place name is not read as a whole: that would need a list of places.
    const place = grid([
      ['', 'rate'],
      ['canada', '16.8'],
      ['quebec', '27.8'],
      ['ontario', '10.4']
    ])
    expect(labels(place)).toEqual(['canada', 'quebec', 'ontario'])
  })

  it('makes a "… total" heading the body the parent of the rows below, footnote letter and all', () => {
    const g = grid([
      ['state', 'r&d', 'r&d/gdp', 'largest industry'],
      ['u.s. totala', '238,768', '1.6', 'pharmaceuticals'],
      ['california', '64,104', '3.4', 'semiconductors'],
      ['washington', '13,659', '3.8', 'software']
    ])
    expect(labels(g)).toEqual(['u.s. totala', 'u.s. totala > california', 'u.s. totala > washington'])
  })

  it('reads successive "… overall" rows as sibling groups and a closing whole as their sibling', () => {
    const g = grid([
      ['', 'rate'],
      ['provinces overall', '1,200'],
      ['quebec', '1,100'],
      ['ontario', '1,300'],
      ['territories overall', '4,000'],
      ['yukon', '3,500'],
      ['nunavut', '4,500'],
      ['all regions', '1,250']
    ])
    expect(labels(g)).toEqual([
      'provinces overall',
      'provinces overall > quebec',
      'provinces overall > ontario',
      'territories overall',
      'territories overall > yukon',
      'territories overall > nunavut',
      'all regions'
    ])
  })
})
