import type { Grid } from './grid'
import type { RowNumbers } from './row-numbers'
import { MAX_BLOCK, MAX_BODY_ROWS, Parts, SIGNIFICANT } from './row-numbers'
import { isTotalLabel, rowLabel, type RowRole } from './rows'

// A total of this many rounding units that its parts miss by this share of it at most fits them nearly.
const LARGE = 1000
const NEAR = 0.001
// A single column of counts adds up by chance too often below this many units (21 = 15 + 2 + 4).
const COUNT = 100

/**
 * Rows that add up the rows right below them: "canada" over its provinces, "total, all industries" over the
 * industries. Such a row is the parent of that block when the source lost the indentation that showed it.
 *
 * Returns, per body row (index 0 = row headerRows), the last body row of its block, or -1. A block is a run
 * of data rows whose top-level members (a member that is itself an aggregate counts once, for its whole
 * block) sum to the parent in the numeric columns: at least one column with a non-zero parent must add up,
 * and columns that add up must outnumber those that do not. A column whose parent value lies among its parts'
 * values (a median, a rate, a percent change: what a whole of averages looks like) counts as neither. A block
 * has two members or more and stops at the first row that is not a data row. A second run of members that
 * adds up to the same parent right after its block, and ends the rows, is a second breakdown of it and joins
 * the block. A period is not the sum of the periods after it: rows of a time series (`periods`, the shape of
 * each row's label when it names one, see periodShape) are never parts of each other.
 */
