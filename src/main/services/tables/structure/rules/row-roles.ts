/**
 * Stages `row-roles` and `row-roles-adjust`: what each body row is for the left tree (a data row, a section
 * label without values, a unit over the rows below, a note, nothing), first from the row's own cells, then
 * adjusted by what is around it (the notes under the table, banners, periods of a series).
 */
import { blankColumns, rawText, regionAt, type Grid } from '../grid'
import { periodShape } from '../number'
import { dataEmpty, isNote, isUnitRow, labelledUnit, placeholdersOnly, rowLabel, sharesMergedData, type RowRole } from '../rows'
import { applies, byStrength, rowDecider, ranked, type Evidence, type Refiner, type RowRule, type Unranked } from './types'

export type RowRolesContext = {
  g: Grid
  headerRows: number
  headerCols: number
  /** Rows nest (the inspector's "nest rows"); without it every row is data or empty. */
  hierarchy: boolean
  /** The first row of the notes under the table (`g.rows` when none). */
  notesFrom: number
  /** What the rules read first in a row, for the row asked about last (the rules of a row share it). */
  seen?: { row: number; empty: boolean; label: string }
  /** The period shape of each data or section row's label (see periodShape), once rule rows-periods read them. */
  periods?: (string | null)[]
}

/** Whether the row's data cells are empty, and its label: read once for all the rules asking about the row. */
function cellsOf(ctx: RowRolesContext, row: number): { empty: boolean; label: string } {
  if (ctx.seen?.row !== row) ctx.seen = { row, empty: dataEmpty(ctx.g, row, ctx.headerCols), label: rowLabel(ctx.g, row, ctx.headerCols) }
  return ctx.seen
}

/** Body row `row` (a grid row) has the role `role`. */
export type RoleClaim = { row: number; role: RowRole }

type RoleRule = RowRule<RowRolesContext, RoleClaim>

const flat: Unranked<RoleRule> = {
  id: 'rows-flat',
  description: 'With nesting turned off, a row is data when it has anything in it.',
  messages: { data: 'nesting is off: a row of the table', empty: 'nothing in the row' },
  applies: (ctx) => !ctx.hierarchy,
  check(ctx, row, report) {
    const empty = (ctx.g.cells[row] ?? []).every((t) => t.trim().length === 0)
    report({ claim: { row, role: empty ? 'empty' : 'data' }, message: empty ? 'empty' : 'data' })
  }
}

const placeholders: Unranked<RoleRule> = {
  id: 'row-placeholders',
  description: 'A row of missing-value marks only ("none | none | none") is an empty row.',
  messages: { empty: 'missing-value marks only' },
  applies: (ctx) => ctx.hierarchy,
  check(ctx, row, report) {
    if (placeholdersOnly(ctx.g, row)) report({ claim: { row, role: 'empty' }, message: 'empty' })
  }
}

const underMergedValue: Unranked<RoleRule> = {
  id: 'row-under-merged-value',
  description: 'A labelled row whose data cells lie under a value merged down from a row above ("No Team" over three seasons) is data.',
  messages: { data: 'its values are merged down from the row above' },
  applies: (ctx) => ctx.hierarchy,
  check(ctx, row, report) {
    const { empty, label } = cellsOf(ctx, row)
    if (empty && label.length > 0 && sharesMergedData(ctx.g, row, ctx.headerCols)) report({ claim: { row, role: 'data' }, message: 'data' })
  }
}

const labelOnly: Unranked<RoleRule> = {
  id: 'row-label-only',
  description: 'A row with a label and no values heads the rows below it (a section), unless it reads like a remark or a divider (a note).',
  messages: { section: 'a label and no values', note: 'a remark or a divider, not a heading', empty: 'nothing in the row' },
  applies: (ctx) => ctx.hierarchy,
  check(ctx, row, report) {
    const { empty, label } = cellsOf(ctx, row)
    if (!empty) return
    const role: RowRole = label.length === 0 ? 'empty' : isNote(ctx.g, row, ctx.headerCols, label) ? 'note' : 'section'
    report({ claim: { row, role }, message: role })
  }
}

