/** Totals that close the rows above them, and the sums the nesting rules ask about, over a table's row numbers. */
import { MAX_BLOCK, Parts, SIGNIFICANT, type RowNumbers } from './row-numbers'
import type { RowRole } from './rows'

/**
 * Totals written after their parts ("SUB-TOTAL" under the adult fares, "SYSTEM TOTAL" under the sub-totals
 * and the fares after them): a data row with a total's label (`isTotal`) whose values are the sum of the data
 * rows right above it. A total found this way counts as one member, for its parts and the section row that
 * heads them, when a later total is added up. Returns, per body row, the first body row of its members (a
 * part, or the section row heading a group of parts that a total closes), or -1.
 */
export function closingTotals(numbers: RowNumbers, roles: RowRole[], isTotal: (i: number) => boolean): Int32Array {
  const n = roles.length
  const from = new Int32Array(n).fill(-1)
  if (numbers.width < 1) return from
  // The row where the group of a total's parts begins: its section row when one heads the parts.
  const groupFrom = new Int32Array(n).fill(-1)
  const parts = new Parts(numbers)
  for (let i = 0; i < n; i++) {
    if (roles[i] !== 'data' || !isTotal(i)) continue
    parts.clear()
    let k = i - 1
    while (k >= 0 && i - k <= MAX_BLOCK) {
      const role = roles[k]
      if (role === 'empty') {
        k--
        continue
      }
      if (role !== 'data') break
      parts.add(k)
      let first = k
      if ((groupFrom[k] ?? -1) >= 0) first = groupFrom[k] ?? k
      if (parts.addUpTo(i)) {
        from[i] = first
        // The section row right above the parts heads the group this total closes.
        let head = first - 1
        while (head >= 0 && roles[head] === 'empty') head--
        groupFrom[i] = head >= 0 && roles[head] === 'section' ? head : first
        break
      }
      k = first - 1
    }
  }
  return from
}

/** The data rows of body rows from..to (inclusive), two or more, add up to body row `row`, as a total under them does. */
export function rowsAddUpTo(numbers: RowNumbers, roles: RowRole[], from: number, to: number, row: number): boolean {
  if (numbers.width < 1) return false
  const parts = new Parts(numbers)
  for (let k = from; k <= to; k++) if (roles[k] === 'data') parts.add(k)
  return parts.members >= 2 && parts.addUpTo(row)
}

/**
 * Where the rows of several sections begin that add up to body row `row`: `sections` are the section rows
 * before it, in order, the last one's rows running up to `row`. Going back one section at a time, from the
 * last but one, the first section whose rows and those of the sections after it add up; -1 if none. One pass
 * back over the rows, as far as a block reaches.
 */
export function sectionsAddingUpTo(numbers: RowNumbers, roles: RowRole[], sections: readonly number[], row: number): number {
  if (numbers.width < 1 || sections.length < 2) return -1
  const parts = new Parts(numbers)
  let k = sections.length - 1
  for (let r = row - 1; r >= 0 && k >= 0 && row - r <= MAX_BLOCK; r--) {
    if (r === sections[k]) {
      if (k < sections.length - 1 && parts.members >= 2 && parts.addUpTo(row)) return r
      k--
    } else if (roles[r] === 'data') parts.add(r)
  }
  return -1
}

// A result line of a statement is worked out from the few lines right above it.
const RESULT_WINDOW = 6
// Columns that must agree: one column of figures agrees with some combination of the rows above by chance.
const RESULT_COLUMNS = 2

/**
 * Body row `row` is the result of the data rows right above it, as a statement's subtotals are ("gross profit"
 * after "net sales | cost of sales", "income before income taxes" after "operating income | interest expense |
 * other income"): in every column with a number, two at least, it equals their sum, or the first of them less
 * the others, to the rounding unit. The same form must hold in every column.
 */
export function resultOfRowsAbove(numbers: RowNumbers, roles: RowRole[], row: number): boolean {
  const width = numbers.width
  if (width < RESULT_COLUMNS || roles[row] !== 'data') return false
  const { values, units } = numbers
  const at = numbers.read(row)
  const sums = new Float64Array(width)
  for (let k = 1; k <= RESULT_WINDOW && row - k >= 0 && roles[row - k] === 'data'; k++) {
    const above = numbers.read(row - k)
    for (let j = 0; j < width; j++) sums[j] = (sums[j] ?? 0) + (values[above + j] ?? NaN)
    if (k < 2) continue
    // sums[j] holds the rows row-k … row-1; the first of them less the rest is 2·first − sums.
    let sum = true
    let difference = true
    let columns = 0
    let significant = false
    for (let j = 0; j < width && (sum || difference); j++) {
      const v = values[at + j] ?? NaN
      if (Number.isNaN(v)) continue
      const s = sums[j] ?? NaN
      const first = values[above + j] ?? NaN
      if (Number.isNaN(s)) {
        sum = difference = false
        break
      }
      const tolerance = 0.5 * (units[at + j] ?? 1) * (k + 1)
      if (Math.abs(v - s) > tolerance) sum = false
      if (Math.abs(v - (2 * first - s)) > tolerance) difference = false
      columns++
      if (Math.abs(v) >= SIGNIFICANT * (units[at + j] ?? 1)) significant = true
    }
    if ((sum || difference) && columns >= RESULT_COLUMNS && significant) return true
  }
  return false
}