export function aggregateBlocks(
  g: Grid,
  headerRows: number,
  headerCols: number,
  roles: RowRole[],
  numbers: RowNumbers,
  periods: readonly (string | null)[],
  known?: Int32Array
): Int32Array {
  const n = roles.length
  const ends = new Int32Array(n).fill(-1)
  // Blocks known from elsewhere (the wording of labels) are taken as they are, and count as one member.
  const fixed = (i: number): boolean => known !== undefined && (known[i] ?? -1) >= 0
  if (known !== undefined) for (let i = 0; i < n; i++) if (fixed(i)) ends[i] = known[i] ?? -1
  const width = numbers.width
  if (n < 3 || headerCols < 1 || width < 1) return ends
  for (let i = 0; i < n; i++) if (roles[i] === 'data') numbers.read(i)
  const { values, units } = numbers
  // A member without a number in a column takes that column out of the block's sums.
  const parts = new Parts(numbers, true)
  const { sums, negative, lows, highs } = parts
  // Pairs that add up but are followed by a plain row: taken below only next to another block.
  const pairs = new Int32Array(n).fill(-1)
  // Pair heads a scan went over as single members (see below).
  const used: number[] = []
  // The block of parent row i, found by adding up the rows below it, up to row `last` at most. With
  // `nestPairs`, a pair that adds up but was left pending (a plain row follows it) counts as one member; if the
  // block then adds up, the pair is confirmed as a block of its own ("federal government" over "intramural |
  // ffrdcs" inside "r&d").
  const scan = (i: number, nestPairs: boolean, last = n - 1): boolean => {
    parts.clear()
    used.length = 0
    let pendingMembers = false
    // A block that adds up only to a rounding error of the large totals (see addsUp) is kept in reserve: a
    // longer block that adds up to the unit wins over it, and so does a longer near fit that runs to the end
    // of the rows (parts that add nearly nothing, "yukon | 30", leave the fit near).
    let near = -1
    let k = i + 1
    while (k <= last && k - i <= MAX_BLOCK && roles[k] === 'data') {
      parts.add(k)
      const members = parts.members
      const pair = pairs[k] ?? -1
      if (pair >= 0 && (ends[k] ?? -1) < 0) {
        pendingMembers = true
        if (nestPairs) used.push(k)
      }
      k = Math.max(k, ends[k] ?? -1, nestPairs ? pair : -1) + 1
      if (beyondReach(values, units, sums, negative, i, width, members)) break
      const fit = members < 2 ? 'none' : addsUp(values, units, sums, lows, highs, i, width, members)
      if (fit === 'none') continue
      if (fit === 'single') {
        // Four parts or more that run to the end of the rows: a coincidence that long is unlikely.
        if (members >= 4 && runEnds(roles, k)) near = k - 1
        continue
      }
      if (fit === 'near') {
        if (members >= 3 && (near < 0 || runEnds(roles, k))) near = k - 1
        continue
      }
      if (members >= 3 || closed(g, headerRows, headerCols, roles, ends, k)) {
        ends[i] = suppressedTail(values, units, sums, width, roles, i, k - 1, members)
        pairs[i] = -1
        break
      }
      if (!nestPairs) pairs[i] = k - 1
    }
    if ((ends[i] ?? -1) < 0 && near >= 0) {
      ends[i] = near
      pairs[i] = -1
    }
    if ((ends[i] ?? -1) >= 0 && nestPairs) {
      for (const head of used) if ((pairs[head] ?? -1) <= (ends[i] ?? -1)) ends[head] = pairs[head] ?? -1
    }
    return pendingMembers
  }
  // A second breakdown of the same whole right after the first ("r&d" by performer, then by type of work):
  // members counted from the end of the block, blocks once; it must add up to the unit and end the rows.
  const secondBreakdown = (i: number, from: number): number => {
    parts.clear()
    let found = -1
    let k = from
    while (k < n && k - i <= MAX_BLOCK && roles[k] === 'data') {
      parts.add(k)
      const members = parts.members
      k = Math.max(k, ends[k] ?? -1) + 1
      if (beyondReach(values, units, sums, negative, i, width, members)) break
      if (members >= 2 && runEnds(roles, k) && addsUp(values, units, sums, lows, highs, i, width, members) === 'exact') found = k - 1
    }
    return found
  }
  for (let i = n - 2; i >= 0; i--) {
    if (roles[i] !== 'data') continue
    if (roles[i + 1] === 'data' && (periods[i] ?? null) !== null && periods[i] === periods[i + 1]) continue
    if (fixed(i)) {
      // A block known from its labels is kept as it is, but a pair inside it is confirmed when the block adds
      // up with the pair nested.
      const end = ends[i] ?? -1
      ends[i] = -1
      scan(i, true, end)
      ends[i] = end
      pairs[i] = -1
      continue
    }
    const pending = scan(i, false)
    if (pending && (ends[i] ?? -1) < 0 && (pairs[i] ?? -1) < 0) scan(i, true)
  }
  for (let i = 0; i < n; i++) {
    const end = ends[i] ?? -1
    if (end < 0 || end + 1 >= n || roles[end + 1] !== 'data') continue
    const second = secondBreakdown(i, end + 1)
    if (second > end) ends[i] = second
  }
  acceptNeighbouringPairs(roles, ends, pairs)
  return ends
}

/** True when no data row follows at `next` (blank rows skipped): the body or a section ends there. */
function runEnds(roles: RowRole[], next: number): boolean {
  let k = next
  while (k < roles.length && roles[k] === 'empty') k++
  return k >= roles.length || roles[k] !== 'data'
}

/**
 * The end of a block that has added up at `end`, taking in the rows after it that run to the end of the data
 * rows with their values suppressed ("x", "..") or zero in every column that added up: "yukon | x | x" after
 * the provinces that make up "canada". Their values are unknown, so they cannot be told apart by the sum, and
 * a total is not printed above its parts only to leave the last of them out.
 */
function suppressedTail(
  values: Float64Array,
  units: Float64Array,
  sums: Float64Array,
  width: number,
  roles: RowRole[],
  row: number,
  end: number,
  members: number
): number {
  const fits: number[] = []
  for (let j = 0; j < width; j++) {
    const v = values[row * width + j] ?? NaN
    const unit = units[row * width + j] ?? 1
    if (Math.abs(v - (sums[j] ?? NaN)) <= 0.5 * unit * (members + 1) && Math.abs(v) >= SIGNIFICANT * unit) fits.push(j)
  }
  let k = end + 1
  while (k < roles.length && roles[k] === 'data') {
    let hidden = false
    for (const j of fits) {
      const v = values[k * width + j] ?? NaN
      if (Number.isNaN(v)) hidden = true
      else if (v !== 0) return end
    }
    if (!hidden) return end
    k++
  }
  return k > end + 1 && runEnds(roles, k) ? k - 1 : end
}

