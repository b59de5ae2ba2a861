/**
 * The "why" of a table's layout: the structure pass run again with its reasons kept, turned into words. Only
 * asked for (the inspector, `npm run bench -- parse --explain`), so the pass itself records nothing.
 */
import type { RawGrid, StructureOptions } from '../../../../shared/table'
import type { RowPlacement, RowReasons, StructureReason, StructureWhy } from '../../../../shared/structure-why'
import { probeColumns } from './detect'
import { normalizeBelow, normalizeGrid, rawText, type Grid } from './grid'
import { detectStructure } from './index'
import { labelOrder, reorderColumns } from './label-order'
import { buildLeftTree } from './left-tree'
import { repeatedHeaderRows, withoutRepeatedHeaders } from './repeated-headers'
import { BLOCK_REFINERS, LABEL_BLOCK_RULES } from './rules/blocks'
import { HEADER_EXTENT_RULES, resolveHeaderExtent } from './rules/header-extent'
import { HEADER_ROW_RULES, resolveHeaderRows } from './rules/header-rows'
import { LABEL_COLUMN_RULES, LABEL_EXTENT_RULES, resolveLabelColumns } from './rules/label-columns'
import { INDENT_COLUMN_RULES, NESTING_RULES, STATED_RULES, SWEEP_RULES } from './rules/nesting'
import { NOTE_RULES, resolveNotes } from './rules/notes'
import { labelText, ROLE_REFINERS, ROLE_RULES } from './rules/row-roles'
import type { Why } from './rules/sweep-cues'
import { CORNER_RULES, resolveCorner } from './rules/corner-caption'
import { resolveTitle, TITLE_RULES } from './rules/title'
import { formatMessage, reasonOf, type Evidence } from './rules/types'

/** Rows of the left tree explained at most (the inspector shows a few thousand nodes). */
export const MAX_EXPLAINED_ROWS = 5000

type Messages = { messages: Record<string, string> }

// Every rule in use, by id, for its messages.
const RULES: ReadonlyMap<string, Messages> = new Map(
  [
    TITLE_RULES,
    HEADER_ROW_RULES,
    HEADER_EXTENT_RULES,
    LABEL_COLUMN_RULES,
    LABEL_EXTENT_RULES,
    CORNER_RULES,
    NOTE_RULES,
    ROLE_RULES,
    ROLE_REFINERS,
    LABEL_BLOCK_RULES,
    BLOCK_REFINERS,
    INDENT_COLUMN_RULES,
    STATED_RULES,
    NESTING_RULES,
    SWEEP_RULES
  ].flatMap((rules: readonly ({ id: string } & Messages)[]) => rules.map((r) => [r.id, r] as const))
)

// What the sweep says itself when it opens or closes a group for a rule of an earlier stage.
const SWEEP_MESSAGES: Record<string, string> = {
  unit: 'a unit line over the rows below it',
  section: 'a label without values, over the rows below it',
  indented: 'indented deeper than it',
  columns: 'an outer label written once for the rows beside and below it',
  sum: 'the rows below it add up to it',
  whole: 'names the whole of the rows under it',
  level: 'at the level of a group above, or further out',
  'block-ended': 'the rows the group above heads ended'
}

const HAND: StructureReason = { rule: 'set-by-hand', text: 'set by hand in the inspector' }

function reason<C>(e: Evidence<C>): StructureReason {
  return reasonOf(RULES, e)
}

function whyText(why: Why): StructureReason {
  const template = RULES.get(why.rule)?.messages[why.message] ?? SWEEP_MESSAGES[why.message] ?? why.message
  return { rule: why.rule, text: formatMessage(template, why.data) }
}

/**
 * Why the table of `grid` has the layout `options` (detected when absent): the same grids and stages as
 * structureGrid, with every decision's evidence kept. Never throws.
 */
