/**
 * Hierarchies a sheet states itself, read as each body row's parent row: a column of codes beside a column of
 * parent codes (each parent code is the code of an earlier row, or empty for the top), labels numbered by their
 * place ("1.", "1.1", "1.1.2", or account codes "1000 | 1100 | 1110"), or Excel's row outline. Where a sheet
 * states one, it is the hierarchy: the rules of rules/parent-codes.ts, rules/numbered-labels.ts and
 * rules/outline-levels.ts report it, and the left tree follows it (rules/stated-sweep.ts) instead of guessing
 * from indentation, wording and sums.
 */
import { rawText, type Grid } from './grid'
import { isYearLike } from './number'
import type { RowRole } from './rows'
import { labelText } from './rules/row-roles'

/** Each body row's parent body row (-1: the top level; index 0 = row headerRows). */
export type StatedParents = Int32Array

// Fewer rows placed than this state no hierarchy worth following.
const MIN_PLACED = 3
// Columns read for codes and parent codes after the label columns: index columns come before the values.
const MAX_CODE_COLUMNS = 12
const MAX_CODE_CHARS = 16

const placed = (role: RowRole | undefined): boolean => role === 'data' || role === 'section'

/**
 * The code in a cell: one short token (a number without separators, or letters and digits), or ''. Read by
 * character: every cell of the columns after the labels is asked.
 */
function codeIn(g: Grid, r: number, c: number): string {
  return codeOf(rawText(g, r, c))
}

/** The code a cell's text is, or ''. */
function codeOf(t: string): string {
  if (t.length === 0 || t.length > MAX_CODE_CHARS) return ''
  for (let k = 0; k < t.length; k++) {
    const ch = t.charCodeAt(k)
    if (ch <= 32 || ch === 160) return ''
  }
  // A decimal number ("12.5", "-0,3", "1,234") is a measure, not a code (as /^-?\d*[.,]\d/ reads it).
  let k = t.charCodeAt(0) === 45 ? 1 : 0
  while (k < t.length && t.charCodeAt(k) >= 48 && t.charCodeAt(k) <= 57) k++
  const sep = t.charCodeAt(k)
  const next = t.charCodeAt(k + 1)
  return (sep === 46 || sep === 44) && next >= 48 && next <= 57 ? '' : t
}

/** A column of codes and the column of their parents' codes, and the parents they give. */
export type CodeColumns = { codes: number; parentCodes: number; parents: StatedParents; matched: number }

/**
 * A code column and a parent-code column after the label columns: codes differ from row to row, parent codes
 * repeat (siblings share a parent), and nearly every parent code written is the code of an earlier row; a
 * parent code that names no row (or none is written) puts the row at the top. Null when the body has none.
 */
export function codeColumns(g: Grid, headerRows: number, headerCols: number, roles: readonly RowRole[]): CodeColumns | null {
  // The first rows decide which pairs of columns may hold codes and parent codes; only those are read whole.
  const named = glance(g, headerRows, headerCols, roles)
  if (named.length === 0) return null
  const rows: number[] = []
  for (let i = 0; i < roles.length; i++) if (placed(roles[i])) rows.push(i)
  const sample = rows.slice(0, SAMPLE_ROWS)
  const pairs: [number, number][] = []
  const sampled = new Map<number, CodeColumn>()
  for (const c of named) {
    const column = readCodes(g, headerRows, c, sample)
    if (column !== null) sampled.set(c, column)
  }
  for (const [c, code] of sampled)
    for (const [p, parent] of sampled) if (p !== c && codesAndParents(sample, code, parent, roles.length) !== null) pairs.push([c, p])
  if (pairs.length === 0) return null
  const whole = new Map<number, CodeColumn | null>()
  const read = (c: number): CodeColumn | null => {
    if (!whole.has(c)) whole.set(c, sample.length === rows.length ? (sampled.get(c) ?? null) : readCodes(g, headerRows, c, rows))
    return whole.get(c) ?? null
  }
  let best: CodeColumns | null = null
  for (const [c, p] of pairs) {
    const code = read(c)
    const parent = read(p)
    const found = code === null || parent === null ? null : codesAndParents(rows, code, parent, roles.length)
    if (found !== null && (best === null || found.matched > best.matched))
      best = { codes: c, parentCodes: p, parents: found.parents, matched: found.matched }
  }
  return best
}

