/**
 * Spider's test-suite execution match (taoyds/test-suite-sql-eval): query clean-up applied before
 * execution, and the comparison of two result tables (row order only when the gold query orders,
 * any permutation of the prediction's columns, cells compared with Python equality).
 */

/** A cell as SQLite returns it: integers and reals (both `number`), text, NULL, or a blob. */
export type SqlCell = number | string | null | Uint8Array
export type SqlRows = SqlCell[][]

/** The prediction clean-up: `value` → `1` (a plain substring replacement), and `> =`, `< =`, `! =` closed up. */
export function postprocessPrediction(sql: string): string {
  return closeComparisons(sql.split('value').join('1'))
}

export function closeComparisons(sql: string): string {
  return sql.split('> =').join('>=').split('< =').join('<=').split('! =').join('!=')
}

/** `YEAR(CURDATE())` becomes 2020, as the evaluator does before executing either query. */
export function replaceCurrentYear(sql: string): string {
  return sql.replace(/YEAR\s*\(\s*CURDATE\s*\(\s*\)\s*\)\s*/giu, '2020')
}

/**
 * Every `DISTINCT` keyword removed, leaving the surrounding whitespace (the evaluator joins the
 * remaining sqlparse tokens). Quoted strings and identifiers are left alone.
 */
export function removeDistinct(sql: string): string {
  let out = ''
  let i = 0
  while (i < sql.length) {
    const ch = sql[i] as string
    if (ch === "'" || ch === '"' || ch === '`') {
      let j = i + 1
      while (j < sql.length) {
        if (sql[j] === ch) {
          if (sql[j + 1] === ch) j += 2
          else break
        } else j++
      }
      out += sql.slice(i, j + 1)
      i = j + 1
      continue
    }
    if (ch === '[') {
      const j = sql.indexOf(']', i)
      const end = j < 0 ? sql.length : j + 1
      out += sql.slice(i, end)
      i = end
      continue
    }
    if (/[A-Za-z_]/u.test(ch)) {
      let j = i
      while (j < sql.length && /[A-Za-z0-9_$]/u.test(sql[j] as string)) j++
      const word = sql.slice(i, j)
      if (word.toLowerCase() !== 'distinct') out += word
      i = j
      continue
    }
    out += ch
    i++
  }
  return out
}

/** Whether row order counts: the gold query contains `order by` (case-insensitive substring). */
export function orderMatters(goldSql: string): boolean {
  return goldSql.toLowerCase().includes('order by')
}

/** Python's hash/equality classes for SQLite values: 1 and 1.0 are equal, '1' and 1 are not. */
function cellKey(v: SqlCell): string {
  if (v === null) return 'z'
  if (typeof v === 'number') return Object.is(v, -0) ? 'n:0' : `n:${v}`
  if (typeof v === 'string') return `s:${v}`
  return `b:${Array.from(v).join(',')}`
}

function rowKey(row: SqlCell[]): string {
  return JSON.stringify(row.map(cellKey))
}

function multisetEqual(a: SqlRows, b: SqlRows): boolean {
  const counts = new Map<string, number>()
  for (const r of a) counts.set(rowKey(r), (counts.get(rowKey(r)) ?? 0) + 1)
  for (const r of b) {
    const k = rowKey(r)
    const n = counts.get(k)
    if (!n) return false
    counts.set(k, n - 1)
  }
  return true
}

/**
 * `result_eq(gold, pred, order_matters)`: both empty, or the same numbers of rows and columns and some
 * permutation of the prediction's columns gives the gold rows (as a sequence when order matters, else as a
 * multiset).
 */
export function resultsEquivalent(gold: SqlRows, pred: SqlRows, ordered: boolean): boolean {
  if (gold.length === 0 && pred.length === 0) return true
  if (gold.length !== pred.length) return false
  const width = gold[0]?.length ?? 0
  if ((pred[0]?.length ?? 0) !== width) return false
  const goldColumns = Array.from({ length: width }, (_, c) => new Set(gold.map((r) => cellKey(r[c] ?? null))))
  const predColumns = Array.from({ length: width }, (_, c) => new Set(pred.map((r) => cellKey(r[c] ?? null))))
  // A prediction column can stand at gold position c only if it holds exactly the values of gold column c.
  const allowed = goldColumns.map((g) => predColumns.flatMap((p, j) => (p.size === g.size && [...p].every((k) => g.has(k)) ? [j] : [])))
  const goldKeys = ordered ? gold.map(rowKey) : null
  const perm: number[] = []
  const used = new Set<number>()
  const tryPerm = (): boolean => {
    const permuted = pred.map((r) => perm.map((j) => r[j] ?? null))
    if (goldKeys) return permuted.every((r, i) => rowKey(r) === goldKeys[i])
    return multisetEqual(gold, permuted)
  }
  const search = (c: number): boolean => {
    if (c === width) return tryPerm()
    for (const j of allowed[c] ?? []) {
      if (used.has(j)) continue
      used.add(j)
      perm.push(j)
      if (search(c + 1)) return true
      perm.pop()
      used.delete(j)
    }
    return false
  }
  return search(0)
}
