import { describe, expect, it } from 'vitest'
import type { MergedRegion, RawGrid } from '../../../../shared/table'
import { structureGrid } from './index'

const grid = (cells: string[][], merges: MergedRegion[] = [], styles?: RawGrid['styles']): RawGrid => ({
  name: 't',
  cells,
  merges,
  warnings: [],
  ...(styles ? { styles } : {})
})

/** Each row's index tuple, blank levels left out, joined with ' > '. */
const rowPaths = (p: { index: string[][] }): string[] => p.index.map((t) => t.filter((x) => x.length > 0).join(' > '))
const labels = (g: RawGrid): string[] => rowPaths(structureGrid(g))

describe('left hierarchy: recurring sections and rows that add up', () => {
  it('nests a section that recurs in turn with other sections inside each of them', () => {
    const g = grid([
      ['', '2009', '2010'],
      ['u.s. companies', '', ''],
      ['domestic r&d', '282,393', '278,977'],
      ['source of funds', '', ''],
      ['the company', '224,920', '221,706'],
      ['others', '57,473', '57,271'],
      ['foreign affiliates', '', ''],
      ['domestic r&d', '35,538', '39,700'],
      ['source of funds', '', ''],
      ['the company', '27,798', '30,175'],
      ['others', '7,739', '9,524']
    ])
    expect(labels(g)).toEqual([
      'u.s. companies > domestic r&d',
      'u.s. companies > source of funds > the company',
      'u.s. companies > source of funds > others',
      'foreign affiliates > domestic r&d',
      'foreign affiliates > source of funds > the company',
      'foreign affiliates > source of funds > others'
    ])
    // Parallel sections that happen to repeat one heading, not in turn, stay siblings.
    const parallel = grid([
      ['', 'a', 'b'],
      ['work', '', ''],
      ['hours', '17.8', '31.7'],
      ['wages of these workers', '', ''],
      ['25th percentile', '180', '404'],
      ['wages of all employees', '', ''],
      ['25th percentile', '1,703', '422'],
      ['family', '', ''],
      ['size', '3.8', '2.0'],
      ['wages of all employees', '', ''],
      ['25th percentile', '867', '323']
    ])
    expect(labels(parallel)).toEqual([
      'work > hours',
      'wages of these workers > 25th percentile',
      'wages of all employees > 25th percentile',
      'family > size',
      'wages of all employees > 25th percentile'
    ])
  })

  it('keeps a total that opens a section inside it, and does not read "all other" as a total', () => {
    const g = grid([
      ['', 'beta'],
      ['sedentary', ''],
      ['total', '0.12'],
      ['weekday', '0.07'],
      ['light', ''],
      ['retail', '0.5'],
      ['all other industries', '0.4'],
      ['total', '0.9'],
      ['overall', '1.0']
    ])
    expect(structureGrid(g).index).toEqual([
      ['sedentary', 'total'],
      ['sedentary', 'weekday'],
      ['light', 'retail'],
      ['light', 'all other industries'],
      ['light', 'total'],
      ['overall', '']
    ])
  })

  it('makes a row that adds up the rows below it their parent', () => {
    const g = grid([
      ['', '2018', '2019', 'share'],
      ['canada', '1,500', '1,800', '100.0'],
      ['ontario', '700', '900', '50.0'],
      ['quebec', '500', '600', '33.3'],
      ['alberta', '300', '300', '16.7'],
      ['abroad', '42', '57', '']
    ])
    expect(structureGrid(g).index).toEqual([
      ['canada', ''],
      ['canada', 'ontario'],
      ['canada', 'quebec'],
      ['canada', 'alberta'],
      ['abroad', '']
    ])
  })

  it('nests aggregates inside aggregates and takes a pair only when a total or another aggregate follows', () => {
    const g = grid([
      ['', 'a', 'b'],
      ['positive', '790', '800'],
      ['excellent', '150', '140'],
      ['very good', '300', '310'],
      ['good', '340', '350'],
      ['negative', '210', '200'],
      ['fair', '155', '150'],
      ['poor', '55', '50'],
      ['total', '1,000', '1,000']
    ])
    expect(labels(g)).toEqual([
      'positive',
      'positive > excellent',
      'positive > very good',
      'positive > good',
      'negative',
      'negative > fair',
      'negative > poor',
      'total'
    ])
    const statement = grid([
      ['', '2018', '2017'],
      ['revenue', '$44,438', '$41,138'],
      ['expense', '39,174', '35,172'],
      ['income', '5,264', '5,966'],
      ['tax', '(1,216)', '(2,295)']
    ])
    expect(structureGrid(statement).index).toEqual([['revenue'], ['expense'], ['income'], ['tax']])
  })

  it('takes a pair followed by a plain row when the block around it adds up only with the pair nested', () => {
    const g = grid([
      ['', 'women', 'share', 'men', 'share'],
      ['all arrangements', '13,976.5', '100.0', '13,293.3', '100.0'],
      ['in a couple', '7,856.0', '56.2', '7,867.7', '59.2'],
      ['married', '6,291.9', '45.0', '6,296.0', '47.4'],
      ['common-law', '1,564.1', '11.2', '1,571.7', '11.8'],
      ['lone parents', '1,200.3', '8.6', '327.5', '2.5'],
      ['as children', '1,987.3', '14.2', '2,443.8', '18.4'],
      ['alone', '2,932.9', '21.0', '2,654.3', '20.0']
    ])
    expect(labels(g)).toEqual([
      'all arrangements',
      'all arrangements > in a couple',
      'all arrangements > in a couple > married',
      'all arrangements > in a couple > common-law',
      'all arrangements > lone parents',
      'all arrangements > as children',
      'all arrangements > alone'
    ])
  })

  it('takes neighbouring pairs that add up as sibling groups', () => {
    const g = grid([
      ['', 'count', 'share'],
      ['couple', '13,812', '69.2'],
      ['with children', '9,151', '45.9'],
      ['without children', '4,661', '23.4'],
      ['lone parent', '1,995', '10.0'],
      ['female', '1,208', '6.1'],
      ['male', '787', '3.9'],
      ['other household', '876', '4.4']
    ])
    expect(labels(g)).toEqual([
      'couple',
      'couple > with children',
      'couple > without children',
      'lone parent',
      'lone parent > female',
      'lone parent > male',
      'other household'
    ])
  })

  it('makes a total heading the body the parent of the rows below, even when its values are rates', () => {
    const g = grid([
      ['', 'rate'],
      ['all industries', '4.1'],
      ['mining', '6.0'],
      ['retail', '3.2'],
      ['', 'percent'],
      ['total', '100.0'],
      ['men', '48.0']
    ])
    expect(labels(g)).toEqual([
      'all industries',
      'all industries > mining',
      'all industries > retail',
      'percent > total',
      'percent > total > men'
    ])
  })

  it('needs one column to add up to the unit, not only within rounding', () => {
    const g = grid([
      ['', 'owned', 'total', 'age'],
      ['B-767', '21', '21', '18.0'],
      ['B-777', '8', '8', '19.1'],
      ['B-777LR', '10', '10', '9.8'],
      ['A220', '4', '4', '0.1']
    ])
    expect(structureGrid(g).index).toEqual([['B-767'], ['B-777'], ['B-777LR'], ['A220']])
  })

  it('does not take small counts that add up while more columns lie among the parts', () => {
    const g = grid([
      ['', 'jobs', 'jobs', 'wages', 'wages', 'sales', 'sales'],
      ['agriculture', '23', '22', '422', '487', '2,976', '3,464'],
      ['mining', '2', '2', '231', '247', '962', '807'],
      ['manufacturing', '17', '17', '943', '994', '6,515', '6,881'],
      ['electricity', '3', '3', '360', '349', '2,482', '2,422'],
      ['construction', '15', '15', '675', '703', '3,610', '3,466']
    ])
    expect(labels(g)).toEqual(['agriculture', 'mining', 'manufacturing', 'electricity', 'construction'])
  })

  it('takes large totals that their rounded parts miss by a thousandth, preferring a block that adds up to the unit', () => {
    // Counts rounded to multiples of 5: the provinces sum to 50,745 and 44,785.
    const rounded = grid([
      ['', 'cohort', 'treated', 'percent'],
      ['canada', '50,740', '44,780', '88.2'],
      ['newfoundland', '1,055', '965', '91.5'],
      ['prince edward island', '330', '305', '91.8'],
      ['nova scotia', '2,090', '1,875', '89.7'],
      ['new brunswick', '1,555', '1,410', '90.7'],
      ['ontario', '26,095', '22,565', '86.5'],
      ['manitoba', '2,390', '2,040', '85.3'],
      ['saskatchewan', '1,940', '1,740', '89.6'],
      ['alberta', '6,185', '5,575', '90.1'],
      ['british columbia', '9,105', '8,310', '91.3'],
      ['abroad', '17', '12', '70.6']
    ])
    expect(labels(rounded)).toEqual([
      'canada',
      'canada > newfoundland',
      'canada > prince edward island',
      'canada > nova scotia',
      'canada > new brunswick',
      'canada > ontario',
      'canada > manitoba',
      'canada > saskatchewan',
      'canada > alberta',
      'canada > british columbia',
      'abroad'
    ])
    // 1,050 of 1,051 is near after four parts; the fifth makes it exact, and belongs to the block.
    const longer = grid([
      ['', 'incidents', 'organized'],
      ['all drug violations', '1,051', '586'],
      ['heroin', '159', '118'],
      ['cocaine', '459', '283'],
      ['cannabis', '161', '62'],
      ['other drugs', '271', '122'],
      ['production', '1', '1'],
      ['total', '1,639', '676']
    ])
    expect(labels(longer)).toEqual([
      'all drug violations',
      'all drug violations > heroin',
      'all drug violations > cocaine',
      'all drug violations > cannabis',
      'all drug violations > other drugs',
      'all drug violations > production',
      'total'
    ])
  })

  it('lets a near fit that runs to the end of the rows win over an earlier near fit', () => {
    // The provinces sum to 25,245 and 23,010 against 25,248 and 23,012; the territories add 5 and then 0,
    // which leaves the fit near.
    const g = grid([
      ['', 'cohort', 'treated', 'percent'],
      ['canada', '25,248', '23,012', '91.2'],
      ['newfoundland', '560', '530', '94.6'],
      ['nova scotia', '1,030', '970', '94.2'],
      ['ontario', '12,930', '11,550', '89.3'],
      ['manitoba', '1,180', '1,050', '89.0'],
      ['alberta', '3,075', '2,825', '91.9'],
      ['british columbia', '6,470', '6,085', '94.0'],
      ['yukon', '5', '5', '100.0'],
      ['nunavut', '0', '0', '0.0']
    ])
    expect(labels(g).slice(-2)).toEqual(['canada > yukon', 'canada > nunavut'])
  })

  it('takes one large column that adds up beside rates, for four parts or more that run to the end of the rows', () => {
    const rows = [
      ['', 'job vacancies', 'vacancy rate', 'unemployment rate'],
      ['', 'thousands', 'percent', ''],
      ['national', '392.5', '2.7', '6.9'],
      ['east', '105.2', '3.1', '8.6'],
      ['centre', '122.6', '2.0', '6.7'],
      ['prairies', '10.7', '2.1', '5.1'],
      ['west', '82.4', '4.6', '4.5'],
      ['coast', '71.7', '2.6', '6.6']
    ]
    expect(labels(grid(rows)).slice(-2)).toEqual(['national > west', 'national > coast'])
    // The parts add up to 392.6, a rounding error away. The same near sum with a row after it, or with three
    // parts, is left alone: one column may come that near by chance.
    expect(labels(grid([...rows, ['abroad', '1.2', '0.4', '']])).slice(-3)).toEqual(['west', 'coast', 'abroad'])
    const three = [
      ...rows.slice(0, 3),
      ['east', '227.8', '3.1', '8.6'],
      ['prairies', '10.7', '2.1', '5.1'],
      ['west', '154.1', '4.6', '4.5']
    ]
    expect(labels(grid(three))).toEqual(['national', 'east', 'prairies', 'west'])
  })

  it('takes one column of counts that adds up beside shares, when the counts are a hundred or more', () => {
    const rows = [
      ['', 'total', 'open areas', 'residences'],
      ['', 'number', 'percent', ''],
      ['race/ethnicity', '2,412', '36', '24'],
      ['black', '838', '36', '27'],
      ['south asian', '711', '42', '19'],
      ['indigenous', '863', '33', '25'],
      ['religion', '822', '23', '28'],
      ['jewish', '303', '17', '25'],
      ['muslim', '519', '28', '29'],
      ['sexual orientation', '940', '39', '28']
    ]
    expect(labels(grid(rows))).toEqual([
      'race/ethnicity',
      'race/ethnicity > black',
      'race/ethnicity > south asian',
      'race/ethnicity > indigenous',
      'religion',
      'religion > jewish',
      'religion > muslim',
      'sexual orientation'
    ])
    // Small counts (21 = 15 + 2 + 4), or a column with parts below zero, add up by chance.
    const small = grid([
      ['', 'wales', 'great britain'],
      ['oak', '3', '21'],
      ['beech', '2', '15'],
      ['sycamore', '0', '2'],
      ['ash', '1', '4'],
      ['birch', '11', '19']
    ])
    expect(labels(small)).toEqual(['oak', 'beech', 'sycamore', 'ash', 'birch'])
    const signed = grid([
      ['', 'change', 'rate'],
      ['hamilton', '205', '3.1'],
      ['brantford', '-31', '4.2'],
      ['guelph', '142', '2.9'],
      ['london', '94', '3.5'],
      ['windsor', '-57', '2.2']
    ])
    expect(labels(signed)).toEqual(['hamilton', 'brantford', 'guelph', 'london', 'windsor'])
  })
})