/**
 * A pair right after another block, or right before one, is a sibling group ("married: with children,
 * without children" then "lone parent: female, male"); a lone pair followed by a plain row is not.
 */
function acceptNeighbouringPairs(roles: RowRole[], ends: Int32Array, pairs: Int32Array): void {
  const n = roles.length
  const blockStart = (k: number): boolean => k < n && ((ends[k] ?? -1) >= 0 || (pairs[k] ?? -1) >= 0)
  let lastEnd = -1
  let previous = -1
  for (let i = 0; i < n; i++) {
    if (roles[i] === 'empty') continue
    const pair = pairs[i] ?? -1
    if (pair >= 0 && (ends[i] ?? -1) < 0) {
      let next = pair + 1
      while (next < n && roles[next] === 'empty') next++
      if ((previous >= 0 && previous === lastEnd) || blockStart(next)) ends[i] = pair
    }
    const end = ends[i] ?? -1
    if (end >= 0) lastEnd = Math.max(lastEnd, end)
    previous = i
  }
}

/**
 * A block of two is taken only when nothing plain follows it: the body or section ends, another aggregate
 * starts, or a total row. Otherwise "revenue, expenses, income" (revenue = expenses + income) would nest.
 */
function closed(g: Grid, headerRows: number, headerCols: number, roles: RowRole[], ends: Int32Array, next: number): boolean {
  let k = next
  while (k < roles.length && roles[k] === 'empty') k++
  if (k >= roles.length || roles[k] !== 'data' || (ends[k] ?? -1) >= 0) return true
  return isTotalLabel(rowLabel(g, headerRows + k, headerCols))
}

/** No column can add up any more: each is not a number, or has passed the parent with no negative part. */
function beyondReach(
  values: Float64Array,
  units: Float64Array,
  sums: Float64Array,
  negative: Uint8Array,
  row: number,
  width: number,
  members: number
): boolean {
  for (let j = 0; j < width; j++) {
    const v = values[row * width + j] ?? NaN
    const s = sums[j] ?? NaN
    if (Number.isNaN(v) || Number.isNaN(s)) continue
    if (negative[j] === 1 || s <= v + 0.5 * (units[row * width + j] ?? 1) * (members + 1)) return false
  }
  return true
}

/**
 * How the parts fit the parent row: 'exact' when one column at least adds up to the unit, 'near' when the
 * columns that add up are large totals missed only by the rounding of their parts (50,740 against parts that
 * sum to 50,745, each rounded to a multiple of 5), 'single' when only one column adds up, a large total, and
 * every other column lies among its parts ("job vacancies | vacancy rate | unemployment rate"), 'none'
 * otherwise. A lone column of counts that adds up to the unit is 'exact'.
 */
