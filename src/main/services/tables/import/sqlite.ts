import initSqlJs, { type Database, type SqlJsStatic, type SqlValue } from 'sql.js'
import type { RawGrid, RelationalInfo } from '../../../../shared/table'
import { fail, ok, type Result } from '../../../../shared/result'
import { LIMITS } from './grid'

/** Rows read from one table; the rest is left out with a warning. */
export const MAX_SQLITE_ROWS = 1_000_000

let engine: Promise<SqlJsStatic> | null = null

/** sql.js is loaded once; a failed load is retried on the next import. */
function loadEngine(): Promise<SqlJsStatic> {
  if (engine === null) {
    engine = initSqlJs().catch((e: unknown) => {
      engine = null
      throw e
    })
  }
  return engine
}

function quoteIdent(id: string): string {
  return `"${id.replace(/"/g, '""')}"`
}

function cellText(v: SqlValue): string {
  if (v === null) return ''
  if (v instanceof Uint8Array) return `<binary ${v.length} bytes>`
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(15)))
  return v
}

function relationalInfo(db: Database, table: string): RelationalInfo {
  const pk: { name: string; order: number }[] = []
  const info = db.exec(`PRAGMA table_info(${quoteIdent(table)})`)[0]
  for (const row of info?.values ?? []) {
    const order = Number(row[5])
    if (order > 0) pk.push({ name: String(row[1]), order })
  }
  const byId = new Map<number, { columns: string[]; refTable: string; refColumns: string[] }>()
  const fks = db.exec(`PRAGMA foreign_key_list(${quoteIdent(table)})`)[0]
  for (const row of fks?.values ?? []) {
    const id = Number(row[0])
    let fk = byId.get(id)
    if (fk === undefined) {
      fk = { columns: [], refTable: String(row[2]), refColumns: [] }
      byId.set(id, fk)
    }
    fk.columns.push(String(row[3]))
    if (row[4] !== null) fk.refColumns.push(String(row[4]))
  }
  return { table, primaryKey: pk.sort((a, b) => a.order - b.order).map((p) => p.name), foreignKeys: [...byId.values()] }
}

function readTable(db: Database, table: string, fileName: string): RawGrid {
  const warnings: string[] = []
  const stmt = db.prepare(`SELECT * FROM ${quoteIdent(table)} LIMIT ${MAX_SQLITE_ROWS + 1}`)
  const cells: string[][] = []
  try {
    cells.push(stmt.getColumnNames())
    while (stmt.step()) {
      if (cells.length > MAX_SQLITE_ROWS) {
        warnings.push(`Only the first ${MAX_SQLITE_ROWS} rows of table ${table} were imported.`)
        break
      }
      cells.push(stmt.get().map(cellText))
    }
  } finally {
    stmt.free()
  }
  return { name: `${fileName} › ${table}`, cells, merges: [], warnings, relational: relationalInfo(db, table) }
}

/** Import every table of a SQLite database: header row = column names, keys in `relational`. */
export async function importSqlite(name: string, bytes: Uint8Array): Promise<Result<RawGrid[]>> {
  let SQL: SqlJsStatic
  try {
    SQL = await loadEngine()
  } catch (e) {
    return fail('internal', 'The SQLite reader could not be loaded.', e instanceof Error ? e.message : String(e))
  }
  let db: Database
  try {
    db = new SQL.Database(bytes)
  } catch (e) {
    return fail('bad-input', `${name} cannot be opened as a SQLite database.`, e instanceof Error ? e.message : String(e))
  }
  try {
    const listed = db.exec(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid"
    )[0]
    const tables = (listed?.values ?? []).map((r) => String(r[0]))
    if (tables.length === 0) return fail('bad-input', `${name} has no tables.`)
    const grids = tables.slice(0, LIMITS.maxGrids).map((t) => readTable(db, t, name))
    if (tables.length > LIMITS.maxGrids)
      grids[0]?.warnings.push(`Only the first ${LIMITS.maxGrids} of ${tables.length} tables were imported.`)
    return ok(grids)
  } catch (e) {
    return fail('bad-input', `${name} is damaged or not a readable SQLite database.`, e instanceof Error ? e.message : String(e))
  } finally {
    db.close()
  }
}
