/**
 * The mechanics of the sweep (rules/sweep.ts): open groups, how deep a row sits among label columns and
 * indentation, and the ways a row closes groups above it.
 */
import type { HeaderNode } from '../../../../../shared/table'
import { rawText, type Grid } from '../grid'
import { labelWords, negatedWords, sameWords, variantOf } from '../label-cues'
import type { RowRole } from '../rows'
import { stairDepth, type Staircase } from './staircase'

/** Why a group is open or a row was placed: the rule and its message. */
export type Why = { rule: string; message: string; data?: Record<string, string | number> }

/**
 * An open parent; `until` is the last row of an aggregate's block; `outer` are the nodes of its own row before
 * it; `words` are its label's words, once the cues have read them; `why` the rule that opened it.
 */
export type Open = {
  node: HeaderNode
  level: number
  until?: number
  whole?: boolean
  outer?: HeaderNode[]
  words?: string[]
  why: Why
}

// Far below the 0.25 steps between section, aggregate and data levels.
const COLUMN_STEP = 0.01

/**
 * Closes the open parent that `label` negates ("non-dangerous goods" after the parts of "dangerous goods"), or
 * the innermost one when `label` names another measure of it ("changes in employment rate" after the parts
 * of "changes in employment shares"), and everything opened inside it. Each row's label is read once and
 * compared with the open parents only when it negates something, so a deep stack costs nothing per row.
 */
export function closeAtSibling(stack: Open[], label: string): void {
  // Nothing to close without an open parent above the units: the label need not be read.
  const top = stack[stack.length - 1]
  if (top === undefined || top.level === -Infinity) return
  const words = labelWords(label)
  const negated = negatedWords(words)
  if (negated !== null) {
    for (let i = stack.length - 1; i >= 0; i--) {
      const open = stack[i]
      if (open === undefined || open.level === -Infinity) return
      if (sameWords(negated, wordsOf(open))) {
        closeUnlessNamed(stack, i)
        return
      }
    }
    return
  }
  if (variantOf(words, wordsOf(top))) closeUnlessNamed(stack, stack.length - 1)
}

/**
 * Closes the open parent at `i` and everything inside it, unless it is a section named after its variable
 * ("visible minority | visible minority | non-visible minority"), which holds both values.
 */
export function closeUnlessNamed(stack: Open[], i: number): void {
  const open = stack[i]
  if (open === undefined) return
  const named = open.node.children.some((c) => c.text.toLowerCase() === open.node.text.toLowerCase())
  if (!named) stack.length = i
}

export function wordsOf(open: Open): string[] {
  open.words ??= labelWords(open.node.text)
  return open.words
}

/** How much further out than the innermost header column a cell in column `col` is. */
export function columnStep(headerCols: number, col: number): number {
  return headerCols > 1 ? Math.max(0, headerCols - 1 - col) * COLUMN_STEP : 0
}

/** The first header column with a label of this row (merged labels from rows above do not count). */
export function firstLabelColumn(g: Grid, r: number, headerCols: number): number {
  for (let c = 0; c < headerCols; c++) if (rawText(g, r, c).length > 0) return c
  return headerCols - 1
}

/** Closes every open parent (not a unit) opened at row `from` or later. */
export function closeOpenedFrom(stack: Open[], from: number): void {
  for (
    let top = stack[stack.length - 1];
    top !== undefined && top.level !== -Infinity && (top.node.cell?.row ?? -1) >= from;
    top = stack[stack.length - 1]
  )
    stack.pop()
}

export function closeInnermostSection(stack: Open[]): void {
  const last = stack[stack.length - 1]
  if (last !== undefined && last.level !== -Infinity) stack.pop()
}

export function firstFilled(g: Grid, r: number, from: number): number {
  for (let c = from; c < g.cols; c++) if (rawText(g, r, c).length > 0) return c
  return from
}

/** The first column of row r that is a group label column and holds a label, or -1. */
export function firstGroupLabel(g: Grid, r: number, groupColumns: Uint8Array | null): number {
  if (groupColumns === null) return -1
  for (let c = 0; c < groupColumns.length; c++) if (groupColumns[c] === 1 && rawText(g, r, c).length > 0) return c
  return -1
}

/** The indentation of the next row with a label after row r, or -Infinity. */
export function nextIndent(
  g: Grid,
  r: number,
  headerCols: number,
  indentColumn: number,
  roles: RowRole[],
  headerRows: number,
  stairs: Staircase | null = null
): number {
  for (let k = r + 1; k < g.rows; k++) {
    const role = roles[k - headerRows]
    if (role === 'data' || role === 'section') return rowIndent(g, k, headerCols, indentColumn, stairs)
  }
  return -Infinity
}

/** The indentation of a row's label: in the indented column, or else in its first label; in a staircase, its column. */
export function rowIndent(g: Grid, r: number, headerCols: number, indentColumn: number, stairs: Staircase | null = null): number {
  if (stairs !== null) return stairDepth(g, r, stairs)
  if (rawText(g, r, indentColumn).length > 0) return g.indent(r, indentColumn)
  for (let c = 0; c < headerCols; c++) if (rawText(g, r, c).length > 0) return g.indent(r, c)
  return 0
}
