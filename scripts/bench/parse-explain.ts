/**
 * `npm run bench -- parse --explain FILE[#sheet]`: why each table of a file has its layout, as the inspector
 * shows it: the title lines, header rows, label columns, notes, and each body row's role and place.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { explainStructure } from '../../src/main/services/tables/structure/explain'
import { structureGrid } from '../../src/main/services/tables/structure'
import { datasetsDir } from '../../src/main/services/paths'
import type { StructureReason, StructureWhy } from '../../src/shared/structure-why'
import type { RawGrid } from '../../src/shared/table'
import { openGrids } from './parse-cells'
import { builtWorkbook } from './parse-sheets'

function said(reasons: readonly StructureReason[]): string {
  return reasons.map((r) => `${r.text} [${r.rule}]`).join('; ')
}

/** The lines that explain one grid; rows are 1-based, as the sheet shows them. */
export function explainLines(grid: RawGrid, why: StructureWhy = explainStructure(grid)): string[] {
  const parsed = structureGrid(grid)
  const text = (row: number): string => {
    const cells = grid.cells[row] ?? []
    const shown = cells
      .map((c) => c.trim())
      .filter((c) => c !== '')
      .slice(0, 3)
      .join(' | ')
    return shown.length > 50 ? `${shown.slice(0, 50)}…` : shown
  }
  const { titleRows = 0, headerRows, headerCols, leftHierarchy = 'auto' } = parsed.options
  const lines = [
    `# ${grid.name}: title rows ${titleRows}, header rows ${headerRows}, label columns ${headerCols}, nesting ${leftHierarchy}`
  ]
  for (const t of why.title) lines.push(`title  row ${t.row + 1} "${text(t.row)}": ${said(t.reasons)}`)
  for (const h of why.headerRows) {
    const kind = h.row - titleRows < headerRows ? 'header' : 'body starts'
    lines.push(`${kind} row ${h.row + 1} "${text(h.row)}": ${said(h.reasons)}`)
  }
  lines.push(`label columns ${headerCols}: ${why.labelColumns.length > 0 ? said(why.labelColumns) : 'no rule found label columns'}`)
  for (const n of why.notes) lines.push(`note   row ${n.row + 1} "${text(n.row)}": ${said(n.reasons)}`)
  for (const p of why.rows) {
    const parent = p.parentRow === null ? 'top' : `under row ${p.parentRow + 1}`
    const role = p.roleReasons.length > 0 ? ` (${said(p.roleReasons)})` : ''
    lines.push(`row ${String(p.row + 1).padStart(4)} ${p.role}${role}, ${parent}: ${said(p.reasons)}  "${text(p.row)}"`)
  }
  if (why.rowsTruncated) lines.push(`… rows after ${why.rows.length} left out`)
  return lines
}

/**
 * The explanation of every table of `target` ("FILE" or "FILE#sheet"; a bare name is looked up in the
 * spreadsheets corpus, "built:NAME" is a workbook the sheet labels build, as test/fixtures/sheet-structure.json names it).
 */
export function explainFile(target: string): string[] {
  const [file = '', sheet] = target.split('#')
  const path = existsSync(file) ? file : join(datasetsDir(), 'spreadsheets', file)
  const grids = builtWorkbook(file) ?? openGrids(path)
  if (typeof grids === 'string') throw new Error(grids)
  const chosen = grids.filter((g) => sheet === undefined || g.name.endsWith(` › ${sheet}`) || g.name === sheet)
  if (chosen.length === 0) throw new Error(`No sheet named ${sheet ?? ''} in ${path}: ${grids.map((g) => g.name).join(', ')}`)
  return chosen.flatMap((g) => [...explainLines(g), ''])
}
