import { describe, expect, it } from 'vitest'
import type { RawGrid } from '../../../../shared/table'
import { explainStructure } from './explain'
import { detectStructure, structureGrid } from './index'
import { withoutRules } from './rules/types'
import { splitSideBySide } from './side-by-side'

const grid = (cells: string[][], extra: Partial<RawGrid> = {}): RawGrid => ({
  name: 'book.xlsx › Table 6',
  cells,
  merges: [],
  warnings: [],
  ...extra
})

describe('tables side by side on one sheet', () => {
  const sheet = [
    ['Table 6a: conifers', '', '', '', 'Table 6b: broadleaves', '', ''],
    ['Source: inventory', '', '', '', 'Source: inventory', '', ''],
    ['Age class', 'England', 'Wales', '', 'Age class', 'England', 'Wales'],
    ['0-20', '37', '19', '', '0-20', '25', '13'],
    ['21-40', '120', '45', '', '21-40', '98', '30'],
    ['Total', '157', '64', '', 'Total', '123', '43']
  ]

  it('splits them into one grid each, with merges, styles and sheet columns moved along', () => {
    const parts = splitSideBySide(
      grid(sheet, {
        merges: [{ top: 0, left: 4, bottom: 0, right: 6 }],
        styles: { '3,4': { indent: 1 }, '3,0': { bold: true } }
      })
    )
    expect(parts.map((p) => p.name)).toEqual(['book.xlsx › Table 6 (1 of 2)', 'book.xlsx › Table 6 (2 of 2)'])
    expect(parts[1]?.cells[2]).toEqual(['Age class', 'England', 'Wales'])
    expect(parts[1]?.merges).toEqual([{ top: 0, left: 0, bottom: 0, right: 2 }])
    expect(parts[1]?.styles).toEqual({ '3,0': { indent: 1 } })
    expect(parts[0]?.styles).toEqual({ '3,0': { bold: true } })
    expect(parts[1]?.warnings).toEqual([])
    expect(parts[1]?.sheetColumn).toBe(4)
    // Each part is structured on its own, and names the cells of the sheet.
    const second = structureGrid(parts[1] as RawGrid)
    expect(second.title).toBe('Table 6b: broadleaves\nSource: inventory')
    expect(second.columns).toEqual([['England'], ['Wales']])
    expect(second.colSource).toEqual([5, 6])
    expect(second.columnCells[0]).toEqual({ row: 2, col: 5 })
    expect(second.indexCells[0]).toEqual({ row: 3, col: 4 })
  })

  it('splits them under a title merged across the whole sheet, and gives each part that title', () => {
    const titled = [
      ['9', 'Construction output: matched pairs', '', '', '', '', ''],
      ['', '', '', '', '', '', ''],
      ['', 'Businesses showing negative growth', '', '', '', 'Businesses showing positive growth', ''],
      ['Employment', 'Number', 'Value', '', 'Employment', 'Number', 'Value'],
      ['0-9', '675', '1,167', '', '0-9', '358', '262'],
      ['10+', '252', '545', '', '10+', '108', '163']
    ]
    const merges = [
      { top: 0, left: 1, bottom: 1, right: 6 },
      { top: 2, left: 1, bottom: 2, right: 2 },
      { top: 2, left: 5, bottom: 2, right: 6 }
    ]
    const parts = splitSideBySide(grid(titled, { merges }))
    expect(parts.map((p) => p.name)).toEqual(['book.xlsx › Table 6 (1 of 2)', 'book.xlsx › Table 6 (2 of 2)'])
    const [first, second] = parts.map((p) => structureGrid(p))
    expect(first?.title).toBe('9 Construction output: matched pairs')
    expect(second?.title).toBe('9 Construction output: matched pairs')
    expect(second?.columns).toEqual([
      ['Businesses showing positive growth', 'Number'],
      ['Businesses showing positive growth', 'Value']
    ])
    expect(second?.index).toEqual([['0-9'], ['10+']])
    expect(second?.colSource).toEqual([5, 6])
  })

  it('keeps one table whole when a blank column is only a spacer inside it', () => {
    // Between data columns.
    const spaced = [
      ['', '', 'NSA', '', 'SA'],
      ['2012', 'Jan', '1,119', '', '1,490'],
      ['', 'Feb', '950', '', '1,450']
    ]
    expect(splitSideBySide(grid(spaced))).toHaveLength(1)
    // Between the label columns and the data.
    const labels = [
      ['Region', 'Code', '', '2019', '2020'],
      ['North', 'N1', '', '1,200', '1,300'],
      ['South', 'S1', '', '800', '900']
    ]
    expect(splitSideBySide(grid(labels))).toHaveLength(1)
    // Before a column of notes.
    const notes = [
      ['Region', '2019', '2020', '', 'Notes', 'Source'],
      ['North', '1,200', '1,300', '', 'revised', 'survey'],
      ['South', '800', '900', '', 'provisional', 'census']
    ]
    expect(splitSideBySide(grid(notes))).toHaveLength(1)
    // A merge across the blank column below the title block joins the parts.
    expect(splitSideBySide(grid(sheet, { merges: [{ top: 2, left: 2, bottom: 2, right: 4 }] }))).toHaveLength(1)
    // Records (CSV) and database tables are never split.
    expect(splitSideBySide(grid(sheet, { hints: { records: true } }))).toHaveLength(1)
  })

  it('reads the same line over each of the tables as a title line (title-repeated)', () => {
    const cells = [
      ['Employment by sex', '', '', 'Employment by sex', '', ''],
      ['', '', '', '', '', ''],
      ['Sex', '2019', '2020', 'Sex', '2021', '2022'],
      ['Men', '10', '11', 'Men', '12', '13'],
      ['Women', '9', '10', 'Women', '11', '12']
    ]
    const g = grid(cells)
    expect(detectStructure(g)).toMatchObject({ titleRows: 2, headerRows: 1 })
    expect(explainStructure(g).title).toEqual([
      { row: 0, reasons: [{ rule: 'title-repeated', text: 'the same line over each of the tables side by side' }] }
    ])
    // Without the rule the line is the header of both tables.
    expect(withoutRules(['title-repeated'], () => detectStructure(g)).titleRows).toBeUndefined()
  })
})
