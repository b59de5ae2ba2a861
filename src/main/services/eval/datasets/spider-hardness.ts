/**
 * Spider's hardness levels (easy, medium, hard, extra) computed from the parsed SQL in `dev.json`, by the
 * counts the official evaluator uses: clauses and joins (component 1), nested queries (component 2) and
 * aggregates, select columns, where conditions and group-by columns (others).
 */
type Sql = Record<string, unknown>
type Unit = unknown[]

const LIKE = 9 // index of 'like' in WHERE_OPS

function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : []
}

function everyOther(v: unknown, start: number): unknown[] {
  return arr(v).filter((_, i) => i % 2 === start)
}

function fromPart(sql: Sql): { tableUnits: unknown[]; conds: unknown[] } {
  const from = (sql.from ?? {}) as Record<string, unknown>
  return { tableUnits: arr(from.table_units), conds: arr(from.conds) }
}

function condUnits(sql: Sql): Unit[] {
  return [...everyOther(fromPart(sql).conds, 0), ...everyOther(sql.where, 0), ...everyOther(sql.having, 0)] as Unit[]
}

function isSql(v: unknown): v is Sql {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function nested(sql: Sql): Sql[] {
  const out: Sql[] = []
  for (const c of condUnits(sql)) {
    if (isSql(c[3])) out.push(c[3])
    if (isSql(c[4])) out.push(c[4])
  }
  for (const k of ['intersect', 'except', 'union']) if (isSql(sql[k])) out.push(sql[k])
  return out
}

// Python's `unit[0] != 0`: False and 0 count as "no aggregate", True and other ids as one.
function hasAgg(unit: unknown): boolean {
  const first = arr(unit)[0]
  return !(first === 0 || first === false)
}

function countAgg(units: unknown[]): number {
  return units.filter(hasAgg).length
}

function component1(sql: Sql): number {
  let n = 0
  if (arr(sql.where).length > 0) n++
  if (arr(sql.groupBy).length > 0) n++
  if (arr(sql.orderBy).length > 0) n++
  if (sql.limit !== null && sql.limit !== undefined) n++
  const { tableUnits, conds } = fromPart(sql)
  if (tableUnits.length > 0) n += tableUnits.length - 1
  const connectors = [...everyOther(conds, 1), ...everyOther(sql.where, 1), ...everyOther(sql.having, 1)]
  n += connectors.filter((t) => t === 'or').length
  n += condUnits(sql).filter((c) => c[1] === LIKE).length
  return n
}

function others(sql: Sql): number {
  let n = 0
  const select = arr(arr(sql.select)[1])
  let agg = countAgg(select) + countAgg(everyOther(sql.where, 0)) + countAgg(arr(sql.groupBy))
  const orderBy = arr(sql.orderBy)
  if (orderBy.length > 0) {
    const units = arr(orderBy[1]) as Unit[]
    agg += countAgg([...units.map((u) => u[1]).filter(Boolean), ...units.map((u) => u[2]).filter(Boolean)])
  }
  agg += countAgg(arr(sql.having))
  if (agg > 1) n++
  if (select.length > 1) n++
  if (arr(sql.where).length > 1) n++
  if (arr(sql.groupBy).length > 1) n++
  return n
}

export type Hardness = 'easy' | 'medium' | 'hard' | 'extra'

export function spiderHardness(sql: unknown): Hardness {
  if (!isSql(sql)) return 'extra'
  const c1 = component1(sql)
  const c2 = nested(sql).length
  const o = others(sql)
  if (c1 <= 1 && o === 0 && c2 === 0) return 'easy'
  if ((o <= 2 && c1 <= 1 && c2 === 0) || (c1 <= 2 && o < 2 && c2 === 0)) return 'medium'
  if ((o > 2 && c1 <= 2 && c2 === 0) || (c1 > 2 && c1 <= 3 && o <= 2 && c2 === 0) || (c1 <= 1 && o === 0 && c2 <= 1)) return 'hard'
  return 'extra'
}
