/**
 * Stages `label-columns` and `label-columns-extent`: how many leading columns name the rows. The first says
 * how many columns the layout gives the labels (the corner above them, a first column of text beside
 * measures); the second extends them with columns that describe groups of rows or hold the inner labels.
 */
import { rawText, type Grid } from '../grid'
import {
  classificationCodes,
  continuesLabels,
  cornerColumn,
  flagColumn,
  hasSectionOrUnitRows,
  labelColumnLikely,
  mostlyNumeric,
  otherColumnsNumeric,
  withCodeColumns,
  withGroupColumns,
  withTextColumns,
  yearColumn
} from '../header-cols'
import { labelsAfterIndex } from './labels-after-index'
import { staircaseLabels } from './staircase'
import { applies, decide, ranked, type Evidence, type Rule, type Unranked } from './types'

export type LabelColumnsContext = { g: Grid; headerRows: number }

/**
 * `count` columns name the rows: the first ones, or from column `from` on, when the columns before it index the
 * rows and stay columns of the table (rules/labels-after-index.ts).
 */
export type LabelColumnsClaim = { count: number; from?: number }

type LabelColumnsRule = Rule<LabelColumnsContext, LabelColumnsClaim>

const tooSmall: Unranked<LabelColumnsRule> = {
  id: 'labels-need-data',
  description: 'A grid of one column, or without rows below the header, has no label column.',
  messages: { none: 'no data below the header, or one column only' },
  applies: (ctx) => ctx.g.cols <= 1 || ctx.g.rows <= ctx.headerRows,
  find: (_ctx, report) => report({ claim: { count: 0 }, message: 'none' })
}

const cornerColumns: Unranked<LabelColumnsRule> = {
  id: 'labels-under-corner',
  description:
    'Leading columns under the corner (header cells empty, one label reaching down through the header rows, or a name in the last header row under empty cells), not yes/no marks, not numbers unless they continue two text label columns or are the codes of a classification.',
  messages: { corner: '{columns} under the corner of the header' },
  applies: (ctx) => ctx.headerRows >= 1,
  find(ctx, report) {
    const { g, headerRows } = ctx
    let k = 0
    while (k < g.cols - 1 && cornerColumn(g, k, headerRows) && !flagColumn(g, k, headerRows)) k++
    // A numeric column under a corner-like header is data (a column named by a vertical merge), except that
    // column 0 of a report with several header rows labels the rows even when the labels are ordinals, and a
    // numeric column named in the corner after two or more text label columns continues them ("year | team | games"),
    // and so does a column of classification codes ("1 | 11 | 12 | 2").
    const floor = headerRows >= 2 ? 1 : 0
    while (
      k > floor &&
      mostlyNumeric(g, k - 1, headerRows) &&
      !continuesLabels(g, k - 1, headerRows) &&
      !classificationCodes(g, k - 1, headerRows)
    )
      k--
    if (k > 0)
      report({ claim: { count: k }, message: 'corner', data: { columns: k === 1 ? 'the first column' : `the first ${k} columns` } })
  }
}

const numericFirst: Unranked<LabelColumnsRule> = {
  id: 'labels-not-numbers',
  description: 'A first column of numbers is data.',
  messages: { numbers: 'the first column holds numbers' },
  find(ctx, report) {
    if (mostlyNumeric(ctx.g, 0, ctx.headerRows)) report({ claim: { count: 0 }, message: 'numbers' })
  }
}

const noHeader: Unranked<LabelColumnsRule> = {
  id: 'labels-without-header',
  description: 'Without a header row, a first column of text labels the rows.',
  messages: { text: 'no header row, and a first column of text', none: 'no header row, and the first column is not text' },
  applies: (ctx) => ctx.headerRows === 0,
  find(ctx, report) {
    const likely = labelColumnLikely(ctx.g)
    report({ claim: { count: likely ? 1 : 0 }, message: likely ? 'text' : 'none' })
  }
}

const sectionRows: Unranked<LabelColumnsRule> = {
  id: 'labels-over-sections',
  description: 'Rows with a label in the first column and nothing else (sections), or unit rows: the first column labels the rows.',
  messages: { sections: 'section or unit rows in the first column' },
  find(ctx, report) {
    if (hasSectionOrUnitRows(ctx.g, ctx.headerRows)) report({ claim: { count: 1 }, message: 'sections' })
  }
}

const reportHeader: Unranked<LabelColumnsRule> = {
  id: 'labels-of-a-report',
  description: 'Several header rows make a report rather than a list of records: its first column of text labels the rows.',
  messages: { report: 'several header rows over a first column of text' },
  applies: (ctx) => ctx.headerRows >= 2 && !ctx.g.records,
  find: (_ctx, report) => report({ claim: { count: 1 }, message: 'report' })
}

