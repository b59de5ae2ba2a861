import { describe, expect, it } from 'vitest'
import type { MergedRegion, RawGrid } from '../../../../shared/table'
import { structureGrid } from './index'
import { labelWords, numberRange, quarterRange, variantOf } from './label-cues'

const grid = (cells: string[][], merges: MergedRegion[] = []): RawGrid => ({ name: 't', cells, merges, warnings: [] })
const labels = (g: RawGrid): string[] => structureGrid(g).index.map((t) => t.filter((x) => x.length > 0).join(' > '))

describe('left hierarchy from the wording of row labels', () => {
  it('closes a group at the "other …" row that names its head, and at the complement of its head', () => {
    const g = grid([
      ['', 'share'],
      ['science', '75.5'],
      ['chemistry', '17.8'],
      ['physics', '30.8'],
      ['other science fields', '2.6'],
      ['engineering', '21.9'],
      ['visible minority', '12.0'],
      ['chinese', '4.0'],
      ['black', '3.0'],
      ['not a visible minority', '88.0'],
      ['women', '50.0'],
      ['not a visible minority', '44.0']
    ])
    expect(labels(g)).toEqual([
      'science',
      'science > chemistry',
      'science > physics',
      'science > other science fields',
      'engineering',
      'visible minority',
      'visible minority > chinese',
      'visible minority > black',
      'not a visible minority',
      'women',
      'not a visible minority'
    ])
  })

  it('closes a total at the complement of what it totals ("total aboriginal identity" then "non-aboriginal identity")', () => {
    const g = grid([
      ['', 'arthritis', 'asthma'],
      ['', 'percentage', ''],
      ['total aboriginal identity population', '22.2', '16.6'],
      ['first nations', '23.4', '17.5'],
      ['metis', '21.3', '16.7'],
      ['inuit', '15.2', '9.3'],
      ['non-aboriginal identity population', '14.7', '10.6']
    ])
    expect(labels(g)).toEqual([
      'percentage > total aboriginal identity population',
      'percentage > total aboriginal identity population > first nations',
      'percentage > total aboriginal identity population > metis',
      'percentage > total aboriginal identity population > inuit',
      'percentage > non-aboriginal identity population'
    ])
  })

  it('looks for the head a complement names only inside its own section ("non-employer" under "business owner")', () => {
    const g = grid([
      ['', 'headcount', 'share'],
      ['self-employed', '', ''],
      ['non-employer', '2,163,790', '95'],
      ['employer', '116,150', '5'],
      ['total', '2,279,940', '100'],
      ['business owner', '', ''],
      ['non-employer', '317,830', '26'],
      ['employer', '925,570', '74'],
      ['total', '1,243,400', '100']
    ])
    expect(labels(g)).toEqual([
      'self-employed > non-employer',
      'self-employed > employer',
      'self-employed > total',
      'business owner > non-employer',
      'business owner > employer',
      'business owner > total'
    ])
  })

  it('keeps a variant of the head beside it, not under it, before the head\'s complement ("s&e | s&e-related | non-s&e")', () => {
    const g = grid([
      ['', 'median salary'],
      ['s&e', '65000'],
      ['s&e-related', '65000'],
      ['non-s&e', '52000']
    ])
    expect(labels(g)).toEqual(['s&e', 's&e-related', 'non-s&e'])
  })

  it('closes a group at the "other …" row whose words begin the head ("other traffic" under "traffic offences")', () => {
    const g = grid([
      ['', 'share'],
      ['criminal code', '80.0'],
      ['criminal code traffic offences', '3.0'],
      ['impaired driving', '1.6'],
      ['other criminal code traffic', '1.4'],
      ['custody', '30.0'],
      ['conditional sentence', '5.0'],
      ['probation', '50.0'],
      ['other sentences', '15.0']
    ])
    expect(labels(g)).toEqual([
      'criminal code',
      'criminal code traffic offences',
      'criminal code traffic offences > impaired driving',
      'criminal code traffic offences > other criminal code traffic',
      'custody',
      'conditional sentence',
      'probation',
      'other sentences'
    ])
    // A row with exactly the named words wins over a nearer one whose words only begin with them.
    const fields = grid([
      ['', 'researchers'],
      ['engineering', '3,274'],
      ['bioengineering', '415'],
      ['engineering science, mechanics', '200'],
      ['mechanical engineering', '458'],
      ['other engineering', '641']
    ])
    expect(labels(fields)).toEqual([
      'engineering',
      'engineering > bioengineering',
      'engineering > engineering science, mechanics',
      'engineering > mechanical engineering',
      'engineering > other engineering'
    ])
  })

  it('makes "of which" rows parts of the row above, under a long unit merged across the data', () => {
    const g = grid(
      [
        ['', 'q1', 'q2'],
        ['', 'implicit price indexes, percentage change from previous quarter', ''],
        ['gross domestic product', '0.5', '0.3'],
        ['of which: cannabis-related', '1.2', '0.2'],
        ['of which: other', '0.5', '0.3'],
        ['household spending', '0.4', '0.2']
      ],
      [{ top: 1, left: 1, bottom: 1, right: 2 }]
    )
    expect(labels(g)).toEqual([
      'implicit price indexes, percentage change from previous quarter > gross domestic product',
      'implicit price indexes, percentage change from previous quarter > gross domestic product > of which: cannabis-related',
      'implicit price indexes, percentage change from previous quarter > gross domestic product > of which: other',
      'implicit price indexes, percentage change from previous quarter > household spending'
    ])
  })

  it('closes a section at the row that negates it, unless the section also lists its own name', () => {
    const g = grid([
      ['shipment type', 'kilometres'],
      ['dangerous goods', ''],
      ['crude petroleum', '110'],
      ['other dangerous goods', '313'],
      ['non-dangerous goods', '665'],
      ['all shipments', '632']
    ])
    expect(labels(g)).toEqual([
      'dangerous goods > crude petroleum',
      'dangerous goods > other dangerous goods',
      'non-dangerous goods',
      'all shipments'
    ])
    const variable = grid([
      ['', 'share'],
      ['visible minority', ''],
      ['visible minority', '82'],
      ['non-visible minority', '68']
    ])
    expect(labels(variable)).toEqual(['visible minority > visible minority', 'visible minority > non-visible minority'])
  })

  it('closes a section at a row that names another measure of the same thing', () => {
    const g = grid([
      ['', 'canada', 'united states'],
      ['changes in employment shares', '', ''],
      ['construction', '5.6', '0.1'],
      ['manufacturing', '-7.2', '-7.2'],
      ['changes in employment rate', '-0.7', '-5.0']
    ])
    expect(labels(g)).toEqual([
      'changes in employment shares > construction',
      'changes in employment shares > manufacturing',
      'changes in employment rate'
    ])
    expect(variantOf(labelWords('changes in employment rate'), labelWords('changes in employment shares'))).toBe(true)
    // The same words, a footnote letter, a number or a different length name no other measure.
    expect(variantOf(labelWords('changes in employment sharesa'), labelWords('changes in employment shares'))).toBe(false)
    expect(variantOf(labelWords('population aged 65'), labelWords('population aged 15'))).toBe(false)
    expect(variantOf(labelWords('employment rate'), labelWords('employment share'))).toBe(false)
    expect(variantOf(labelWords('changes in employment rate by sex'), labelWords('changes in employment shares'))).toBe(false)
  })

  it('makes each row that a repeated list follows the parent of that list', () => {
    const g = grid([
      ['', 'minutes'],
      ['18 to 39 years', '30'],
      ['males', '33'],
      ['females', '27'],
      ['40 to 59 years', '25'],
      ['males', '27'],
      ['females', '23'],
      ['smokers', '20'],
      ['males', '21']
    ])
    expect(labels(g)).toEqual([
      '18 to 39 years',
      '18 to 39 years > males',
      '18 to 39 years > females',
      '40 to 59 years',
      '40 to 59 years > males',
      '40 to 59 years > females',
      'smokers',
      'males'
    ])
  })

  it('keeps a row between two occurrences of a recurring section out of the first when it is not one of their parts', () => {
    const g = grid([
      ['', 'pain', 'anxiety'],
      ['total', '52.5', '18.8'],
      ['age group', '', ''],
      ['15 to 24', '53.9', '22.1'],
      ['25 to 44', '45.4', '24.4'],
      ['male', '49.3', '19.8'],
      ['age group', '', ''],
      ['15 to 24', '53.3', '22.4'],
      ['25 to 44', '46.8', '17.0']
    ])
    expect(labels(g)).toEqual([
      'total',
      'age group > 15 to 24',
      'age group > 25 to 44',
      'male',
      'age group > 15 to 24',
      'age group > 25 to 44'
    ])
    // Occurrences of one question with different answers share no parts: the last answer stays a part.
    const question = grid([
      ['', 'percent'],
      ['would you say you drive:', ''],
      ['slower', '2.9'],
      ['faster', '7.7'],
      ['would you say you drive:', ''],
      ['less aggressively', '2.9'],
      ['more aggressively', '9.2']
    ])
    expect(labels(question)).toEqual([
      'would you say you drive: > slower',
      'would you say you drive: > faster',
      'would you say you drive: > less aggressively',
      'would you say you drive: > more aggressively'
    ])
  })

  it('reads a divider merged across a table with several label columns, and a source line, as leaves', () => {
    const g = grid(
      [
        ['no', 'player', 'apps', 'goals'],
        ['goalkeepers', '', '', ''],
        ['1', 'grohe', '21', '0'],
        ['20', 'jardim', '3', '0'],
        ['defenders', '', '', ''],
        ['2', 'edilson', '7', '1'],
        ['source: club records', '', '', '']
      ],
      [
        { top: 1, left: 0, bottom: 1, right: 3 },
        { top: 4, left: 0, bottom: 4, right: 3 }
      ]
    )
    const p = structureGrid(g, { headerRows: 1, headerCols: 2, leftHierarchy: 'auto' })
    expect(p.index).toEqual([
      ['1', 'grohe'],
      ['20', 'jardim'],
      ['2', 'edilson']
    ])
    expect(p.leftTree.children.map((n) => n.text)).toEqual(['goalkeepers', '1', '20', 'defenders', '2', 'source: club records'])
    // With one label column the same merged row is a section over the rows below it.
    const one = structureGrid(g, { headerRows: 1, headerCols: 1, leftHierarchy: 'auto' })
    expect(one.leftTree.children.map((n) => n.text)).toEqual(['goalkeepers', 'defenders', 'source: club records'])
  })

  it('puts a closing mean or median outside the last section', () => {
    const g = grid([
      ['', 'rate'],
      ['asset', ''],
      ['office buildings', '2.9'],
      ['warehouses', '3.1'],
      ['mean, all assets', '3.0']
    ])
    expect(labels(g)).toEqual(['asset > office buildings', 'asset > warehouses', 'mean, all assets'])
  })

  it('makes a row whose range the next rows divide without gaps their parent', () => {
    const g = grid([
      ['', 'women', 'men'],
      ['15 or older', '14.7', '12.5'],
      ['15 to 24', '4.1', '4.4'],
      ['25 to 54', '9.1', '8.1'],
      ['55 to 64', '20.8', '19.0'],
      ['65 or older', '35.0', '30.6'],
      ['under $25,000', '8.0', '7.1'],
      ['$25,000 to $49,999', '6.2', '5.9'],
      ['$50,000 and over', '4.4', '4.0']
    ])
    expect(labels(g)).toEqual([
      '15 or older',
      '15 or older > 15 to 24',
      '15 or older > 25 to 54',
      '15 or older > 55 to 64',
      '15 or older > 65 or older',
      'under $25,000',
      '$25,000 to $49,999',
      '$50,000 and over'
    ])
    // A gap ("25 to 54" missing), or parts that stop short of the whole, leave the rows flat.
    const gap = grid([
      ['', 'women'],
      ['15 or older', '14.7'],
      ['15 to 24', '4.1'],
      ['55 to 64', '20.8'],
      ['65 or older', '35.0']
    ])
    expect(labels(gap)).toEqual(['15 or older', '15 to 24', '55 to 64', '65 or older'])
    const short = grid([
      ['', 'women'],
      ['15 to 64', '14.7'],
      ['15 to 24', '4.1'],
      ['25 to 54', '9.1']
    ])
    expect(labels(short)).toEqual(['15 to 64', '15 to 24', '25 to 54'])
  })

  it('makes a period whose quarters the next periods divide without gaps their parent', () => {
    const g = grid([
      ['', 'gdp', 'trading gain'],
      ['2009 q2 to 2011 q2', '3.2', '1.7'],
      ['2011 q2 to 2016 q3', '1.9', '-0.9'],
      ['2011 q2 to 2014 q2', '2.6', '-0.4'],
      ['2014 q2 to 2016 q3', '1.2', '-1.3']
    ])
    expect(labels(g)).toEqual([
      '2009 q2 to 2011 q2',
      '2011 q2 to 2016 q3',
      '2011 q2 to 2016 q3 > 2011 q2 to 2014 q2',
      '2011 q2 to 2016 q3 > 2014 q2 to 2016 q3'
    ])
    expect(quarterRange('2001 Q3 - 2008 Q3')).toEqual([2001 * 4 + 2, 2008 * 4 + 2])
    expect(quarterRange('2016 q3 to 2011 q2')).toBeNull()
  })

  it('reads the whole numbers a label spans', () => {
    expect(numberRange('aged 15 to 64 years')).toEqual([15, 64])
    expect(numberRange('25-54')).toEqual([25, 54])
    expect(numberRange('75 years and older')).toEqual([75, Infinity])
    expect(numberRange('15+')).toEqual([15, Infinity])
    expect(numberRange('under $25,000')).toEqual([-Infinity, 24999])
    // A pair whose second number is smaller ("2000-01", a school year) is no range, nor a label with other words.
    expect(numberRange('2000-01')).toBeNull()
    expect(numberRange('persons 65 years and over')).toBeNull()
  })
})