const labelledUnitRow: Unranked<RoleRule> = {
  id: 'row-labelled-unit',
  description:
    'A label whose data area is one short unit merged across all of it ("region of ancestry | percent") heads the rows below it.',
  messages: { section: 'a label over one unit merged across the data' },
  applies: (ctx) => ctx.hierarchy,
  check(ctx, row, report) {
    const { empty, label } = cellsOf(ctx, row)
    if (!empty && label.length > 0 && labelledUnit(ctx.g, row, ctx.headerCols))
      report({ claim: { row, role: 'section' }, message: 'section' })
  }
}

const unitRow: Unranked<RoleRule> = {
  id: 'row-unit',
  description: 'No label and one short text above the data ("percent", "$ thousands", often merged across it): a unit over the rows below.',
  messages: { unit: 'one short text over the data, no label' },
  applies: (ctx) => ctx.hierarchy,
  check(ctx, row, report) {
    if (!cellsOf(ctx, row).empty && isUnitRow(ctx.g, row, ctx.headerCols)) report({ claim: { row, role: 'unit' }, message: 'unit' })
  }
}

const dataRow: Unranked<RoleRule> = {
  id: 'row-data',
  description: 'A row with values is a data row.',
  messages: { data: 'a row of values' },
  applies: (ctx) => ctx.hierarchy,
  check(ctx, row, report) {
    if (!cellsOf(ctx, row).empty) report({ claim: { row, role: 'data' }, message: 'data' })
  }
}

export const ROLE_RULES: readonly RoleRule[] = ranked<RoleRule>([
  flat,
  placeholders,
  underMergedValue,
  labelOnly,
  labelledUnitRow,
  unitRow,
  dataRow
])

/**
 * Roles of the body rows so far (index 0 = row headerRows), the rule that decided each, and, when asked for
 * (explaining), the evidence of each; otherwise `evidence` is empty, so a table of a million rows does not
 * keep a million findings.
 */
export type RolesAnswer = { roles: RowRole[]; rules: (string | undefined)[]; evidence: (Evidence<RoleClaim> | undefined)[] }

type RoleRefiner = Refiner<RowRolesContext, RolesAnswer, RoleClaim>

const notesUnder: Unranked<RoleRefiner> = {
  id: 'rows-notes-under-table',
  description: 'The rows of the notes under the table (stage notes) are notes, not rows of it.',
  messages: { note: 'one of the notes under the table' },
  refine(ctx, { roles }, report) {
    for (let r = Math.max(ctx.notesFrom, ctx.headerRows); r < ctx.g.rows; r++)
      if (roles[r - ctx.headerRows] !== 'empty') report({ claim: { row: r, role: 'note' }, message: 'note' })
  }
}

const trailingLabels: Unranked<RoleRefiner> = {
  id: 'rows-labels-after-data',
  description: 'Rows with a label and nothing else after the last data row head nothing: notes ("Abbreviations and symbols:").',
  messages: { note: 'a label after the last row of values' },
  applies: (ctx) => ctx.headerCols > 0,
  refine(ctx, { roles }, report) {
    const last = roles.lastIndexOf('data')
    if (last < 0) return
    for (let i = last + 1; i < roles.length; i++)
      if (roles[i] === 'section') report({ claim: { row: ctx.headerRows + i, role: 'note' }, message: 'note' })
  }
}

