import { describe, expect, it } from 'vitest'
import type { RawGrid } from '../../../../shared/table'
import { financialReport, FINANCIAL_REPORT_NAME } from '../../../../../test/fixtures/sheets/financial-report'
import { importFileSync } from '../import'
import { prepareTable } from '../prepare'
import { explainStructure } from './explain'
import { detectStructure, structureGrid } from './index'
import { withoutRules } from './rules/types'

/** A sheet of the financial statements workbook, read by the XLSX importer as the app reads it. */
function statement(sheet: string): RawGrid {
  const read = importFileSync(FINANCIAL_REPORT_NAME, financialReport())
  if (!read.ok) throw new Error(read.error.message)
  const grid = read.value.find((g) => g.name.endsWith(` › ${sheet}`))
  if (grid === undefined) throw new Error(`no sheet ${sheet}`)
  return grid
}

const grid = (cells: string[][]): RawGrid => ({ name: 't', cells, merges: [], warnings: [] })

/** Each data row's path, labels joined, by its first label. */
function paths(g: RawGrid): Map<string, string> {
  const t = structureGrid(g, detectStructure(g))
  const out = new Map<string, string>()
  t.index.forEach((path) => {
    const labels = path.filter((x) => x.length > 0)
    out.set(labels[labels.length - 1] ?? '', labels.join(' > '))
  })
  return out
}

describe('financial statements', () => {
  const balance = (): RawGrid => statement('CONSOLIDATED BALANCE SHEETS')
  const operations = (): RawGrid => statement('CONSOLIDATED STATEMENTS OF OPERATIONS')

  it('reads a single row of period ends beside the statement name as the header, not as a title', () => {
    const options = detectStructure(balance())
    expect(options.titleRows ?? 0).toBe(0)
    expect(options.headerRows).toBe(1)
    expect(structureGrid(balance(), options).columns).toEqual([['Dec. 31, 2024'], ['Dec. 31, 2023']])
    // Without the rule, the statement name reads as a paragraph and the first section label continues it.
    const before = withoutRules(['title-not-period-header'], () => detectStructure(balance()))
    expect(before.titleRows).toBe(2)
  })

  it('ends a section at the total that names it, so the lines after the total are not in the section', () => {
    const p = paths(balance())
    expect(p.get('Cash and cash equivalents')).toBe('CURRENT ASSETS > Cash and cash equivalents')
    expect(p.get('Total current assets')).toBe('Total current assets')
    expect(p.get('Property and equipment, net')).toBe('Property and equipment, net')
    expect(p.get('Accrued expenses')).toBe('CURRENT LIABILITIES > Accrued expenses')
    expect(p.get('Long-term debt, net of current portion')).toBe('Long-term debt, net of current portion')
    expect(p.get('Operating lease liabilities, noncurrent')).toBe('Operating lease liabilities, noncurrent')
    const before = withoutRules(['nesting-total-names-section'], () => paths(balance()))
    expect(before.get('Operating lease liabilities, noncurrent')).toBe('CURRENT LIABILITIES > Operating lease liabilities, noncurrent')
  })

  it('keeps a section in capitals out of the section in ordinary case before it, and the total of equity beside its section', () => {
    const p = paths(balance())
    expect(p.get('Retained earnings')).toBe("STOCKHOLDERS' EQUITY > Retained earnings")
    expect(p.get("Total Acme Corporation stockholders' equity")).toBe("Total Acme Corporation stockholders' equity")
    expect(p.get('Noncontrolling interests')).toBe('Noncontrolling interests')
  })

  it('does not nest the lines after a result line under it, though they add up to it', () => {
    const p = paths(operations())
    for (const line of [
      'Selling, general and administrative expenses',
      'Research and development',
      'Operating income',
      'Provision for income taxes',
      'Net income attributable to noncontrolling interests',
      'Net income attributable to Acme Corporation'
    ])
      expect(p.get(line), line).toBe(line)
    expect(p.get('Basic (in dollars per share)')).toBe('Earnings per share: > Basic (in dollars per share)')
    const before = withoutRules(['block-result-line'], () => paths(operations()))
    expect(before.get('Operating income')).toBe('Gross profit > Operating income')
    expect(before.get('Net income attributable to Acme Corporation')).toBe(
      'Income before income taxes > Net income > Net income attributable to Acme Corporation'
    )
  })
})

