/** Totals that close the rows above them, and the sums the nesting rules ask about, over a table's row numbers. */
import { MAX_BLOCK, Parts, type RowNumbers } from './row-numbers'
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
