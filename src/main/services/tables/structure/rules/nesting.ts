/**
 * Stage `nesting`: the evidence the left tree is built from, beyond each row's role and the blocks: which
 * label column carries indentation, how deep runs of sections go, which rows close the groups open above
 * them (a grand total, a total after its section's parts, a row between recurring sections) and which open
 * one (a statistic of a group, a whole heading the rows listed under it). The sweep (rules/sweep.ts) resolves
 * them row by row into the tree.
 */
import type { RowNumbers } from '../row-numbers'
import { closingTotals } from '../totals'
import type { Grid } from '../grid'
import { countryAfterItsRegion } from '../regions'
import { isTotalLabel, isWholeLabel, type RowRole } from '../rows'
import { collect, ranked, type Evidence, type Rule, type StageId, type Unranked } from './types'
import {
  grandTotalRow,
  groupRows,
  inCapitals,
  indentationColumn,
  onceWrittenColumns,
  plainRowAfterTotals,
  rowsBeforeRecurrence,
  sectionRuns,
  sectionsByLabel,
  sectionsOverRecurring,
  totalsNamingSections,
  totalsOverSections
} from './nesting-cues'
import { labelText } from './row-roles'
import { numberedLabelsRule } from './numbered-labels'
import { outlineLevelsRule } from './outline-levels'
import { parentCodes } from './parent-codes'
import { staircaseNesting, type Staircase } from './staircase'

export type NestingContext = {
  g: Grid
  headerRows: number
  headerCols: number
  hierarchy: boolean
  roles: RowRole[]
  /** The last data row (a grid row; headerRows - 1 when there is none). */
  lastDataRow: number
  numbers: RowNumbers | null
  /** The label column whose indentation varies (-1: none), found by rule nesting-indentation-column. */
  indentColumn: number
  /** Label columns written as a staircase, found by rule nesting-staircase (null: none). */
  staircase: Staircase | null
}

/** One fact about the body, for body row `row` (index 0 = row headerRows) or for the table (`row` -1). */
export type NestingClaim =
  | { kind: 'indent-column'; row: -1; col: number }
  | { kind: 'staircase'; row: -1; from: number; to: number }
  | { kind: 'carried-columns' | 'group-columns'; row: -1; cols: Uint8Array }
  | { kind: 'section-depth'; row: number; depth: number }
  | { kind: 'outer-section' | 'before-recurrence' | 'group-row' | 'grand-total' | 'closes-after' | 'whole' | 'country'; row: number }
  | { kind: 'members' | 'total-of-sections' | 'names-section'; row: number; from: number }
  | StatedClaim

/**
 * The hierarchy the sheet states (rules/parent-codes.ts, numbered-labels.ts, outline-levels.ts): each body
 * row's parent body row (-1: top), and per row the code, number or level that says so, for the reasons.
 */
export type StatedClaim = { kind: 'stated'; row: -1; parents: Int32Array; marks: readonly string[] }

type NestingRule = Rule<NestingContext, NestingClaim>

const indented = (ctx: NestingContext): boolean => ctx.indentColumn >= 0
const worded = (ctx: NestingContext): boolean => ctx.hierarchy && ctx.indentColumn < 0 && ctx.headerCols === 1

const indentColumnRule: Unranked<NestingRule> = {
  id: 'nesting-indentation-column',
  description:
    'The first label column whose labels are indented differently from one another, down to the last data row, carries the hierarchy: a row sits under the nearest row above that is less indented.',
  messages: { column: 'the labels of column {col} are indented' },
  applies: (ctx) => ctx.hierarchy,
  find(ctx, report) {
    const col = indentationColumn(ctx.g, ctx.headerRows, ctx.headerCols, ctx.lastDataRow)
    if (col >= 0) report({ claim: { kind: 'indent-column', row: -1, col }, message: 'column', data: { col: col + 1 } })
  }
}

const carried: Unranked<NestingRule> = {
  id: 'nesting-labels-written-once',
  description:
    'In a grid with merges elsewhere, a label column written once per group and left blank below (a quarter of its rows at least) carries the label down, as a grid without merges does.',
  messages: { columns: 'labels written once per group' },
  applies: (ctx) => ctx.g.owner !== null,
  find(ctx, report) {
    report({
      claim: { kind: 'carried-columns', row: -1, cols: onceWrittenColumns(ctx.g, ctx.headerRows, ctx.headerCols - 1, ctx.roles, false) },
      message: 'columns'
    })
  }
}

