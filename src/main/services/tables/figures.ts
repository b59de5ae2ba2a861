/**
 * How much of a table's body is figures: 0 for a sheet of text that only accompanies the tables (a
 * contents, cover or notes sheet), near 1 for a table of measures; decided from the structured body
 * alone (no sheet names, no word lists). When a workbook opens, the UI shows the first of its tables
 * whose share is close to the best one's.
 */

import { parseNumber } from './structure'

/** Rows looked at; the start of a table says what it is. */
const SAMPLE_ROWS = 500

// Cells with neither a letter nor a digit are markers of a missing value ("..", "-", "—", "*").
const MEANINGFUL = /[\p{L}\p{N}]/u

/**
 * Numbers that count up row by row, as identifiers do in a table's first column: table numbers on a
 * contents sheet ("1.1", "1.2", … "1.10" reads as 1.1, hence "mostly"), row numbers, years.
 */
function countsUp(numbers: readonly number[]): boolean {
  if (numbers.length < 3) return false
  let up = 0
  for (let i = 1; i < numbers.length; i++) if ((numbers[i] ?? 0) > (numbers[i - 1] ?? 0)) up++
  return up >= (numbers.length - 1) * 0.8
}

/** One or two numbers repeated down a listing ("No. Obs." 282, a code): a label, not a measure. */
function repeated(numbers: readonly number[]): boolean {
  return numbers.length >= 3 && new Set(numbers).size <= Math.max(1, Math.floor(numbers.length / 10))
}

/**
 * The share of the body's filled cells that are figures: numbers in columns that are mostly numbers and
 * measures. A column repeating a few numbers does not count, nor the first column when its numbers count
 * up row by row (identifiers, not measures).
 */
export function figureShare(values: readonly (readonly string[])[]): number {
  const rows = values.slice(0, SAMPLE_ROWS)
  const width = rows.reduce((w, r) => Math.max(w, r.length), 0)
  let filled = 0
  let figures = 0
  for (let c = 0; c < width; c++) {
    let cells = 0
    const numbers: number[] = []
    for (const row of rows) {
      const text = (row[c] ?? '').trim()
      if (!MEANINGFUL.test(text)) continue
      cells++
      const n = parseNumber(text)
      if (n !== null) numbers.push(n)
    }
    filled += cells
    if (cells > 0 && numbers.length * 2 >= cells && !repeated(numbers) && !(c === 0 && countsUp(numbers))) figures += numbers.length
  }
  return filled === 0 ? 0 : Math.round((figures / filled) * 1000) / 1000
}