// Rows glanced at, then read, to find the columns of codes and parent codes.
const GLANCE_ROWS = 8
const SAMPLE_ROWS = 40

/**
 * The columns worth reading for codes and parent codes, from the first rows alone: a column of parent codes
 * repeats a code, and two of its rows or more name a code written above them in another column, whose codes
 * all differ; that column and the ones it names. Most tables have none, and every table is asked: it reads a
 * few cells a column into one array, without sets or maps.
 */
function glance(g: Grid, headerRows: number, headerCols: number, roles: readonly RowRole[]): number[] {
  const rows: number[] = []
  for (let i = 0; i < roles.length && rows.length < GLANCE_ROWS; i++) if (placed(roles[i])) rows.push(i)
  const n = rows.length
  if (n < MIN_PLACED + 1) return []
  const cols = Math.min(g.cols, headerCols + MAX_CODE_COLUMNS) - headerCols
  // codes[c * n + k]: the code of glanced row k in column headerCols + c ('' for none); a column with anything
  // else written in it is dead. Read row by row, each cell once: the first rows decide whether to go on.
  const codes = new Array<string>(cols * n).fill('')
  // Bit c: column headerCols + c is dead (holds something else than codes), repeats a code of its own.
  let dead = 0
  let repeats = 0
  // The codes of the rows read so far: the column + 1 each is written in, or -1 when in several.
  const above = new Map<string, number>()
  let children = 0
  for (let k = 0; k < n; k++) {
    const r = headerRows + (rows[k] ?? 0)
    let child = false
    for (let c = 0; c < cols; c++) {
      const bit = 1 << c
      if ((dead & bit) !== 0) continue
      const text = rawText(g, r, headerCols + c)
      if (text.length === 0) continue
      const code = codeOf(text)
      if (code === '') {
        dead |= bit
        continue
      }
      codes[c * n + k] = code
      const at = above.get(code)
      if (at === undefined) continue
      if (at === c + 1) repeats |= bit
      else if (at === -1) for (let j = 0; j < k && (repeats & bit) === 0; j++) if (codes[c * n + j] === code) repeats |= bit
      // The code of a row above in another column: this row may sit under it.
      if (at !== c + 1) child = true
    }
    for (let c = 0; c < cols; c++) {
      const code = codes[c * n + k] ?? ''
      if (code === '') continue
      const at = above.get(code)
      above.set(code, at === undefined || at === c + 1 ? c + 1 : -1)
    }
    if (child) children++
    // In each of the rows after the first up to NEAR_ROWS (one coincidence among small counts is common): given
    // up at the first that has none.
    if (k < NEAR_ROWS && children + Math.min(NEAR_ROWS, n) - 1 - k < 2) return []
  }
  // Bit c: the column's codes, on most rows, all differ.
  let unique = 0
  for (let c = 0; c < cols; c++) {
    let filled = 0
    for (let k = 0; k < n; k++) if (codes[c * n + k] !== '') filled++
    if (((dead | repeats) & (1 << c)) === 0 && filled >= 0.8 * n) unique |= 1 << c
  }
  const named: number[] = []
  for (let p = 0; p < cols; p++) {
    if ((dead & (1 << p)) !== 0 || (repeats & (1 << p)) === 0) continue
    const naming: number[] = []
    let written = 0
    for (let k = 1; k < n; k++) {
      const v = codes[p * n + k] ?? ''
      if (v === '') continue
      written++
      for (let c = 0; c < cols; c++) {
        if (c === p || (unique & (1 << c)) === 0) continue
        let found = false
        for (let j = 0; j < k && !found; j++) found = codes[c * n + j] === v
        if (found) {
          naming.push(headerCols + c)
          break
        }
      }
    }
    // Most parent codes written name a code above them (not a few, as counts happen to).
    if (naming.length < 2 || naming.length < 0.6 * written) continue
    for (const c of [headerCols + p, ...naming]) if (!named.includes(c)) named.push(c)
  }
  return named
}

// A listing by parent codes has its second and third rows under rows above them (the world's first regions).
const NEAR_ROWS = 3