const groupColumns: Unranked<NestingRule> = {
  id: 'nesting-group-columns',
  description: 'Beside an indented column, outer label columns written once per group ("WHO", "WHERE") open groups of their own.',
  messages: { columns: 'outer labels written once per group' },
  applies: indented,
  find(ctx, report) {
    report({
      claim: { kind: 'group-columns', row: -1, cols: onceWrittenColumns(ctx.g, ctx.headerRows, ctx.indentColumn, ctx.roles, true) },
      message: 'columns'
    })
  }
}

const totalsUnderParts: Unranked<NestingRule> = {
  id: 'nesting-total-under-parts',
  description: 'A total written under its indented parts ("SUB-TOTAL") whose values are their sum sits beside them and heads nothing.',
  messages: { members: 'the total of the rows above it from {from}' },
  applies: (ctx) => indented(ctx) && ctx.numbers !== null,
  find(ctx, report) {
    const { g, headerRows, headerCols, roles, numbers } = ctx
    if (numbers === null) return
    const from = closingTotals(numbers, roles, (i) => isWholeLabel(labelText(g, headerRows + i, headerCols)))
    from.forEach((f, row) => {
      if (f >= 0) report({ claim: { kind: 'members', row, from: f }, message: 'members', data: { from: headerRows + f + 1 } })
    })
  }
}

const sectionDepth: Unranked<NestingRule> = {
  id: 'nesting-section-runs',
  description:
    'Without indentation, section rows in a run nest, each under the one before, but not a section in capitals under one in ordinary case; a run longer than five is a list of labels.',
  messages: { run: 'a section over {depth} more below it' },
  applies: (ctx) => !indented(ctx),
  find(ctx, report) {
    const capitals = (i: number): boolean => inCapitals(labelText(ctx.g, ctx.headerRows + i, ctx.headerCols))
    sectionRuns(ctx.roles, capitals).forEach((depth, row) => {
      if (depth > 0 && ctx.roles[row] === 'section')
        report({ claim: { kind: 'section-depth', row, depth }, message: 'run', data: { depth } })
    })
  }
}

const outerSections: Unranked<NestingRule> = {
  id: 'nesting-sections-over-recurring',
  description:
    'Where one section recurs and other sections take turns with it ("source of funds" under each company type), the others hold it.',
  messages: { outer: 'holds the section that recurs under each of its kind' },
  applies: (ctx) => !indented(ctx),
  find(ctx, report) {
    const labels = sectionsByLabel(ctx.g, ctx.headerRows, ctx.headerCols, ctx.roles)
    sectionsOverRecurring(ctx.roles, labels)?.forEach((outer, row) => {
      if (outer) report({ claim: { kind: 'outer-section', row }, message: 'outer' })
    })
  }
}

const beforeRecurrence: Unranked<NestingRule> = {
  id: 'nesting-row-before-recurrence',
  description:
    'A row after the shared parts of a recurring section, right before its next occurrence ("male" after "45 and older"), is outside the section before it.',
  messages: { outside: 'not one of the parts the recurring section lists' },
  applies: (ctx) => ctx.hierarchy && !indented(ctx),
  find(ctx, report) {
    const labels = sectionsByLabel(ctx.g, ctx.headerRows, ctx.headerCols, ctx.roles)
    rowsBeforeRecurrence(ctx.g, ctx.headerRows, ctx.headerCols, ctx.roles, labels)?.forEach((v, row) => {
      if (v === 1) report({ claim: { kind: 'before-recurrence', row }, message: 'outside' })
    })
  }
}

const groupStatistic: Unranked<NestingRule> = {
  id: 'nesting-group-statistic',
  description:
    'A data row whose filled columns and those of the next row do not overlap ("sex | | | 10.1 | < 0.001") is a statistic of the group below it.',
  messages: { group: 'its values and those of the rows below fill different columns' },
  applies: worded,
  find(ctx, report) {
    groupRows(ctx.g, ctx.headerRows, ctx.headerCols, ctx.roles).forEach((group, row) => {
      if (group) report({ claim: { kind: 'group-row', row }, message: 'group' })
    })
  }
}

