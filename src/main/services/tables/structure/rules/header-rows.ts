/**
 * Stage `header-rows`: how many rows at the top of the table name its columns. Each rule reads one row and
 * says whether it goes on with the header or starts the body; the header is the rows before the first row
 * whose strongest claim is the body's.
 */
import { countRow, isUnitRow, type RowCounts } from '../rows'
import type { Grid } from '../grid'
import { rowDecider, ranked, type Evidence, type RowRule, type Unranked } from './types'
import {
  ascendingWholeNumbers,
  columnNumbers,
  cornerReaches,
  coveredFromAbove,
  coveredThroughout,
  labelCellsFree,
  lineNumbersFrom,
  MAX_HEADER_ROWS,
  namesEveryColumn,
  numbersInNextRecord,
  plainHeaderRow,
  spreadOut,
  stubHeadAndUnit,
  unmarkedRow
} from './header-cues'

export type HeaderRowsContext = {
  g: Grid
  /** Leading columns that probably label the rows, left out when reading a row's cells (0 or 1). */
  probeCols: number
  /** Rows looked at: the header is never longer. */
  limit: number
  /** Each row's cell counts from `probeCols` on, read once for all the rules (see `counts`). */
  counted: Map<number, RowCounts>
}

/** The cell counts of a row from the probe columns on, as countRow gives them, read once per row. */
function countsOf(ctx: HeaderRowsContext, row: number): RowCounts {
  let found = ctx.counted.get(row)
  if (found === undefined) ctx.counted.set(row, (found = countRow(ctx.g, row, ctx.probeCols)))
  return found
}

/**
 * Row `row` goes on with the header (`header`) or starts the body; `like`: it is whatever the row `like` is
 * (an empty row inside the header). A claim with `stop` ends the header at this row, and is not read when
 * another row asks what this one is.
 */
export type HeaderRowClaim = { row: number; header: boolean; like?: number; stop?: boolean }

type HeaderRowRule = RowRule<HeaderRowsContext, HeaderRowClaim>

const lineNumbers: Unranked<HeaderRowRule> = {
  id: 'header-ends-at-line-numbers',
  description: 'The first column numbers the rows 1, 2, 3 from this row down: the body starts here.',
  messages: { numbers: 'the first column numbers the rows from here down' },
  check(ctx, row, report) {
    if (lineNumbersFrom(ctx.g, row)) report({ claim: { row, header: false, stop: true }, message: 'numbers' })
  }
}

const unmarked: Unranked<HeaderRowRule> = {
  id: 'header-ends-at-unmarked-row',
  description: 'A source that marks its header cells (HTML <th>): the header ends at the first row without a mark.',
  messages: { unmarked: 'the source marks its header cells and none of this row' },
  applies: (ctx) => ctx.g.marksHeaders,
  check(ctx, row, report) {
    if (unmarkedRow(ctx.g, row)) report({ claim: { row, header: false, stop: true }, message: 'unmarked' })
  }
}

const columnNumberRow: Unranked<HeaderRowRule> = {
  id: 'header-column-numbers',
  description: 'A row of column numbers ("1 | 2 | 3 | 1 | 2 | 3") while the corner merge reaches it.',
  messages: { numbers: 'numbers the columns, under the corner merged down to it' },
  check(ctx, row, report) {
    if (cornerReaches(ctx.g, row) && columnNumbers(ctx.g, row, ctx.probeCols)) report({ claim: { row, header: true }, message: 'numbers' })
  }
}

const unitOverData: Unranked<HeaderRowRule> = {
  id: 'body-starts-at-unit-row',
  description: 'A unit-like row over the data ("percent") with no plain header row below it belongs to the body.',
  messages: { unit: 'a unit over the data with no header row below it' },
  applies: (ctx) => ctx.probeCols > 0,
  check(ctx, row, report) {
    const { g, probeCols } = ctx
    if (isUnitRow(g, row, probeCols) && !(row + 1 < g.rows - 1 && plainHeaderRow(g, row + 1, probeCols)))
      report({ claim: { row, header: false }, message: 'unit' })
  }
}

