import initSqlJs, { type Database, type SqlJsStatic, type SqlValue } from 'sql.js'
import { VALUE_KIND, type GridValues, type RawGrid, type RelationalInfo } from '../../../../shared/table'
import { fail, ok, type Result } from '../../../../shared/result'
import { LIMITS, numberKind } from './grid'

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

const TEXT = VALUE_KIND.text.charCodeAt(0)
const MISSING = VALUE_KIND.missing.charCodeAt(0)

/**
 * Grows with the rows read: the kind and number of every cell (see GridValues). A database types every value: a
 * number is a number, TEXT stays text even when it reads as one, NULL is missing, a BLOB is shown as text.
 */
class TypedRows {
  kinds = new Uint8Array(1024)
  numbers = new Float64Array(1024)
  length = 0

  constructor(readonly width: number) {}

  /** The row's cell texts, its kinds and numbers recorded at row index `row`. */
  add(row: number, values: SqlValue[]): string[] {
    const at = row * this.width
    if (at + this.width > this.kinds.length) this.grow(at + this.width)
    const texts = new Array<string>(values.length)
    for (let c = 0; c < values.length; c++) {
      const v = values[c] ?? null
      if (v === null) {
        texts[c] = ''
        this.kinds[at + c] = MISSING
      } else if (typeof v === 'number') {
        const text = Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(15)))
        texts[c] = text
        this.kinds[at + c] = numberKind(text, v).charCodeAt(0)
        this.numbers[at + c] = v
      } else {
        texts[c] = v instanceof Uint8Array ? `<binary ${v.length} bytes>` : v
        this.kinds[at + c] = TEXT
      }
    }
    this.length = at + this.width
    return texts
  }

  private grow(needed: number): void {
    const size = Math.max(needed, this.kinds.length * 2)
    const kinds = new Uint8Array(size)
    kinds.set(this.kinds)
    const numbers = new Float64Array(size)
    numbers.set(this.numbers)
    this.kinds = kinds
    this.numbers = numbers
  }

  values(): GridValues {
    return { width: this.width, kinds: this.kinds.slice(0, this.length), numbers: this.numbers.slice(0, this.length) }
  }
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
  let typed: TypedRows
  try {
    const names = stmt.getColumnNames()
    cells.push(names)
    // Row 0, the column names, stays untyped.
    typed = new TypedRows(names.length)
    while (stmt.step()) {
      if (cells.length > MAX_SQLITE_ROWS) {
        warnings.push(`Only the first ${MAX_SQLITE_ROWS} rows of table ${table} were imported.`)
        break
      }
      cells.push(typed.add(cells.length, stmt.get()))
    }
  } finally {
    stmt.free()
  }
  const grid: RawGrid = { name: `${fileName} › ${table}`, cells, merges: [], warnings, relational: relationalInfo(db, table) }
  if (typed.length > 0) grid.values = typed.values()
  return grid
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