const grandTotal: Unranked<NestingRule> = {
  id: 'nesting-grand-total',
  description:
    'The last row names the total of a table of four breakdowns or more (or of fewer, when an earlier breakdown adds up to it), or a closing mean or median: it is outside every breakdown.',
  messages: { total: 'the total of the whole table, after its breakdowns' },
  applies: (ctx) => ctx.numbers !== null && !indented(ctx),
  find(ctx, report) {
    if (ctx.numbers === null) return
    const r = grandTotalRow(ctx.g, ctx.headerRows, ctx.headerCols, ctx.roles, ctx.numbers)
    if (r >= 0) report({ claim: { kind: 'grand-total', row: r - ctx.headerRows }, message: 'total' })
  }
}

const totalEndsSection: Unranked<NestingRule> = {
  id: 'nesting-total-ends-section',
  description:
    'A row labelled as a total ends the section whose parts it follows, unless a plain data row follows it ("sum of 5 skinfolds" among measures is a measure).',
  messages: { ends: "a total after the section's parts ends the section" },
  applies: (ctx) => ctx.hierarchy && !indented(ctx),
  find(ctx, report) {
    const { g, headerRows, headerCols, roles } = ctx
    const plainAfter = plainRowAfterTotals(g, headerRows, headerCols, roles)
    let previous: RowRole | null = null
    roles.forEach((role, row) => {
      if (role === 'empty') return
      if (role === 'data' && previous !== 'section' && plainAfter[row] !== 1 && isTotalLabel(labelText(g, headerRows + row, headerCols)))
        report({ claim: { kind: 'closes-after', row }, message: 'ends' })
      previous = role
    })
  }
}

const totalOfSections: Unranked<NestingRule> = {
  id: 'nesting-total-of-sections',
  description:
    'A total right after a section\'s rows, to which the rows of that section and of earlier ones add up ("cma total"), closes them all.',
  messages: { sections: 'the rows of the sections from {from} add up to it' },
  applies: (ctx) => ctx.numbers !== null && !indented(ctx) && ctx.headerCols === 1,
  find(ctx, report) {
    if (ctx.numbers === null) return
    totalsOverSections(ctx.g, ctx.headerRows, ctx.headerCols, ctx.roles, ctx.numbers).forEach((from, row) => {
      if (from >= 0)
        report({ claim: { kind: 'total-of-sections', row, from }, message: 'sections', data: { from: ctx.headerRows + from + 1 } })
    })
  }
}

const totalNamesSection: Unranked<NestingRule> = {
  id: 'nesting-total-names-section',
  description:
    'A total that names a section above it and is followed by plain rows ("Total current assets" after the lines of "CURRENT ASSETS", then "Property and equipment") ends that section and sits beside it, at the level of the rows after it.',
  messages: { named: "the total of section '{section}', beside it" },
  applies: (ctx) => ctx.hierarchy && !indented(ctx),
  find(ctx, report) {
    const { g, headerRows, headerCols, roles } = ctx
    totalsNamingSections(g, headerRows, headerCols, roles).forEach((from, row) => {
      if (from >= 0)
        report({
          claim: { kind: 'names-section', row, from },
          message: 'named',
          data: { section: labelText(g, headerRows + from, headerCols) }
        })
    })
  }
}

const wholes: Unranked<NestingRule> = {
  id: 'nesting-whole-heads-rows',
  description:
    'A row naming the whole of the rows listed under it ("all industries", "provinces overall", "u.s. total") heads them when it opens the body or a unit\'s rows; a second whole is its sibling.',
  messages: { whole: 'names the whole of the rows under it' },
  applies: worded,
  find(ctx, report) {
    ctx.roles.forEach((role, row) => {
      if (role === 'data' && isWholeLabel(labelText(ctx.g, ctx.headerRows + row, ctx.headerCols)))
        report({ claim: { kind: 'whole', row }, message: 'whole' })
    })
  }
}

const countries: Unranked<NestingRule> = {
  id: 'nesting-country-after-whole',
  description:
    'A country right after the rows of a whole that end in one of its regions ("canada" after "territories overall | yukon | nunavut") is not one of them (knowledge: places.json, ISO 3166).',
  messages: { country: 'a country, not one of the rows of the whole above' },
  applies: worded,
  find(ctx, report) {
    ctx.roles.forEach((role, row) => {
      if (role === 'data' && countryAfterItsRegion(ctx.g, ctx.headerRows, ctx.headerCols, ctx.roles, row))
        report({ claim: { kind: 'country', row }, message: 'country' })
    })
  }
}