const emptyRow: Unranked<HeaderRowRule> = {
  id: 'header-empty-row',
  description:
    'A row with nothing of its own is still the header inside merges reaching down from it, or when the header goes on below it.',
  messages: {
    covered: 'covered throughout by merges from the header above',
    below: 'an empty row inside the header: {why}',
    empty: 'an empty row after the header'
  },
  check(ctx, row, report) {
    const { g, probeCols } = ctx
    if (countsOf(ctx, row).filled > 0) return
    if (coveredThroughout(g, row)) return report({ claim: { row, header: true }, message: 'covered' })
    let next = row + 1
    while (next < ctx.limit && countsOf(ctx, next).filled === 0) next++
    if (next >= ctx.limit || countsOf(ctx, next).filled === 0) return report({ claim: { row, header: false }, message: 'empty' })
    // Inside a merge from above, the header goes on if the next row is a header row; else only a plain one.
    if (coveredFromAbove(g, row, probeCols))
      return report({ claim: { row, header: true, like: next }, message: 'below', data: { why: 'merges reach into it' } })
    const plain = plainHeaderRow(g, next, probeCols)
    report({ claim: { row, header: plain }, message: plain ? 'below' : 'empty', data: { why: 'a plain header row follows' } })
  }
}

const stubHead: Unranked<HeaderRowRule> = {
  id: 'header-stub-and-unit',
  description: 'A lone label under an empty corner beside one unit merged over the data ("number of victimizations | percent").',
  messages: { stub: 'names the label column beside one unit over the data' },
  check(ctx, row, report) {
    if (countsOf(ctx, row).filled > 0 && stubHeadAndUnit(ctx.g, row)) report({ claim: { row, header: true }, message: 'stub' })
  }
}

/** Below a spanning parent, or inside a merge anchored above: the row holds the parents' child labels. */
function structural(ctx: HeaderRowsContext, row: number): boolean {
  const { g, probeCols } = ctx
  if (row >= g.rows - 1) return false
  return coveredFromAbove(g, row, probeCols) || countsOf(ctx, row - 1).spans > 0 || spreadOut(g, row - 1, probeCols)
}

const recordsUnderParent: Unranked<HeaderRowRule> = {
  id: 'records-texts-are-records',
  description:
    'In a file of records (CSV), a row of texts under a parent is a row of child labels only over numbers: over texts it is the first record.',
  messages: { record: 'a file of records, and no numbers below this row of texts' },
  applies: (ctx) => ctx.g.records,
  check(ctx, row, report) {
    const { g, probeCols } = ctx
    const counts = countsOf(ctx, row)
    if (counts.filled > 0 && structural(ctx, row) && counts.numbers === 0 && !numbersInNextRecord(g, row, probeCols))
      report({ claim: { row, header: false }, message: 'record' })
  }
}

const childLabels: Unranked<HeaderRowRule> = {
  id: 'header-child-labels',
  description:
    'Under a spanning parent or inside a merge from above: child labels (no row label, or no numbers, or small numbers rising beside texts).',
  messages: { children: 'child labels under the parents above', values: 'values under the header, not child labels' },
  check(ctx, row, report) {
    const { g, probeCols } = ctx
    const counts = countsOf(ctx, row)
    if (counts.filled === 0 || !structural(ctx, row)) return
    const header =
      labelCellsFree(g, row, probeCols) ||
      (counts.numbers === 0 && counts.missing === 0) ||
      (counts.texts >= 2 && ascendingWholeNumbers(g, row, probeCols))
    report({ claim: { row, header }, message: header ? 'children' : 'values' })
  }
}

const everyColumnNamed: Unranked<HeaderRowRule> = {
  id: 'header-names-every-column',
  description: 'A row naming every column, label columns included, all text, above a row of numbers ("Line | Description | C1").',
  messages: { names: 'names every column, above a row of numbers' },
  check(ctx, row, report) {
    const { g, probeCols } = ctx
    if (countsOf(ctx, row).filled > 0 && !labelCellsFree(g, row, probeCols) && namesEveryColumn(g, row))
      report({ claim: { row, header: true }, message: 'names' })
  }
}

