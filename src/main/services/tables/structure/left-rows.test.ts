import { describe, expect, it } from 'vitest'
import type { MergedRegion, RawGrid } from '../../../../shared/table'
import { detectStructure, structureGrid } from './index'

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

describe('left hierarchy: periods, merged values, groups and overrides', () => {
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

  it('stops nesting a staircase of ever deeper rows at 32 open parents', () => {
    const cells = [['', 'n'], ...Array.from({ length: 40 }, (_v, i) => [`step ${i}`, String(i)])]
    const styles = Object.fromEntries(Array.from({ length: 39 }, (_v, i) => [`${i + 2},0`, { indent: i + 1 }]))
    const p = structureGrid(grid(cells, [], styles))
    expect(p.index[31]?.filter((x) => x.length > 0)).toHaveLength(32)
    // Past the bound each row sits beside the one before, under the same 32 parents.
    expect(p.index[39]?.filter((x) => x.length > 0)).toEqual([...Array.from({ length: 32 }, (_v, i) => `step ${i}`), 'step 39'])
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
})