/** A column's codes by body row, how many rows have one, and how many distinct. */
type CodeColumn = { codes: string[]; filled: number; distinct: number }

/** The codes of column `c` in `rows`, or null when something else is written there (a sentence, a decimal). */
function readCodes(g: Grid, headerRows: number, c: number, rows: readonly number[]): CodeColumn | null {
  const codes = new Array<string>((rows[rows.length - 1] ?? -1) + 1).fill('')
  const seen = new Set<string>()
  let filled = 0
  for (const i of rows) {
    const code = codeIn(g, headerRows + i, c)
    if (code === '') {
      if (rawText(g, headerRows + i, c).length > 0) return null
      continue
    }
    codes[i] = code
    filled++
    seen.add(code)
  }
  return filled >= MIN_PLACED ? { codes, filled, distinct: seen.size } : null
}

/**
 * Codes on most rows, each on one; parent codes repeated (siblings share a parent), on half the rows at least,
 * nearly all naming the code of an earlier row: the parents they give, or null.
 */
function codesAndParents(
  rows: readonly number[],
  code: CodeColumn,
  parent: CodeColumn,
  n: number
): { parents: StatedParents; matched: number } | null {
  if (code.filled < 0.8 * rows.length || code.distinct < 0.98 * code.filled) return null
  if (parent.filled < 0.5 * rows.length || parent.distinct >= 0.8 * parent.filled) return null
  const rowOf = new Map<string, number>()
  for (const i of rows) {
    const v = code.codes[i] ?? ''
    if (v !== '' && !rowOf.has(v)) rowOf.set(v, i)
  }
  return parentsByCode(rows, rowOf, parent.codes, n)
}

function parentsByCode(
  rows: readonly number[],
  rowOf: ReadonlyMap<string, number>,
  parentCodes: readonly string[],
  n: number
): { parents: StatedParents; matched: number } | null {
  const parents = new Int32Array(n).fill(-1)
  let written = 0
  let matched = 0
  let later = 0
  const heads = new Set<number>()
  for (const i of rows) {
    const v = parentCodes[i] ?? ''
    if (v === '') continue
    written++
    const p = rowOf.get(v)
    if (p === undefined) continue
    if (p >= i) {
      later++
      continue
    }
    parents[i] = p
    heads.add(p)
    matched++
  }
  // Nearly every parent code names an earlier row, never a later one, and parents have several parts each.
  if (matched < MIN_PLACED || matched < 0.9 * written || later > 0.02 * written || heads.size > 0.8 * matched) return null
  return { parents, matched }
}

// "1", "1.", "1.1", "1.1.2" then the label ("1.1 Current assets"); or an account code ("1100 Current assets").
const NUMBERED = /^(\d{1,6}(?:\.\d{1,3})*)(\.?)\s+\S/
// The first labels read: half of them must be numbered.
const FIRST_LABELS = 10
// Account codes have as many digits each, three at least ("1000", "1100"): fewer are counts or ages ("15 to 19").
const ACCOUNT_DIGITS = 3

/** The number a label opens with ("1.1.2", "1100"), or ''. */
export function numberOf(label: string): string {
  return NUMBERED.exec(label)?.[1] ?? ''
}

/** How a sheet numbers its labels: by dotted place ("1.1.2") or by account codes that extend their parent's. */
export type Numbering = { kind: 'dotted' | 'account'; parents: StatedParents; numbered: number }

/**
 * Labels numbered by their place in the hierarchy: "1.2.1 …" sits under the nearest row above numbered "1.2";
 * an account code sits under the nearest row above whose code, without its trailing zeros, begins it ("1110"
 * under "1100" under "1000"). Most labelled rows are numbered, at two depths at least, and nearly every row
 * below the top finds its parent. An unnumbered row stays at the top. Null when the labels state nothing.
 */
