/**
 * What the prompt needs of a table that does not depend on the question, worked out once per table: the
 * label depths, the column widths and characters of every row, and the rows' text made searchable. A
 * question then costs a search of that text for its own terms, and rendering the rows it keeps, instead
 * of reading every cell of a table of 200,000 rows again.
 *
 * Digests are kept per table object: a `ParsedTable` is never changed after it is structured (a new
 * layout is a new object), and a table that is closed takes its digest with it.
 */

import { cellText, columnWidths, depths, rowChars, type ViewTable } from './table-view'

export type TableDigest = {
  /** Characters of each row as the prompt prints it, with every row shown (the budget's unit). */
  costs: Float64Array
  totalCost: number
  /** The cheapest row's characters. */
  minCost: number
  /** Every row's cells as relevance reads them (cut as printed, lower-cased, thousands separators dropped), one row per line. */
  text: string
  /** Where each row's line starts in `text`. */
  starts: Int32Array
}

const digests = new WeakMap<ViewTable, TableDigest>()

/** The table's digest, worked out now if it is not known yet. */
export function tableDigest(table: ViewTable): TableDigest {
  const known = digests.get(table)
  if (known !== undefined) return known
  const digest = finish(table, start(table, Infinity))
  digests.set(table, digest)
  return digest
}

/** Whether the table's digest is already worked out (a question on it then reads no row again). */
export function digestKnown(table: ViewTable): boolean {
  return digests.has(table)
}

/** Rows read between yields to the event loop while a digest is worked out ahead of a prompt. */
const SLICE_ROWS = 20_000

/**
 * Work out the digests of these tables that are not known yet, a slice of rows at a time, so that the
 * process stays responsive while the first prompt for a table of millions of rows is prepared.
 */
export async function digestTables(tables: readonly ViewTable[]): Promise<void> {
  for (const table of tables) {
    if (digests.has(table)) continue
    // Two questions on a table that is still being read share the reading.
    let reading = pending.get(table)
    if (reading === undefined) {
      reading = digestInSlices(table).finally(() => pending.delete(table))
      pending.set(table, reading)
    }
    await reading
  }
}

const pending = new WeakMap<ViewTable, Promise<void>>()

async function digestInSlices(table: ViewTable): Promise<void> {
  const work = start(table, SLICE_ROWS)
  while (work.next < table.values.length) {
    await new Promise<void>((resolve) => setImmediate(resolve))
    read(table, work, SLICE_ROWS)
  }
  if (!digests.has(table)) digests.set(table, finish(table, work))
}

type Work = {
  widths: { index: number[]; data: number[] }
  rowDepth: number
  /** Characters of each row's labels, until `finish` adds the row's cells. */
  costs: Float64Array
  lines: string[]
  next: number
}

function start(table: ViewTable, slice: number): Work {
  const work: Work = {
    widths: columnWidths(table, []),
    rowDepth: depths(table).row,
    costs: new Float64Array(table.values.length),
    lines: [],
    next: 0
  }
  read(table, work, slice)
  return work
}

/** The next slice of rows: widths as `columnWidths` takes them over all rows, and each row's text, reading each cell once. */
function read(table: ViewTable, work: Work, slice: number): void {
  const end = Math.min(table.values.length, work.next + slice)
  const { index, data } = work.widths
  for (let r = work.next; r < end; r += 1) {
    const labels = (table.index[r] ?? []).map(cellText)
    const cells = (table.values[r] ?? []).map(cellText)
    for (let j = 0; j < data.length; j += 1) data[j] = Math.max(data[j] ?? 0, cells[j]?.length ?? 0)
    for (let l = 0; l < work.rowDepth; l += 1) index[l] = Math.max(index[l] ?? 0, labels[l]?.length ?? 0)
    work.costs[r] = work.rowDepth > 0 ? (table.index[r] ?? []).reduce((s, x) => s + x.length + 4, 2) : 0
    work.lines.push(searchable([...labels, ...cells].join(' ')))
  }
  work.next = end
}

