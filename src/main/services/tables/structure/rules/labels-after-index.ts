/**
 * The label column behind index columns. Statistical downloads (UN, World Bank, OECD, national offices) put
 * columns that index the rows before the one that names them: a running number, a variant repeated on every
 * row ("Estimates"), codes and kinds. The labels are the text column with the most distinct values and the most
 * indentation, or the one whose header names it ("Region, subregion, country or area"); the columns before it
 * stay ordinary columns of the table, where programs can read them.
 */
import { rawText, type Grid } from '../grid'
import { codeLike, COLUMN_SAMPLE, indexesRows, readColumn, type ColumnReading } from '../index-columns'
import { cellKind, isYearLike } from '../number'
import { opening } from '../knowledge/cues'
import type { LabelColumnsClaim, LabelColumnsContext } from './label-columns'
import type { Rule, Unranked } from './types'

// Columns read for index columns and the label column: index columns come first, a few at most.
const MAX_COLUMNS = 12
// Labels differ from row to row; a column repeating a few texts is a kind, not the labels.
const MIN_DISTINCT_SHARE = 0.5

// "Region", "Country", "Item", "Pays", "Bezeichnung", "Concepto" (knowledge/*.json).
const LABEL_HEADER = opening(['labelHeaders'])

/** The label column found behind index columns, and why. */
export type LabelsBehindIndex = { col: number; named: boolean; indented: boolean; index: number }

/**
 * The label column after leading index columns (row numbers, a constant, codes, kinds; at least one written),
 * before columns of values, or null. Among the text columns before the values, the one whose header names the
 * labels, else the one indented to the most depths, else the one with the most distinct values.
 */
export function labelsBehindIndex(g: Grid, headerRows: number): LabelsBehindIndex | null {
  // Most tables start with their labels: two different texts that are no codes settle it at once.
  if (labelsFirst(g, headerRows)) return null
  const limit = Math.min(g.cols, MAX_COLUMNS)
  const read: ColumnReading[] = []
  let first = -1
  for (let c = 0; c < limit; c++) {
    const column = readColumn(g, c, headerRows)
    read.push(column)
    if (!indexesRows(column.kind)) {
      first = c
      break
    }
  }
  if (first <= 0 || read[first]?.kind !== 'text') return null
  // At least one index column is written: blank columns before the labels are the layout's margin, not this.
  const index = read.slice(0, first).filter((c) => c.kind !== 'empty').length
  if (index === 0) return null
  // Row numbers or codes before a text column are also a list's ("Rank | Name | …", "No. | Player | …"): the
  // labels are told from them by their indentation, or by a variant written on every row, which no list has.
  const download = read.slice(0, first).some((c) => c.kind === 'constant')
  // The text columns up to the first column of values, and the values after them.
  let best = -1
  let bestScore: [number, number, number] = [0, 0, 0]
  let values = 0
  let texts = 0
  for (let c = first; c < g.cols; c++) {
    const column = c < read.length ? (read[c] as ColumnReading) : readColumn(g, c, headerRows)
    // Whole numbers different on every row, after the labels, are as likely counts as codes.
    if (column.kind === 'values' || (column.kind === 'code' && column.numeric)) {
      values++
      // No text column counts after the first values: once the values are as many, nothing further changes.
      if (c >= limit || values >= texts) break
      continue
    }
    if (values > 0 || column.kind !== 'text') continue
    texts++
    if (column.distinct < MIN_DISTINCT_SHARE * column.filled) continue
    const score: [number, number, number] = [namesLabels(g, c, headerRows) ? 1 : 0, column.indents, column.distinct]
    if (best < 0 || greater(score, bestScore)) {
      best = c
      bestScore = score
    }
  }
  if (best < 0 || values === 0 || values < texts) return null
  const indented = bestScore[1] > 1
  if (!indented && !download) return null
  return { col: best, named: bestScore[0] === 1, indented, index }
}

// Rows read for the first two labels of the first column.
const FIRST_ROWS = 20

/**
 * The first written cells of column 0 cannot index the rows: two different texts that read as no code (labels),
 * or a year or a number that is not a whole number written plainly (a period, a measure).
 */
function labelsFirst(g: Grid, headerRows: number): boolean {
  let seen: string | null = null
  for (let r = headerRows; r < Math.min(g.rows, headerRows + FIRST_ROWS); r++) {
    const t = rawText(g, r, 0)
    if (t.length === 0) continue
    const kind = cellKind(t)
    if (kind === 'number') return isYearLike(t) || !/^\d{1,7}$/.test(t)
    if (kind !== 'text' || codeLike(t)) return false
    if (seen !== null) return t !== seen
    seen = t
  }
  return false
}

/**
 * A cell of the body rows a column's kind is read from (index-columns.ts) starts with a space: a label indented by
 * spaces may be among them.
 */
function spacedLabels(g: Grid, headerRows: number): boolean {
  for (let r = headerRows; r < Math.min(g.rows, headerRows + COLUMN_SAMPLE); r++)
    for (let c = 0; c < g.cols; c++) {
      const lead = (g.cells[r]?.[c] ?? '').charCodeAt(0)
      if (lead === 32 || lead === 160) return true
    }
  return false
}

function greater(a: readonly number[], b: readonly number[]): boolean {
  for (let k = 0; k < a.length; k++) if ((a[k] ?? 0) !== (b[k] ?? 0)) return (a[k] ?? 0) > (b[k] ?? 0)
  return false
}

/** The column's lowest header cell names row labels ("Region, subregion, country or area *"). */
function namesLabels(g: Grid, col: number, headerRows: number): boolean {
  for (let r = headerRows - 1; r >= 0; r--) {
    const t = rawText(g, r, col)
    if (t.length > 0) return LABEL_HEADER.test(t)
  }
  return false
}

export const labelsAfterIndex: Unranked<Rule<LabelColumnsContext, LabelColumnsClaim>> = {
  id: 'labels-after-index-columns',
  description:
    'Behind leading columns that index the rows (row numbers, one word repeated on every row, codes, kinds), the text column before the values whose header names the labels, or with the most indentation, or the most distinct values, names the rows; the index columns stay columns of the table. Under one header row, or when the labels are indented (several header rows over an unindented column keep it under their corner).',
  messages: {
    behind: 'column {col} names the rows ({why}); the {index} before it index them and stay columns of the table'
  },
  applies: (ctx) => !ctx.g.records && ctx.headerRows >= 1 && ctx.g.cols >= 3,
  find(ctx, report) {
    // Under several header rows the labels must be indented: a grid without indenting styles or a label that
    // starts with a space has none, and is not read further.
    if (ctx.headerRows > 1 && !ctx.g.stylesIndent && !spacedLabels(ctx.g, ctx.headerRows)) return
    const found = labelsBehindIndex(ctx.g, ctx.headerRows)
    if (found === null || (ctx.headerRows > 1 && !found.indented)) return
    const why = found.named ? 'its header names them' : found.indented ? 'its labels are indented' : 'the most distinct texts'
    report({
      claim: { count: 1, from: found.col },
      message: 'behind',
      data: { col: found.col + 1, why, index: found.col === 1 ? 'column' : `${found.col} columns` }
    })
  }
}