const banners: Unranked<RoleRefiner> = {
  id: 'rows-banners',
  description:
    'Section rows merged across the whole table when other section rows are not ("HH:MIN" over "KEY SERIES"): banners, each heading everything down to the next, as a unit does.',
  messages: { unit: 'merged across the table, unlike the other section rows' },
  applies: (ctx) => ctx.hierarchy && ctx.headerCols > 0,
  refine(ctx, { roles }, report) {
    const { g, headerRows } = ctx
    const found: number[] = []
    let plain = 0
    // The last column with text: a banner may stop short of blank columns at the right edge.
    let last = -1
    const lastColumn = (): number => {
      if (last >= 0) return last
      const blank = blankColumns(g.cells, g.merges, g.cols)
      last = g.cols - 1
      while (last > 0 && blank?.[last] === 1) last--
      return last
    }
    roles.forEach((role, i) => {
      if (role !== 'section') return
      const m = regionAt(g, headerRows + i, 0)
      if (m !== null && m.top === headerRows + i && m.left === 0 && m.bottom === m.top && m.right >= lastColumn()) found.push(i)
      else plain++
    })
    if (found.length > 0 && plain > 0) for (const i of found) report({ claim: { row: headerRows + i, role: 'unit' }, message: 'unit' })
  }
}

const periods: Unranked<RoleRefiner> = {
  id: 'rows-periods',
  description: 'A period without values ("1971 [x]") followed by periods of the same kind is a row of the series, not a section.',
  messages: { data: 'a period of the series below it, without values' },
  applies: (ctx) => ctx.headerCols > 0,
  refine(ctx, { roles }, report) {
    const { g, headerRows, headerCols } = ctx
    let next: string | null = null
    // Kept for the blocks, which read the same shapes (this refiner turns sections into data rows only).
    const shapes = (ctx.periods = new Array<string | null>(roles.length).fill(null))
    for (let i = roles.length - 1; i >= 0; i--) {
      const role = roles[i]
      if (role === 'empty') continue
      const shape = role === 'data' || role === 'section' ? periodShape(rowLabel(g, headerRows + i, headerCols)) : null
      shapes[i] = shape
      let now = role
      if (role === 'section' && shape !== null && shape === next) {
        now = 'data'
        report({ claim: { row: headerRows + i, role: 'data' }, message: 'data' })
      }
      next = now === 'data' ? shape : null
    }
  }
}

export const ROLE_REFINERS: readonly RoleRefiner[] = ranked<RoleRefiner>([notesUnder, trailingLabels, banners, periods])

/** The role of every body row: each row's strongest claim, then the refiners, the stronger first. */
export function resolveRoles(
  ctx: RowRolesContext,
  rules: readonly RoleRule[] = ROLE_RULES,
  refiners: readonly RoleRefiner[] = ROLE_REFINERS,
  keepEvidence = false
): RolesAnswer {
  const n = Math.max(0, ctx.g.rows - ctx.headerRows)
  const roles = new Array<RowRole>(n)
  const ruleIds = new Array<string | undefined>(n)
  const evidence = new Array<Evidence<RoleClaim> | undefined>(keepEvidence ? n : 0)
  const decide = rowDecider(rules, ctx)
  for (let i = 0; i < n; i++) {
    const best = decide(ctx.headerRows + i)
    roles[i] = best?.claim.role ?? 'empty'
    ruleIds[i] = best?.rule
    if (keepEvidence) evidence[i] = best
  }
  const answer: RolesAnswer = { roles, rules: ruleIds, evidence }
  for (const refiner of byStrength(refiners)) {
    if (!applies(refiner, ctx)) continue
    const changes: Evidence<RoleClaim>[] = []
    refiner.refine(ctx, answer, (f) =>
      changes.push({ rule: refiner.id, claim: f.claim, strength: refiner.strength, message: f.message, data: f.data })
    )
    for (const e of changes) {
      roles[e.claim.row - ctx.headerRows] = e.claim.role
      ruleIds[e.claim.row - ctx.headerRows] = e.rule
      if (keepEvidence) evidence[e.claim.row - ctx.headerRows] = e
    }
  }
  return answer
}

/** Text of a row's label cells, the innermost written one. */
export function labelText(g: Grid, r: number, headerCols: number): string {
  for (let c = headerCols - 1; c >= 0; c--) {
    const t = rawText(g, r, c)
    if (t.length > 0) return t
  }
  return ''
}
