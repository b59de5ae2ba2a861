import { readFileSync } from 'node:fs'
import initSqlJs, { type Database, type SqlJsStatic } from 'sql.js'
import type { SqlRows } from './score/spider'

let engine: Promise<SqlJsStatic> | null = null

function sqlJs(): Promise<SqlJsStatic> {
  engine ??= initSqlJs()
  return engine
}

/**
 * Read-only access to Spider's SQLite files with sql.js, each opened once: the storage class of every cell
 * when a database's tables are loaded as DataFrames.
 */
export class SqliteFiles {
  private readonly open = new Map<string, Database>()

  async database(path: string): Promise<Database> {
    let db = this.open.get(path)
    if (db === undefined) {
      const SQL = await sqlJs()
      db = new SQL.Database(readFileSync(path))
      this.open.set(path, db)
    }
    return db
  }

  /** Every row of a table in storage order, cells as SQLite stores them. */
  async tableRows(path: string, table: string): Promise<SqlRows> {
    const db = await this.database(path)
    const stmt = db.prepare(`SELECT * FROM "${table.replace(/"/g, '""')}"`)
    const rows: SqlRows = []
    try {
      while (stmt.step()) rows.push(stmt.get())
    } finally {
      stmt.free()
    }
    return rows
  }

  close(): void {
    for (const db of this.open.values()) db.close()
    this.open.clear()
  }
}