function addsUp(
  values: Float64Array,
  units: Float64Array,
  sums: Float64Array,
  lows: Float64Array,
  highs: Float64Array,
  row: number,
  width: number,
  members: number
): 'exact' | 'near' | 'single' | 'none' {
  let match = 0
  let mismatch = 0
  let among = 0
  let small = 0
  // Rounded parts may miss the printed total by a few units, but one column at least must add up to the
  // unit (21 against 8 + 10 + 4 in every column is a coincidence, not a total), or, for a near fit, miss a
  // total of a thousand units or more by a thousandth of it at most.
  let exact = false
  let near = false
  let large = false
  let counts = false
  for (let j = 0; j < width; j++) {
    const v = values[row * width + j] ?? NaN
    const s = sums[j] ?? NaN
    if (Number.isNaN(v) || Number.isNaN(s)) continue
    const unit = units[row * width + j] ?? 1
    const gap = Math.abs(v - s)
    if (gap > 0.5 * unit * (members + 1)) {
      // A value among its parts' values (a median, a rate, a percent change) is what a whole of averages
      // looks like: it neither adds up nor speaks against the block.
      if (v >= (lows[j] ?? Infinity) && v <= (highs[j] ?? -Infinity)) {
        among++
        continue
      }
      mismatch++
    } else if (Math.abs(v) >= SIGNIFICANT * unit) {
      // Small values (0.2 = 0.1 + 0.1, 12 = 5 + 7) add up by chance too often to count.
      match++
      if (Math.abs(v) < COUNT * unit) small++
      if (gap <= 0.5 * unit + 1e-9 && (lows[j] ?? -1) >= 0 && v > (highs[j] ?? Infinity) && v >= COUNT * unit) counts = true
      if (Math.abs(v) >= LARGE * unit) large = true
      if (gap <= 0.5 * unit + 1e-9) exact = true
      else if (Math.abs(v) >= LARGE * unit && gap <= NEAR * Math.abs(v)) near = true
    }
  }
  // One column of counts that adds up to the unit (no part below zero, the parent above every part and a
  // hundred units or more) is a fit even beside rates and averages: "race/ethnicity | 2,412 | 36 %" over
  // the groups' counts and shares. Another large column that adds up is a fit only for a longer block that
  // runs to the end of the rows (see scan).
  if (match === 1 && mismatch === 0 && exact && counts) return 'exact'
  if (match === 1 && mismatch === 0 && large && (exact || near)) return 'single'
  if (match <= mismatch || match < 2) return 'none'
  // Small counts that add up, with more columns whose parent lies among its parts, are a coincidence:
  // "agriculture | 23 | 22 | 422 | 487 | …" over "mining | 2 | 2 | 231 | 247", "manufacturing | 17 | 18 | 943 | …".
  if (among > match && small > 0) return 'none'
  return exact ? 'exact' : near ? 'near' : 'none'
}

/**
 * The same run of labels elsewhere in the table is read the same way: when "all industries | manufacturing |
 * nonmanufacturing" adds up under one year, the growth rates listed under the same labels nest alike, though
 * rates do not add up. Copies each block to every other run of data rows with the same labels that no block
 * covers yet. Changes `ends` in place and returns it.
 */
export function echoBlocks(g: Grid, headerRows: number, headerCols: number, roles: RowRole[], ends: Int32Array): Int32Array {
  const n = roles.length
  if (n > MAX_BODY_ROWS) return ends
  const keys = roles.map((role, i) => (role === 'data' ? rowLabel(g, headerRows + i, headerCols).toLowerCase() : ''))
  const rowsByKey = new Map<string, number[]>()
  keys.forEach((key, i) => {
    if (key === '') return
    const rows = rowsByKey.get(key)
    if (rows === undefined) rowsByKey.set(key, [i])
    else rows.push(i)
  })
  const covered = new Uint8Array(n)
  const cover = (i: number): void => {
    for (let k = i + 1; k <= (ends[i] ?? -1) && k < n; k++) covered[k] = 1
  }
  for (let i = 0; i < n; i++) cover(i)
  const found: number[] = []
  for (let i = 0; i < n; i++) if ((ends[i] ?? -1) > i) found.push(i)
  // The run at `s` reads like the block at `start`: same labels, and no member heads a block the original's
  // member does not head, or one reaching past the run.
  const alike = (start: number, s: number, length: number): boolean => {
    for (let j = 0; j < length; j++) {
      if (keys[s + j] !== keys[start + j]) return false
      const end = ends[s + j] ?? -1
      if (j > 0 && end >= 0 && (end > s + length - 1 || (ends[start + j] ?? -1) < 0)) return false
    }
    return true
  }
  for (const start of found) {
    const length = (ends[start] ?? start) - start + 1
    for (const s of rowsByKey.get(keys[start] ?? '') ?? []) {
      if (s === start || s + length > n || (ends[s] ?? -1) >= 0 || covered[s] === 1 || !alike(start, s, length)) continue
      ends[s] = s + length - 1
      cover(s)
    }
  }
  return ends
}
