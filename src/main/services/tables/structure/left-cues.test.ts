import { describe, expect, it } from 'vitest'
import type { MergedRegion, RawGrid } from '../../../../shared/table'
import { structureGrid } from './index'
import { labelWords, numberRange, quarterRange, variantOf } from './label-cues'

const grid = (cells: string[][], merges: MergedRegion[] = []): RawGrid => ({ name: 't', cells, merges, warnings: [] })
const labels = (g: RawGrid): string[] => structureGrid(g).index.map((t) => t.filter((x) => x.length > 0).join(' > '))

describe('left hierarchy from the wording of row labels', () => {
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