function finish(table: ViewTable, work: Work): TableDigest {
  const n = table.values.length
  const perRow = rowChars(work.widths)
  const starts = new Int32Array(n + 1)
  let totalCost = 0
  let minCost = Infinity
  let offset = 0
  for (let r = 0; r < n; r += 1) {
    const cost = perRow + (work.costs[r] ?? 0)
    work.costs[r] = cost
    totalCost += cost
    minCost = Math.min(minCost, cost)
    starts[r] = offset
    offset += (work.lines[r]?.length ?? 0) + 1
  }
  starts[n] = offset
  return { costs: work.costs, totalCost, minCost, text: work.lines.join('\n'), starts }
}

/** The text `terms` reads (budget.ts): lower case, "30,000" as "30000". */
export function searchable(text: string): string {
  return text.toLowerCase().replace(/(\d),(?=\d{3}\b)/g, '$1')
}

/**
 * The rows that mention a question term, most distinct terms first, then in table order: the order
 * `relevance` row by row would give. A term counts where it is a whole word of the row, as `terms` splits
 * them: letters and digits, joined inside a word by one `.` or `'`.
 */
export function relatedRows(digest: TableDigest, questionTerms: ReadonlySet<string>): Int32Array {
  const { text, starts } = digest
  const rows = starts.length - 1
  const scores = new Int32Array(rows)
  let best = 0
  for (const term of questionTerms) {
    if (term === '') continue
    let row = 0
    let lastRow = -1
    for (let at = text.indexOf(term); at >= 0; at = text.indexOf(term, at + 1)) {
      if (!wordStartsAt(text, at) || !wordEndsAt(text, at + term.length)) continue
      while (row + 1 < rows && (starts[row + 1] ?? 0) <= at) row += 1
      if (row === lastRow) continue
      lastRow = row
      const score = (scores[row] ?? 0) + 1
      scores[row] = score
      if (score > best) best = score
    }
  }
  if (best === 0) return new Int32Array(0)
  // Scores are small counts: place the rows by score (a counting sort) rather than sorting them.
  const count = new Int32Array(best + 2)
  for (let r = 0; r < rows; r += 1) {
    const score = scores[r] ?? 0
    count[score] = (count[score] ?? 0) + 1
  }
  const next = new Int32Array(best + 1)
  for (let score = best - 1, at = count[best] ?? 0; score >= 1; score -= 1) {
    next[score] = at
    at += count[score] ?? 0
  }
  const related = new Int32Array(rows - (count[0] ?? 0))
  for (let r = 0; r < rows; r += 1) {
    const score = scores[r] ?? 0
    if (score === 0) continue
    const at = next[score] ?? 0
    related[at] = r
    next[score] = at + 1
  }
  return related
}

const WORD = /^[\p{L}\p{N}]$/u

/** Whether the code point ending right before `end` (a UTF-16 index) is a letter or digit. */
function wordBefore(text: string, end: number): boolean {
  if (end <= 0) return false
  const low = text.charCodeAt(end - 1)
  if (low < 128) return asciiWord(low)
  const high = end >= 2 ? text.charCodeAt(end - 2) : 0
  const start = low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff ? end - 2 : end - 1
  return WORD.test(text.slice(start, end))
}

/** Whether the code point starting at `at` is a letter or digit. */
function wordAfter(text: string, at: number): boolean {
  if (at >= text.length) return false
  const c = text.charCodeAt(at)
  if (c < 128) return asciiWord(c)
  const point = text.codePointAt(at) ?? c
  return WORD.test(text.slice(at, at + (point > 0xffff ? 2 : 1)))
}

function asciiWord(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90)
}

const isJoiner = (text: string, i: number): boolean => text[i] === '.' || text[i] === "'"

/** No word goes on to the left: neither a letter or digit, nor a joiner after one. */
function wordStartsAt(text: string, at: number): boolean {
  if (wordBefore(text, at)) return false
  return !(at > 0 && isJoiner(text, at - 1) && wordBefore(text, at - 1))
}

/** No word goes on to the right: neither a letter or digit, nor a joiner before one. */
function wordEndsAt(text: string, end: number): boolean {
  if (wordAfter(text, end)) return false
  return !(isJoiner(text, end) && wordAfter(text, end + 1))
}