const labelledOrValues: Unranked<HeaderRowRule> = {
  id: 'body-starts-at-label-or-values',
  description: 'A row with a row label, or with numbers or missing-value marks, starts the body.',
  messages: { label: 'a row label of its own', values: 'numbers or missing-value marks' },
  check(ctx, row, report) {
    const { g, probeCols } = ctx
    const counts = countsOf(ctx, row)
    if (counts.filled === 0) return
    if (!labelCellsFree(g, row, probeCols)) report({ claim: { row, header: false }, message: 'label' })
    else if (counts.numbers > 0 || counts.missing > 0) report({ claim: { row, header: false }, message: 'values' })
  }
}

const recordsOneRow: Unranked<HeaderRowRule> = {
  id: 'records-one-header-row',
  description: 'A file of records names its columns in one row: a second row of texts without a parent above it is a record.',
  messages: { record: 'a file of records names its columns in one row' },
  applies: (ctx) => ctx.g.records,
  check(ctx, row, report) {
    if (countsOf(ctx, row).filled > 0) report({ claim: { row, header: false }, message: 'record' })
  }
}

const textsOnly: Unranked<HeaderRowRule> = {
  id: 'header-texts-only',
  description: 'A row of texts (or years) without a row label or numbers goes on with the header.',
  messages: { texts: 'texts only, no row label, no numbers', nothing: 'no texts' },
  check(ctx, row, report) {
    const counts = countsOf(ctx, row)
    if (counts.filled === 0) return
    const header = counts.texts + counts.years > 0
    report({ claim: { row, header }, message: header ? 'texts' : 'nothing' })
  }
}

export const HEADER_ROW_RULES: readonly HeaderRowRule[] = ranked<HeaderRowRule>([
  lineNumbers,
  unmarked,
  columnNumberRow,
  unitOverData,
  emptyRow,
  stubHead,
  recordsUnderParent,
  childLabels,
  everyColumnNamed,
  labelledOrValues,
  recordsOneRow,
  textsOnly
])

/** The number of header rows and the evidence for each header row and for the first body row. */
export type HeaderRowsAnswer = { rows: number; evidence: Map<number, Evidence<HeaderRowClaim>> }

/**
 * Row 0 names the columns unless it holds plain numbers (then there is no header row); from row 1 on, the
 * header goes on while each row's strongest claim is the header's, up to twelve rows.
 */
export function resolveHeaderRows(g: Grid, probeCols: number, rules: readonly HeaderRowRule[] = HEADER_ROW_RULES): HeaderRowsAnswer {
  const evidence = new Map<number, Evidence<HeaderRowClaim>>()
  if (g.rows === 1) return { rows: 1, evidence }
  const first = countRow(g, 0, probeCols)
  if (first.numbers > 0 && first.numbers + first.missing >= first.filled * 0.6 && first.texts === 0) return { rows: 0, evidence }
  const ctx: HeaderRowsContext = { g, probeCols, limit: Math.min(g.rows - 1, MAX_HEADER_ROWS), counted: new Map() }
  // Each row's strongest claim, and its strongest that does not end the header, asked once.
  const decided = new Map<number, Evidence<HeaderRowClaim> | undefined>()
  const goingOn = new Map<number, Evidence<HeaderRowClaim> | undefined>()
  const decide = rowDecider(rules, ctx)
  const goesOn = (c: HeaderRowClaim): boolean => c.stop !== true
  const decision = (row: number, asked: boolean): Evidence<HeaderRowClaim> | undefined => {
    const cache = asked ? goingOn : decided
    if (!cache.has(row)) cache.set(row, decide(row, asked ? goesOn : undefined))
    return cache.get(row)
  }
  // What a row is when another row asks (claims that end the header are not read then).
  const isHeader = (row: number): boolean => {
    const best = decision(row, true)
    if (best === undefined) return false
    return best.claim.like !== undefined ? isHeader(best.claim.like) : best.claim.header
  }
  let h = 1
  for (; h < ctx.limit; h++) {
    const best = decision(h, false)
    if (best !== undefined) evidence.set(h, best)
    if (best === undefined || best.claim.stop === true || !(best.claim.like !== undefined ? isHeader(best.claim.like) : best.claim.header))
      break
  }
  return { rows: h, evidence }
}