export function numberedLabels(g: Grid, headerRows: number, headerCols: number, roles: readonly RowRole[]): Numbering | null {
  const numbers: (string | null)[] = new Array<string | null>(roles.length).fill(null)
  let labelled = 0
  let numbered = 0
  let dotted = 0
  // Whether every number could be an account code: digits alone, as many each, no full stop after them.
  let digits = -1
  let accounts = true
  // Labels that open with a year ("2010 Q1") name periods, not accounts.
  let years = 0
  // Body rows (an upper bound of the labelled rows, not counted: this is asked of every table).
  const rows = roles.length
  for (let i = 0; i < roles.length; i++) {
    if (!placed(roles[i])) continue
    const label = labelText(g, headerRows + i, headerCols)
    if (label.length === 0) continue
    labelled++
    // Most labels do not open with a digit; once too many do not (half of the first ten, or more than 40 % of
    // the rows), the labels are not numbered.
    const first = label.charCodeAt(0)
    if (first < 48 || first > 57) {
      const unnumbered = labelled - numbered
      if (unnumbered > 0.4 * rows || (labelled <= FIRST_LABELS && unnumbered * 2 > FIRST_LABELS)) return null
      continue
    }
    const m = NUMBERED.exec(label)
    const number = m?.[1]
    if (number === undefined) continue
    if (isYearLike(number)) years++
    numbers[i] = number
    numbered++
    if (number.includes('.')) dotted++
    if (digits < 0) digits = number.length
    if (number.length !== digits || number.length < ACCOUNT_DIGITS || number.includes('.') || m?.[2] === '.') accounts = false
  }
  if (numbered < MIN_PLACED || numbered < 0.6 * labelled) return null
  // Numbers without dots inside that are no account codes ("1.", "2.", … "30.") list the rows without nesting them.
  if (dotted === 0 && (!accounts || years * 2 > numbered)) return null
  const kind = dotted > 0 ? 'dotted' : 'account'
  const keys = numbers.map((x) => (x === null ? null : kind === 'dotted' ? x : x.replace(/0+$/, '')))
  const parents = new Int32Array(roles.length).fill(-1)
  // The latest row of each number, as the rows are read.
  const latest = new Map<string, number>()
  let below = 0
  let found = 0
  const depths = new Set<number>()
  for (let i = 0; i < roles.length; i++) {
    const key = keys[i] ?? null
    if (key === null) continue
    const parent = kind === 'dotted' ? dottedParent(key, latest) : accountParent(key, latest)
    depths.add(kind === 'dotted' ? key.split('.').length : key.length)
    if (parent !== -2) {
      below++
      if (parent >= 0) {
        parents[i] = parent
        found++
      }
    }
    latest.set(key, i)
  }
  if (depths.size < 2 || found < MIN_PLACED || found < 0.8 * below) return null
  return { kind, parents, numbered }
}

/** The row of "1.2" for "1.2.1" (-1: not found), or -2 for a number at the top ("3"). */
function dottedParent(key: string, latest: ReadonlyMap<string, number>): number {
  const dot = key.lastIndexOf('.')
  if (dot < 0) return -2
  return latest.get(key.slice(0, dot)) ?? -1
}

/** The row whose code, without trailing zeros, is the longest that begins this one (-2: none can, one digit). */
function accountParent(key: string, latest: ReadonlyMap<string, number>): number {
  if (key.length <= 1) return -2
  for (let n = key.length - 1; n >= 1; n--) {
    const p = latest.get(key.slice(0, n))
    if (p !== undefined) return p
  }
  return -2
}

/**
 * Parents by level (outline levels, indentation): each row under the nearest row above it with a lower level.
 * `level` is -1 for rows that take no part (empty rows, notes).
 */
export function parentsByLevel(levels: readonly number[]): StatedParents {
  const parents = new Int32Array(levels.length).fill(-1)
  const stack: number[] = []
  for (let i = 0; i < levels.length; i++) {
    const level = levels[i] ?? -1
    if (level < 0) continue
    while (stack.length > 0 && (levels[stack[stack.length - 1] ?? 0] ?? 0) >= level) stack.pop()
    parents[i] = stack[stack.length - 1] ?? -1
    stack.push(i)
  }
  return parents
}

/** Each placed row's outline level (-1 for the others), or null when the body's rows are not outlined at two levels. */
export function outlineLevels(g: Grid, headerRows: number, roles: readonly RowRole[]): number[] | null {
  const outline = g.outline
  if (outline === null) return null
  const levels = roles.map((role, i) => (placed(role) ? outline(headerRows + i) : -1))
  const used = new Set(levels.filter((l) => l >= 0))
  return used.size >= 2 ? levels : null
}
