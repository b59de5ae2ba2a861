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
const MAX_CODE_COLUMNS = 40
const MAX_CODE_CHARS = 16

const placed = (role: RowRole | undefined): boolean => role === 'data' || role === 'section'

/** The code in a cell: one short token (a number without separators, or letters and digits), or ''. */
function codeIn(g: Grid, r: number, c: number): string {
  const t = rawText(g, r, c)
  return t.length > 0 && t.length <= MAX_CODE_CHARS && !/\s/.test(t) && !/^-?\d*[.,]\d/.test(t) ? t : ''
}

/** A column of codes and the column of their parents' codes, and the parents they give. */
export type CodeColumns = { codes: number; parentCodes: number; parents: StatedParents; matched: number }

/**
 * A code column and a parent-code column after the label columns: codes differ from row to row, parent codes
 * repeat (siblings share a parent), and nearly every parent code written is the code of an earlier row; a
 * parent code that names no row (or none is written) puts the row at the top. Null when the body has none.
 */
export function codeColumns(g: Grid, headerRows: number, headerCols: number, roles: readonly RowRole[]): CodeColumns | null {
  const rows: number[] = []
  for (let i = 0; i < roles.length; i++) if (placed(roles[i])) rows.push(i)
  if (rows.length < MIN_PLACED + 1) return null
  const last = Math.min(g.cols, headerCols + MAX_CODE_COLUMNS)
  // Per column: its codes by body row, how many rows have one, and how many distinct.
  const columns: { col: number; codes: string[]; filled: number; distinct: number }[] = []
  for (let c = headerCols; c < last; c++) {
    const codes: string[] = []
    const seen = new Set<string>()
    let filled = 0
    let other = false
    for (const i of rows) {
      const code = codeIn(g, headerRows + i, c)
      // Anything else written in the column (a sentence, a decimal, "1,234") makes it no column of codes.
      if (code === '' && rawText(g, headerRows + i, c).length > 0) {
        other = true
        break
      }
      codes[i] = code
      if (code !== '') {
        filled++
        seen.add(code)
      }
    }
    if (!other && filled >= MIN_PLACED) columns.push({ col: c, codes, filled, distinct: seen.size })
  }
  // Codes: on most rows, each on one. Parent codes: repeated, written on half the rows at least.
  const codeCandidates = columns.filter((k) => k.filled >= 0.8 * rows.length && k.distinct >= 0.98 * k.filled)
  const parentCandidates = columns.filter((k) => k.filled >= 0.5 * rows.length && k.distinct < 0.8 * k.filled)
  let best: CodeColumns | null = null
  for (const code of codeCandidates) {
    const rowOf = new Map<string, number>()
    for (const i of rows) {
      const v = code.codes[i] ?? ''
      if (v !== '' && !rowOf.has(v)) rowOf.set(v, i)
    }
    for (const parent of parentCandidates) {
      if (parent.col === code.col) continue
      const found = parentsByCode(rows, rowOf, parent.codes, roles.length)
      if (found !== null && (best === null || found.matched > best.matched))
        best = { codes: code.col, parentCodes: parent.col, parents: found.parents, matched: found.matched }
    }
  }
  return best
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
  for (let i = 0; i < roles.length; i++) {
    if (!placed(roles[i])) continue
    const label = labelText(g, headerRows + i, headerCols)
    if (label.length === 0) continue
    labelled++
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
  const levels = roles.map((role, i) => (placed(role) ? g.outline(headerRows + i) : -1))
  const used = new Set(levels.filter((l) => l >= 0))
  return used.size >= 2 ? levels : null
}