describe('the rules on small tables', () => {
  it('title-not-period-header: a long name beside period ends over numbers is the header; over texts it stays a title', () => {
    const name = 'Consolidated Statements of Cash Flows - USD ($) $ in Millions'
    const header = grid([
      [name, 'Sep. 28, 2024', 'Sep. 30, 2023'],
      ['Net income', '93,736', '96,995'],
      ['Depreciation and amortization', '11,445', '11,519'],
      ['Share-based compensation expense', '11,688', '10,833']
    ])
    expect(detectStructure(header)).toMatchObject({ headerRows: 1 })
    expect(detectStructure(header).titleRows ?? 0).toBe(0)
    const title = grid([
      [name, 'Sep. 28, 2024', 'see notes'],
      ['', 'Amount', 'Share'],
      ['Net income', '93,736', '52'],
      ['Depreciation and amortization', '11,445', '48']
    ])
    expect(detectStructure(title).titleRows).toBe(1)
  })

  it('title-not-column-names: one row of column names over a single value column is the header, in four languages', () => {
    const body = [
      ['Raw materials', '1,200'],
      ['Work in process', '300'],
      ['Finished goods', '2,500'],
      ['Total inventories', '4,000']
    ]
    const notes: [string, string][] = [
      ['Schedule of Components of Inventories (Details) - USD ($) $ in Millions', 'Total'],
      ['Schedule of Components of Inventories (Details) - USD ($) $ in Millions', '12 Months Ended Dec. 31, 2024'],
      ['Composantes des stocks (détail) - EUR (€) en millions d’euros', '31 déc. 2024'],
      ['Zusammensetzung der Vorräte (Einzelheiten) - EUR (€) in Millionen', 'Insgesamt'],
      ['Composición de las existencias (detalle) - EUR (€) en millones de euros', '31 dic. 2024']
    ]
    for (const [caption, name] of notes) {
      const g = grid([[caption, name], ...body])
      expect(detectStructure(g).titleRows ?? 0, name).toBe(0)
      expect(structureGrid(g, detectStructure(g)).columns, name).toEqual([[name]])
      // Without the rule the long caption and the name beside it read as a paragraph over the table.
      expect(
        withoutRules(['title-not-column-names'], () => detectStructure(g).titleRows),
        name
      ).toBe(1)
    }
    // A schedule whose lines are years; the explanation gives the rule on the header row.
    const maturities = grid([
      ['Leases - Maturities of Lease Liabilities (Details) - USD ($) $ in Millions', 'Operating leases'],
      ['2025', '412'],
      ['2026', '388'],
      ['Total', '800']
    ])
    expect(detectStructure(maturities)).toMatchObject({ headerRows: 1, headerCols: 1 })
    expect(explainStructure(maturities).headerRows[0]?.reasons.map((r) => r.rule)).toEqual(['header-first-row', 'title-not-column-names'])
    // Section labels without values may come between the names and the first values.
    const sections = grid([[notes[0]?.[0] ?? '', 'Total'], ['Current:', ''], ...body])
    expect(detectStructure(sections).titleRows ?? 0).toBe(0)
    // A unit beside a title, or a title over a header row of its own, stays a title line.
    expect(detectStructure(grid([[notes[0]?.[0] ?? '', '(in millions)'], ...body])).titleRows).toBe(1)
    const overHeader = grid([[notes[0]?.[0] ?? '', 'Total'], ['', '2024'], ...body])
    expect(detectStructure(overHeader)).toEqual(withoutRules(['title-not-column-names'], () => detectStructure(overHeader)))
  })

  it('block-result-line: a difference of the rows above heads nothing, a total over its parts still does', () => {
    const statementRows = grid([
      ['', '2024', '2023'],
      ['Revenue', '500', '400'],
      ['Cost of revenue', '300', '250'],
      ['Gross margin', '200', '150'],
      ['Selling expenses', '120', '90'],
      ['Operating income', '80', '60'],
      ['Interest', '5', '4']
    ])
    const p = paths(statementRows)
    expect(p.get('Selling expenses')).toBe('Selling expenses')
    expect(p.get('Operating income')).toBe('Operating income')
    const totals = grid([
      ['', '2024', '2023'],
      ['All workers', '500', '400'],
      ['Men', '260', '210'],
      ['Women', '240', '190'],
      ['Part-time', '130', '110']
    ])
    expect(paths(totals).get('Men')).toBe('All workers > Men')
  })

  it('nesting-total-names-section: a total naming its section, followed by plain rows, sits beside the section', () => {
    const cells = [
      ['', '2024', '2023'],
      ['Current liabilities:', '', ''],
      ['Accounts payable', '60', '50'],
      ['Accrued liabilities', '40', '30'],
      ['Total current liabilities', '100', '80'],
      ['Long-term debt', '300', '310'],
      ['Other liabilities', '20', '25']
    ]
    const p = paths(grid(cells))
    expect(p.get('Accounts payable')).toBe('Current liabilities: > Accounts payable')
    expect(p.get('Total current liabilities')).toBe('Total current liabilities')
    expect(p.get('Long-term debt')).toBe('Long-term debt')
  })

  it('nesting-section-runs: a section in capitals after one in ordinary case is its sibling, not its child', () => {
    const cells = [
      ['', '2024', '2023'],
      ['Commitments and contingencies', '', ''],
      ['SHAREHOLDERS EQUITY', '', ''],
      ['Common stock', '10', '10'],
      ['Retained earnings', '90', '80']
    ]
    expect(paths(grid(cells)).get('Common stock')).toBe('SHAREHOLDERS EQUITY > Common stock')
    const mixed = cells.map((row) => row.map((c) => (c === 'SHAREHOLDERS EQUITY' ? 'Shareholders equity' : c)))
    expect(paths(grid(mixed)).get('Common stock')).toBe('Commitments and contingencies > Shareholders equity > Common stock')
  })
})