export function explainStructure(grid: RawGrid, options?: StructureOptions): StructureWhy {
  const detected = detectStructure(grid)
  const chosen = options ?? detected
  const whole = normalizeGrid(grid)
  const titleRows = Math.max(0, Math.min(chosen.titleRows ?? 0, whole.rows - 1))
  const g: Grid = titleRows === 0 ? whole : normalizeBelow(grid, titleRows, whole)
  const headerRows = Math.max(0, Math.min(chosen.headerRows, g.rows))
  const headerCols = Math.max(0, Math.min(chosen.headerCols, g.cols))
  const labelsFrom = headerCols === 0 ? 0 : Math.max(0, Math.min(chosen.labelsFrom ?? 0, g.cols - headerCols))
  // The body as the structure pass reads it: label columns behind index columns at the front (label-order.ts).
  const view = labelsFrom === 0 ? g : reorderColumns(g, labelOrder(g.cols, labelsFrom, headerCols))
  const sheetRow = (r: number): number => r + titleRows

  const title: RowReasons[] = []
  // Why the row after the title block (the first header row) is no title line, when a rule says so.
  let notTitle: StructureReason | undefined
  if (grid.relational === undefined) {
    const end = resolveTitle(whole).end
    if (end !== undefined && (detected.titleRows ?? 0) === titleRows && end.claim.row === titleRows) notTitle = reason(end)
  }
  if (grid.relational === undefined && titleRows > 0) {
    const found = resolveTitle(whole)
    const byHand = titleRows !== (detected.titleRows ?? 0)
    for (let r = 0; r < titleRows; r++) {
      const e = found.lines.get(r)
      if (e !== undefined || byHand) title.push({ row: r, reasons: byHand ? [HAND] : [reason(e as Evidence<unknown>)] })
    }
  }

  // The corner's caption is a line of the title, on the first header row.
  const caption = grid.relational === undefined ? resolveCorner(view, headerRows, headerCols) : undefined
  if (caption !== undefined) title.push({ row: sheetRow(0), reasons: [reason(caption)] })

  const headers: RowReasons[] = []
  if (headerRows !== detected.headerRows)
    for (let r = 0; r <= headerRows && r < g.rows; r++) headers.push({ row: sheetRow(r), reasons: [HAND] })
  else if (g.rows > 0) {
    const probe = probeColumns(g)
    const read = resolveHeaderRows(g, probe)
    const extent = resolveHeaderExtent(g, probe, read.rows)
    for (let r = 0; r <= headerRows && r < g.rows; r++) {
      const reasons: StructureReason[] = []
      const e = read.evidence.get(r)
      if (r === 0) {
        reasons.push({
          rule: 'header-first-row',
          text: headerRows === 0 ? 'the first row holds plain numbers: no header row' : 'the first row names the columns'
        })
        if (notTitle !== undefined) reasons.push(notTitle)
      } else if (e !== undefined) reasons.push(reason(e))
      if (extent.evidence !== undefined && (r === headerRows || r === read.rows)) reasons.push(reason(extent.evidence))
      if (reasons.length > 0) headers.push({ row: sheetRow(r), reasons })
    }
  }

  let labelColumns: StructureReason[] = []
  if (headerCols !== detected.headerCols || labelsFrom !== (detected.labelsFrom ?? 0)) labelColumns = [HAND]
  else {
    const found = resolveLabelColumns(g, headerRows)
    if (found.evidence !== undefined) labelColumns.push(reason(found.evidence))
    for (const e of found.extensions) labelColumns.push(reason(e))
  }

  const hierarchy = chosen.leftHierarchy !== 'none'
  const notes: RowReasons[] = []
  if (hierarchy)
    for (const [r, e] of [...resolveNotes(view, headerRows).lines].sort((a, b) => a[0] - b[0]))
      notes.push({ row: sheetRow(r), reasons: [reason(e)] })

  const repeats = grid.relational === undefined ? repeatedHeaderRows(view, headerRows, headerCols) : []
  const body = withoutRepeatedHeaders(view, repeats, headerRows, headerCols)
  const left = buildLeftTree(body, headerRows, headerCols, hierarchy, true)
  const rows: RowPlacement[] = []
  const placements = left.why?.placements ?? []
  const placed = new Map(placements.map((p) => [p.row, p]))
  for (let i = 0; i < left.roles.length && rows.length < MAX_EXPLAINED_ROWS; i++) {
    const role = left.roles[i] ?? 'empty'
    if (role === 'empty') continue
    const r = headerRows + i
    const roleEvidence = left.why?.roles[i]
    const p = placed.get(r)
    const reasons: StructureReason[] = []
    const parentRow = headerCols === 0 ? null : (p?.parentRow ?? null)
    if (!hierarchy) reasons.push({ rule: 'rows-flat', text: 'nesting is off: every row at the top level' })
    else if (parentRow !== null) {
      const parent = labelText(body, parentRow, headerCols) || rawText(body, parentRow, 0)
      const opened = p?.opened === undefined ? '' : `: ${whyText(p.opened).text}`
      reasons.push({ rule: p?.opened?.rule ?? 'nesting', text: `nested under '${parent}'${opened}` })
    } else if (p !== undefined && p.closed.length > 0) {
      for (const c of p.closed) reasons.push({ rule: c.rule, text: `at the top level: ${whyText(c).text}` })
    } else reasons.push({ rule: 'nesting-none', text: 'at the top level: no group above it' })
    rows.push({
      row: sheetRow(r),
      role,
      parentRow: parentRow === null ? null : sheetRow(parentRow),
      roleReasons: roleEvidence === undefined ? [] : [reason(roleEvidence)],
      reasons
    })
  }
  const bodyRows = left.roles.filter((role) => role !== 'empty').length
  return { title, headerRows: headers, labelColumns, notes, rows, rowsTruncated: rows.length < bodyRows }
}
