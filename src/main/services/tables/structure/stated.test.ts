import { describe, expect, it } from 'vitest'
import type { RawGrid } from '../../../../shared/table'
import { normalizeGrid } from './grid'
import type { RowRole } from './rows'
import { codeColumns, numberedLabels, outlineLevels, parentsByLevel } from './stated'

/** The grid of `cells` (one header row, labels in column 0) and every body row a data row. */
function body(cells: string[][], outline?: number[]): { g: ReturnType<typeof normalizeGrid>; roles: RowRole[] } {
  const raw: RawGrid = { name: 't', cells, merges: [], warnings: [] }
  if (outline !== undefined) raw.outline = outline
  return { g: normalizeGrid(raw), roles: cells.slice(1).map(() => 'data') }
}

describe('codes and parent codes', () => {
  const cells = [
    ['Location', 'Code', 'Type', 'Parent code', '1950'],
    ['WORLD', '900', 'World', '', '2536.4'],
    ['AFRICA', '903', 'Region', '900', '227.8'],
    ['Eastern Africa', '910', 'Subregion', '903', '65.6'],
    ['Burundi', '108', 'Country', '910', '2.3'],
    ['Comoros', '174', 'Country', '910', '0.2'],
    ['Middle Africa', '911', 'Subregion', '903', '26.1'],
    ['Angola', '24', 'Country', '911', '4.5'],
    ['ASIA', '935', 'Region', '900', '1394.0'],
    ['India', '356', 'Country', '935', '376.3']
  ]

  it('reads each row under the row its parent code names, the top row with none at the top', () => {
    const { g, roles } = body(cells)
    const found = codeColumns(g, 1, 1, roles)
    expect(found).toMatchObject({ codes: 1, parentCodes: 3, matched: 8 })
    expect([...(found?.parents ?? [])]).toEqual([-1, 0, 1, 2, 2, 1, 5, 0, 7])
  })

  it('needs parent codes that name earlier rows: a column naming later rows or no rows states nothing', () => {
    const later = cells.map((row, i) => (i === 0 ? row : [row[0] ?? '', row[1] ?? '', row[2] ?? '', cells[i + 1]?.[1] ?? '', row[4] ?? '']))
    expect(codeColumns(body(later).g, 1, 1, body(later).roles)).toBeNull()
    const none = cells.map((row, i) => (i === 0 ? row : [...row.slice(0, 3), String(5000 + (i % 3)), row[4] ?? '']))
    expect(codeColumns(body(none).g, 1, 1, body(none).roles)).toBeNull()
  })

  it('does not read a running balance (each opening the closing above) as a chain of parents', () => {
    const balances = [['Month', 'Opening', 'Closing']]
    let open = 100
    for (let m = 1; m <= 8; m++) {
      const close = open + 7 * m
      balances.push([`M${m}`, String(open), String(close)])
      open = close
    }
    const { g, roles } = body(balances)
    expect(codeColumns(g, 1, 1, roles)).toBeNull()
  })
})

describe('numbered labels', () => {
  const lines = (labels: string[]): string[][] => [['Line', '2024'], ...labels.map((l, i) => [l, String(10 + i)])]

  it('nests "1.2.1" under the nearest "1.2" above, and leaves an unnumbered total at the top', () => {
    const { g, roles } = body(
      lines(['1 Revenue', '1.1 Taxes', '1.1.1 Property', '1.1.2 Sales', '1.2 Fees', '2 Spending', '2.1 Police', 'Total'])
    )
    const found = numberedLabels(g, 1, 1, roles)
    expect(found?.kind).toBe('dotted')
    expect([...(found?.parents ?? [])]).toEqual([-1, 0, 1, 1, 0, -1, 5, -1])
  })

  it('nests account codes under the code they extend ("1110" under "1100" under "1000")', () => {
    const { g, roles } = body(
      lines(['1000 Assets', '1100 Current', '1110 Cash', '1120 Receivables', '1200 Fixed', '2000 Liabilities', '2100 Payables'])
    )
    const found = numberedLabels(g, 1, 1, roles)
    expect(found?.kind).toBe('account')
    expect([...(found?.parents ?? [])]).toEqual([-1, 0, 1, 1, 0, -1, 5])
  })

  it('reads a plain enumeration, age groups and periods as no hierarchy', () => {
    const list = lines([
      '1. Receiving fire',
      '2. Seeing remains',
      '10. Knowing someone injured',
      '11. Clearing homes',
      '20. Sniper fire',
      '21. Caves'
    ])
    expect(numberedLabels(body(list).g, 1, 1, body(list).roles)).toBeNull()
    const ages = lines(['15 to 19 years', '20 to 24 years', '25 to 29 years', '30 to 34 years'])
    expect(numberedLabels(body(ages).g, 1, 1, body(ages).roles)).toBeNull()
    const quarters = lines(['2010 Q1', '2010 Q2', '2011 Q1', '2011 Q2', '2012 Q1'])
    expect(numberedLabels(body(quarters).g, 1, 1, body(quarters).roles)).toBeNull()
  })
})

describe('levels: the row outline and indentation', () => {
  it('puts each row under the nearest row above it at a lower level', () => {
    expect([...parentsByLevel([0, 1, 2, 2, 1, -1, 2, 0, 1])]).toEqual([-1, 0, 1, 1, 0, -1, 4, -1, 7])
  })

  it("reads the sheet's row outline when the rows are grouped at two levels at least", () => {
    const cells = [
      ['Item', 'Value'],
      ['Revenue', '9'],
      ['Sales', '5'],
      ['Fees', '4'],
      ['Costs', '3']
    ]
    const { g, roles } = body(cells, [0, 0, 1, 1, 0])
    expect(outlineLevels(g, 1, roles)).toEqual([0, 1, 1, 0])
    expect(outlineLevels(body(cells, [0, 1, 1, 1, 1]).g, 1, roles)).toBeNull()
    expect(outlineLevels(body(cells).g, 1, roles)).toBeNull()
  })
})