describe("a statement's corner caption", () => {
  it('corner-caption: the name and unit in the corner are the title, not the name of an index level', () => {
    const grid = statement('CONSOLIDATED STATEMENTS OF OPERATIONS')
    const caption = 'Consolidated Statements of Operations - USD ($) shares in Thousands, $ in Thousands'
    const prepared = prepareTable(grid)
    expect(prepared.parsed.title).toBe(caption)
    expect(prepared.indexColumns).toEqual(['', ''])
    expect(explainStructure(grid).title).toContainEqual({
      row: 0,
      reasons: [{ rule: 'corner-caption', text: 'the corner of the header names the table and its unit, not the row labels' }]
    })
    // Without the rule the caption names the inner level of the row index, and the table has no title.
    const before = withoutRules(['corner-caption'], () => prepareTable(grid))
    expect(before.indexColumns).toEqual(['', caption])
    expect(before.parsed.title).toBeUndefined()
    // A corner that names the labels, or a unit alone, stays the labels' name.
    for (const corner of [
      'Region, subregion, country or area',
      '(Thousands of Dollars)',
      'explanatory variables, prior to entry into export markets'
    ]) {
      const named = prepareTable(
        grid_([
          [corner, '2024', '2023'],
          ['North', '5', '4'],
          ['South', '3', '2']
        ])
      )
      expect(named.indexColumns, corner).toEqual([corner])
      expect(named.parsed.title, corner).toBeUndefined()
    }
  })

  it('makes no index level that holds no label: a row without a label under a section adds none', () => {
    const t = structureGrid(
      grid_([
        ['Interim Consolidated Balance Sheets - USD ($) $ in Millions', 'Mar. 31, 2024', 'Dec. 31, 2023'],
        ['Cash and cash equivalents', '5,100', '4,800'],
        ['Receivables', '1,900', '1,800'],
        ['GUARANTEES', '', ''],
        ['', '1,200', '1,100']
      ])
    )
    expect(t.title).toBe('Interim Consolidated Balance Sheets - USD ($) $ in Millions')
    // The last row's path is the section and a blank leaf: the blank is no level of the index.
    expect(t.index).toEqual([['Cash and cash equivalents'], ['Receivables'], ['GUARANTEES']])
    expect(t.leftTree.children[2]?.children[0]?.text).toBe('')
  })
})

function grid_(cells: string[][]): RawGrid {
  return { name: 't', cells, merges: [], warnings: [] }
}
