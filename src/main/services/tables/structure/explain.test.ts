import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { HeaderNode, RawGrid } from '../../../../shared/table'
import { financialReport, FINANCIAL_REPORT_NAME } from '../../../../../test/fixtures/sheets/financial-report'
import { indentedReport, INDENTED_REPORT_NAME } from '../../../../../test/fixtures/sheets/indented-report'
import { datasetsDir } from '../../paths'
import { importFileSync } from '../import'
import { explainStructure } from './explain'
import { detectStructure, splitSideBySide, structureGrid } from './index'

function grids(name: string, bytes: Uint8Array): RawGrid[] {
  const read = importFileSync(name, bytes)
  if (!read.ok) throw new Error(read.error.message)
  return read.value.flatMap(splitSideBySide)
}

const indented = (): RawGrid => {
  const grid = grids(INDENTED_REPORT_NAME, indentedReport())[0]
  if (grid === undefined) throw new Error('no sheet')
  return grid
}

/** The sheet row of each left-tree node's parent node (null: the root), by the node's row. */
function parentsInTree(root: HeaderNode): Map<number, number | null> {
  const out = new Map<number, number | null>()
  const stack: [HeaderNode, number | null][] = root.children.map((c) => [c, null])
  while (stack.length > 0) {
    const [node, parent] = stack.pop() ?? [root, null]
    const row = node.cell?.row
    if (row !== undefined && !out.has(row)) out.set(row, parent === row ? null : parent)
    for (const child of node.children) stack.push([child, row === child.cell?.row ? parent : (row ?? parent)])
  }
  return out
}

describe('explainStructure', () => {
  it('says why an indentation report behind code columns nests each row, where its header ends and which lines are notes', () => {
    const grid = indented()
    const why = explainStructure(grid)
    const options = detectStructure(grid)
    expect(options.headerCols).toBe(5)
    expect(why.labelColumns.map((r) => r.rule)).toEqual(['labels-under-corner'])
    expect(why.labelColumns[0]?.text).toBe('the first 5 columns under the corner of the header')
    // The first body row (sheet row 6) ends the header: the row numbers start there.
    const end = why.headerRows.find((h) => h.row === 5)
    expect(end?.reasons.map((r) => r.rule)).toEqual(['header-ends-at-line-numbers'])
    // The source line opens with the German remark word "Quelle" (knowledge/de.json).
    expect(why.notes.map((n) => n.reasons[0]?.rule)).toEqual(['note-footnote', 'note-remark'])
    // "Steuern" (sheet row 7) is indented under "Einnahmen insgesamt" (row 6).
    const steuern = why.rows.find((p) => p.row === 6)
    expect(steuern?.parentRow).toBe(5)
    expect(steuern?.reasons[0]).toEqual({
      rule: 'nesting-indentation-column',
      text: "nested under 'Einnahmen insgesamt': indented deeper than it"
    })
    expect(steuern?.roleReasons[0]?.rule).toBe('row-data')
    // "Ausgaben insgesamt" goes back to the top level at the indentation of the first row.
    const ausgaben = why.rows.find((p) => p.row === 18)
    expect(ausgaben?.parentRow).toBeNull()
    expect(ausgaben?.reasons[0]?.text).toMatch(/^at the top level: /)
  })

  it('gives every body row the parent the left tree gives it', () => {
    const phd = join(datasetsDir(), 'spreadsheets', 'tidyabs', 'PhD_major-field.xlsx')
    const all = [
      indented(),
      ...grids(FINANCIAL_REPORT_NAME, financialReport()),
      ...grids('PhD_major-field.xlsx', new Uint8Array(readFileSync(phd)))
    ]
    let nested = 0
    for (const grid of all) {
      const parsed = structureGrid(grid)
      const tree = parentsInTree(parsed.leftTree)
      const why = explainStructure(grid)
      for (const p of why.rows) {
        if (!tree.has(p.row)) continue
        expect({ sheet: grid.name, row: p.row, parent: p.parentRow }).toEqual({ sheet: grid.name, row: p.row, parent: tree.get(p.row) })
        expect(p.reasons.length).toBeGreaterThan(0)
        if (p.parentRow !== null) nested++
      }
    }
    expect(nested).toBeGreaterThan(40)
  })

  it('says a layout set by hand is set by hand, and that rows stay flat with nesting off', () => {
    const grid = indented()
    const detected = detectStructure(grid)
    const byHand = explainStructure(grid, { ...detected, headerRows: detected.headerRows + 1, headerCols: 1 })
    expect(byHand.headerRows.every((h) => h.reasons.map((r) => r.rule).join() === 'set-by-hand')).toBe(true)
    expect(byHand.labelColumns.map((r) => r.rule)).toEqual(['set-by-hand'])
    const flat = explainStructure(grid, { ...detected, leftHierarchy: 'none' })
    expect(flat.rows.length).toBeGreaterThan(20)
    expect(flat.rows.every((p) => p.parentRow === null && p.reasons[0]?.rule === 'rows-flat')).toBe(true)
    expect(flat.notes).toEqual([])
  })
})
