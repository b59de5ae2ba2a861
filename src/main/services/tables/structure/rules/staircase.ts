/**
 * An outline written by column position instead of by indentation (a "staircase"): each body row holds its
 * one label in the column of its depth, in a run of adjacent columns, often behind line numbers. The run is
 * the table's label columns (with the columns before it), and a row heads the rows after it that sit further
 * right, up to the next row at its own column or left of it.
 */
import { rawText, regionAt, type Grid } from '../grid'
import { mostlyNumeric } from '../header-cols'
import { cellKind } from '../number'
import type { LabelColumnsClaim, LabelColumnsContext } from './label-columns'
import type { NestingClaim, NestingContext } from './nesting'
import type { Rule, Unranked } from './types'

/** The columns `from`..`to` (0-based, inclusive) hold one label per row, at the column of its depth. */
export type Staircase = { from: number; to: number }

// Fewer rows or depths than these do not tell an outline from a table with a few blank cells.
const MIN_ROWS = 8
const MIN_DEPTHS = 3
// Columns before the run that may hold line numbers or codes.
const MAX_LEADING = 2

/**
 * The staircase of the body below `headerRows`, or null. Rows are read from the top to the first row that
 * does not fit (the notes under the table); every row read must have exactly one text cell in the run, and
 * they must make up most of the body's filled rows.
 */
export function findStaircase(g: Grid, headerRows: number): Staircase | null {
  for (let from = 0; from <= MAX_LEADING && from < g.cols - MIN_DEPTHS; from++) {
    let leadingOk = true
    for (let c = 0; c < from && leadingOk; c++) leadingOk = mostlyNumeric(g, c, headerRows)
    if (!leadingOk) continue
    const found = stairsFrom(g, headerRows, from)
    if (found !== null) return found
  }
  return null
}

function stairsFrom(g: Grid, headerRows: number, from: number): Staircase | null {
  // The first filled cell of each row at or after `from`. The labels read below are some of them: fewer than
  // MIN_DEPTHS columns among them all make no staircase, whatever the labels are (most tables: one column).
  const firsts = new Int32Array(Math.max(0, g.rows - headerRows))
  const columns: number[] = []
  for (let r = headerRows; r < g.rows; r++) {
    const first = firstFilledFrom(g, r, from)
    firsts[r - headerRows] = first
    if (first >= 0 && columns.length < MIN_DEPTHS && !columns.includes(first)) columns.push(first)
  }
  if (columns.length < MIN_DEPTHS) return null
  // Each row's label column: the first filled cell at or after `from`, which must be text.
  const labelCols: number[] = []
  let filledRows = 0
  let reading = true
  for (let r = headerRows; r < g.rows; r++) {
    const first = firsts[r - headerRows] ?? -1
    if (first < 0 && !anyFilled(g, r, 0, from)) continue
    filledRows++
    if (!reading) {
      // The rows left can only add filled rows: once the labels read are too few, they stay too few.
      if (labelCols.length * 5 < filledRows * 4) return null
      continue
    }
    if (first < 0 || cellKind(rawText(g, r, first)) !== 'text') {
      reading = false
      if (labelCols.length < MIN_ROWS) return null
    } else labelCols.push(first)
  }
  if (labelCols.length < MIN_ROWS || labelCols.length * 5 < filledRows * 4) return null
  // A loop, not Math.max(...labelCols): a body of hundreds of thousands of rows overflows a spread's stack.
  let to = headerSpan(g, headerRows, from)
  for (const col of labelCols) if (col > to) to = col
  const depths = new Set(labelCols)
  if (depths.size < MIN_DEPTHS || !depths.has(from)) return null
  // One label per row: no row fills a second cell of the run, so the columns are not several labels side by side.
  let r = headerRows
  for (const col of labelCols) {
    while (firstFilledFrom(g, r, from) < 0 && r < g.rows) r++
    if (anyFilled(g, r, col + 1, to + 1)) return null
    r++
  }
  return { from, to }
}

// A header cell merged over the run ("Description" across B to K) names every column of it, the empty ones too.
function headerSpan(g: Grid, headerRows: number, from: number): number {
  let right = -1
  for (let r = 0; r < headerRows; r++) {
    const m = regionAt(g, r, from)
    if (m !== null && m.left === from) right = Math.max(right, m.right)
  }
  return right
}

function firstFilledFrom(g: Grid, r: number, from: number): number {
  for (let c = from; c < g.cols; c++) if (rawText(g, r, c).length > 0) return c
  return -1
}

function anyFilled(g: Grid, r: number, from: number, to: number): boolean {
  for (let c = from; c < to && c < g.cols; c++) if (rawText(g, r, c).length > 0) return true
  return false
}

/** A row's depth in the staircase: how many columns right of the run's first its label sits (0 without one). */
export function stairDepth(g: Grid, r: number, stairs: Staircase): number {
  for (let c = stairs.from; c <= stairs.to; c++) if (rawText(g, r, c).length > 0) return c - stairs.from
  return 0
}

export const staircaseLabels: Unranked<Rule<LabelColumnsContext, LabelColumnsClaim>> = {
  id: 'labels-staircase',
  description:
    'Body rows that each hold one text label in a run of adjacent columns, in at least three different columns (an outline written by column position), are labelled by that run and the line numbers before it.',
  messages: { stairs: 'one label per row in columns {from} to {to}, further right the deeper it sits' },
  find(ctx, report) {
    const stairs = findStaircase(ctx.g, ctx.headerRows)
    if (stairs !== null)
      report({ claim: { count: stairs.to + 1 }, message: 'stairs', data: { from: columnName(stairs.from), to: columnName(stairs.to) } })
  }
}

export const staircaseNesting: Unranked<Rule<NestingContext, NestingClaim>> = {
  id: 'nesting-staircase',
  description:
    'In label columns written as a staircase (one label per row, in the column of its depth), a row heads the rows after it that sit further right, up to the next row at its own column or left of it.',
  messages: { stairs: 'labels written in the column of their depth', deeper: 'written one column further right than it, or more' },
  applies: (ctx) => ctx.hierarchy && ctx.headerCols >= MIN_DEPTHS,
  find(ctx, report) {
    const stairs = findStaircase(ctx.g, ctx.headerRows)
    if (stairs !== null && stairs.to < ctx.headerCols) report({ claim: { kind: 'staircase', row: -1, ...stairs }, message: 'stairs' })
  }
}

function columnName(col: number): string {
  let name = ''
  for (let c = col + 1; c > 0; c = Math.floor((c - 1) / 26)) name = String.fromCharCode(65 + ((c - 1) % 26)) + name
  return name
}