/**
 * The rules that read a hierarchy the sheet states itself (codes and parent codes, numbered labels, the row
 * outline): the strongest that finds one decides every row's parent (rules/stated-sweep.ts).
 */
export const STATED_RULES: readonly NestingRule[] = ranked<NestingRule>([parentCodes, numberedLabelsRule, outlineLevelsRule])

/** The rule that finds the indented label column, which the other rules of the stage read. */
export const INDENT_COLUMN_RULES: readonly NestingRule[] = ranked<NestingRule>([indentColumnRule, staircaseNesting])

/** The rules of stage nesting that need the indentation column (found first by INDENT_COLUMN_RULES). */
export const NESTING_RULES: readonly NestingRule[] = ranked<NestingRule>([
  carried,
  groupColumns,
  totalsUnderParts,
  sectionDepth,
  outerSections,
  beforeRecurrence,
  groupStatistic,
  grandTotal,
  totalEndsSection,
  totalOfSections,
  totalNamesSection,
  wholes,
  countries
])

/**
 * Rules the sweep applies itself as it meets each row, since they read the groups open above it: listed
 * here for the rule table, the reasons and the ablation.
 */
export type SweepRule = { id: string; stage: StageId; strength: number; description: string; messages: Record<string, string> }

const siblingCloses: Unranked<SweepRule> = {
  id: 'nesting-sibling-closes',
  description:
    'A row that negates an open group ("non-dangerous goods" after the parts of "dangerous goods") or names another measure of the innermost one ("changes in employment rate" after "changes in employment shares") closes it, unless the group lists its own name among its rows.',
  messages: { sibling: 'a sibling of the group above it, by its wording' }
}

export const SWEEP_RULES: readonly SweepRule[] = ranked<SweepRule>([siblingCloses])

/** The nesting evidence by kind, each as an array over the body rows (or the table's columns). */
export type NestingFacts = {
  indentColumn: number
  staircase: Staircase | null
  carried: Uint8Array | null
  groupColumns: Uint8Array | null
  members: Int32Array
  sectionDepth: Int32Array
  flags: Map<NestingClaim['kind'], Uint8Array>
  totalOfSections: Int32Array
  /** Per body row, the section row a total names (-1: none), which it closes. */
  namedSection: Int32Array
  /** Evidence by body row, for the reasons. */
  byRow: Map<number, Evidence<NestingClaim>[]>
}

export function resolveNestingFacts(ctx: NestingContext, rules: readonly NestingRule[] = NESTING_RULES): NestingFacts {
  const n = ctx.roles.length
  const facts: NestingFacts = {
    indentColumn: ctx.indentColumn,
    staircase: ctx.staircase,
    carried: null,
    groupColumns: null,
    members: new Int32Array(n).fill(-1),
    sectionDepth: new Int32Array(n),
    flags: new Map(),
    totalOfSections: new Int32Array(n).fill(-1),
    namedSection: new Int32Array(n).fill(-1),
    byRow: new Map()
  }
  for (const e of collect(rules, ctx)) {
    const c = e.claim
    if (c.row >= 0) facts.byRow.set(c.row, [...(facts.byRow.get(c.row) ?? []), e])
    switch (c.kind) {
      case 'indent-column':
        facts.indentColumn = c.col
        break
      case 'staircase':
        facts.staircase = { from: c.from, to: c.to }
        facts.indentColumn = c.from
        break
      case 'carried-columns':
        facts.carried = c.cols
        break
      case 'group-columns':
        facts.groupColumns = c.cols
        break
      case 'section-depth':
        facts.sectionDepth[c.row] = c.depth
        break
      case 'members':
        facts.members[c.row] = c.from
        break
      case 'total-of-sections':
        facts.totalOfSections[c.row] = c.from
        break
      case 'names-section':
        facts.namedSection[c.row] = c.from
        break
      case 'stated':
        // Resolved on its own (STATED_RULES) before the sweep: not a fact of this stage's other rules.
        break
      default: {
        let flags = facts.flags.get(c.kind)
        if (flags === undefined) facts.flags.set(c.kind, (flags = new Uint8Array(n)))
        flags[c.row] = 1
      }
    }
  }
  return facts
}
