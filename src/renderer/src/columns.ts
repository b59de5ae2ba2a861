/** Reading numbers out of cell text, so numeric columns sort by value and align right. */

const NUMBER = /^[-+−]?[$€£¥]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?(?:e[-+]?\d+)?%?$/i

/** The number a cell shows ("1,234", "-3.5", "12%", "$40"), or null when it is not one. */
export function cellNumber(text: string): number | null {
  const t = text.trim()
  if (t === '' || !/\d/.test(t) || !NUMBER.test(t)) return null
  const n = Number(t.replace(/[,$€£¥%]/g, '').replace('−', '-'))
  return Number.isFinite(n) ? n : null
}

/**
 * Columns whose non-blank cells are all numbers in the sample (allowing one stray cell in fifty, for
 * footnote marks and dashes). Blank columns are not numeric.
 */
export function numericColumns(rows: readonly (readonly string[])[], columnCount: number, sample = 2000): boolean[] {
  const numbers = new Array<number>(columnCount).fill(0)
  const filled = new Array<number>(columnCount).fill(0)
  const limit = Math.min(rows.length, sample)
  for (let r = 0; r < limit; r++) {
    const row = rows[r] ?? []
    for (let c = 0; c < columnCount; c++) {
      const cell = row[c] ?? ''
      if (cell.trim() === '') continue
      filled[c] = (filled[c] ?? 0) + 1
      if (cellNumber(cell) !== null) numbers[c] = (numbers[c] ?? 0) + 1
    }
  }
  return filled.map((f, c) => f > 0 && (numbers[c] ?? 0) >= f * 0.98)
}

/** Sort order for a numeric column: numbers by value, then text, then blanks. */
export function compareNumericCells(a: string, b: string): number {
  const x = cellNumber(a)
  const y = cellNumber(b)
  if (x !== null && y !== null) return x - y
  if (x !== null) return -1
  if (y !== null) return 1
  const blankA = a.trim() === ''
  const blankB = b.trim() === ''
  if (blankA !== blankB) return blankA ? 1 : -1
  return a < b ? -1 : a > b ? 1 : 0
}