const recordsNamed: Unranked<LabelColumnsRule> = {
  id: 'records-first-column-is-data',
  description: 'In a table of records a first column with a header of its own ("name", "city") is data.',
  messages: { records: 'a table of records, and the first column has a name of its own' },
  applies: (ctx) => ctx.g.records && ctx.headerRows === 1 && rawText(ctx.g, 0, 0).length > 0,
  find: (_ctx, report) => report({ claim: { count: 0 }, message: 'records' })
}

const besideMeasures: Unranked<LabelColumnsRule> = {
  id: 'labels-beside-measures',
  description:
    'A text first column labels the rows when most other columns hold numbers (or are measures beside sentences about the rows), unless it is a column of years.',
  messages: { measures: 'a first column of text beside columns of numbers', data: 'a first column like the others' },
  find(ctx, report) {
    const { g, headerRows } = ctx
    const labels = otherColumnsNumeric(g, headerRows) && !yearColumn(g, headerRows)
    report({ claim: { count: labels ? 1 : 0 }, message: labels ? 'measures' : 'data' })
  }
}

export const LABEL_COLUMN_RULES: readonly LabelColumnsRule[] = ranked<LabelColumnsRule>([
  tooSmall,
  staircaseLabels,
  labelsAfterIndex,
  cornerColumns,
  numericFirst,
  noHeader,
  sectionRows,
  reportHeader,
  recordsNamed,
  besideMeasures
])

/** Stage label-columns-extent: given the label columns found so far, how many there are with the columns after them. */
export type LabelExtentRule = Omit<LabelColumnsRule, 'find'> & {
  extend: (ctx: LabelColumnsContext, count: number) => { count: number; message: string; data?: Record<string, number> } | null
}

const groupColumns: Unranked<LabelExtentRule> = {
  id: 'labels-group-columns',
  description:
    'Columns merged down the body in step with the first label column, or in groups inside its groups, describe groups of rows; a text column right after them names the rows inside.',
  messages: { groups: 'merged down the body in groups of rows' },
  extend(ctx, count) {
    const k = withGroupColumns(ctx.g, count, ctx.headerRows)
    return k > count ? { count: k, message: 'groups' } : null
  }
}

const textColumns: Unranked<LabelExtentRule> = {
  id: 'labels-inner-text-column',
  description:
    'A column of text right after the label columns, before columns of numbers, unnamed or under a label written once per group, holds the inner labels ("WHO | ADULT" then "| TOKENS").',
  messages: { text: 'a column of text labels after the label columns, before the numbers' },
  extend(ctx, count) {
    const k = withTextColumns(ctx.g, count, ctx.headerRows)
    return k > count ? { count: k, message: 'text' } : null
  }
}

const codeColumns: Unranked<LabelExtentRule> = {
  id: 'labels-code-columns',
  description:
    'Short text columns right after an indented label column, written beside each of its labels, before columns of numbers, hold the codes and kinds of the rows ("Management occupations | 11-0000 | Summary").',
  messages: { codes: 'codes or kinds written beside each indented label' },
  extend(ctx, count) {
    const k = withCodeColumns(ctx.g, count, ctx.headerRows)
    return k > count ? { count: k, message: 'codes' } : null
  }
}

export const LABEL_EXTENT_RULES: readonly LabelExtentRule[] = ranked<LabelExtentRule>([groupColumns, textColumns, codeColumns])

export type LabelColumnsAnswer = {
  count: number
  /** The first label column (0 but behind index columns). */
  from: number
  evidence: Evidence<LabelColumnsClaim> | undefined
  /** Why each column after the first `evidence.claim.count` was added. */
  extensions: Evidence<LabelColumnsClaim>[]
}

/**
 * The strongest claim of stage label-columns gives the label columns; when there are any, each extension rule,
 * the stronger first, extends the columns found so far.
 */
export function resolveLabelColumns(
  g: Grid,
  headerRows: number,
  rules: readonly LabelColumnsRule[] = LABEL_COLUMN_RULES,
  extensions: readonly LabelExtentRule[] = LABEL_EXTENT_RULES
): LabelColumnsAnswer {
  const ctx: LabelColumnsContext = { g, headerRows }
  const evidence = decide(rules, ctx)
  let count = evidence?.claim.count ?? 0
  const from = evidence?.claim.from ?? 0
  const added: Evidence<LabelColumnsClaim>[] = []
  // Behind index columns the label column is found by what it holds: the columns after it hold codes and values.
  if (count === 0 || from > 0) return { count, from, evidence, extensions: added }
  for (const rule of [...extensions].sort((a, b) => b.strength - a.strength || (a.id < b.id ? -1 : 1))) {
    if (!applies(rule, ctx)) continue
    const found = rule.extend(ctx, count)
    if (found === null) continue
    count = found.count
    added.push({ rule: rule.id, claim: { count }, strength: rule.strength, message: found.message, data: found.data })
  }
  return { count, from, evidence, extensions: added }
}
