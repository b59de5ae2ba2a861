import { randomUUID } from 'node:crypto'
import type { RowBlock, TableSummary } from '../../shared/api'
import { fail, ok, type Result } from '../../shared/result'
import type { ParsedTable } from '../../shared/table'
import { importFile } from './tables/import'
import { structureGrid } from './tables/structure'

/** Largest file the app reads into memory; bigger ones get a clear message instead of an out-of-memory crash. */
export const MAX_FILE_BYTES = 512 * 1024 * 1024

export type OpenTable = { id: string; parsed: ParsedTable; summary: TableSummary }

/** How much the workspace keeps before closing the least recently used tables. */
export type WorkspaceLimits = { maxTables: number; maxCells: number }

export const DEFAULT_LIMITS: WorkspaceLimits = { maxTables: 64, maxCells: 40_000_000 }

/**
 * The tables open in this process, parsed and structured. A browser tab that goes away never closes
 * its tables, so the workspace bounds itself: past the limits the least recently used tables close
 * (and `onEvict` lets the executor forget them too).
 */
export class Workspace {
  private readonly tables = new Map<string, OpenTable>()

  constructor(
    private readonly limits: WorkspaceLimits = DEFAULT_LIMITS,
    private readonly onEvict: (id: string) => void = () => {}
  ) {}

  async open(name: string, bytes: Uint8Array): Promise<Result<OpenTable[]>> {
    if (bytes.byteLength > MAX_FILE_BYTES) {
      const mb = Math.round(bytes.byteLength / 1024 / 1024)
      return fail('too-large', `${name} is ${mb} MB; the largest file TableQA opens is ${MAX_FILE_BYTES / 1024 / 1024} MB.`)
    }
    let grids
    try {
      grids = await importFile(name, bytes)
    } catch (error) {
      return fail('internal', `Could not read ${name}.`, error instanceof Error ? (error.stack ?? error.message) : String(error))
    }
    if (!grids.ok) return grids
    if (grids.value.length === 0) return fail('bad-input', `${name} contains no table.`)
    const opened = grids.value.map((grid) => {
      const parsed = structureGrid(grid)
      const id = randomUUID()
      const table: OpenTable = {
        id,
        parsed,
        summary: { id, name: grid.name, columns: parsed.columns, rowCount: parsed.values.length, warnings: grid.warnings }
      }
      this.tables.set(id, table)
      return table
    })
    this.evict(new Set(opened.map((t) => t.id)))
    return ok(opened)
  }

  get(id: string): OpenTable | undefined {
    const table = this.tables.get(id)
    if (table) {
      // Map order is insertion order: re-inserting marks the table as recently used.
      this.tables.delete(id)
      this.tables.set(id, table)
    }
    return table
  }

  private evict(keep: Set<string>): void {
    let cells = 0
    for (const table of this.tables.values()) cells += table.parsed.values.length * table.parsed.columns.length
    for (const [id, table] of this.tables) {
      if (this.tables.size <= this.limits.maxTables && cells <= this.limits.maxCells) return
      if (keep.has(id)) continue
      cells -= table.parsed.values.length * table.parsed.columns.length
      this.tables.delete(id)
      this.onEvict(id)
    }
  }

  rows(id: string, start: number, count: number): Result<RowBlock> {
    const table = this.get(id)
    if (!table) return fail('not-found', 'That table is no longer open.')
    if (!Number.isInteger(start) || !Number.isInteger(count) || start < 0 || count < 0) return fail('bad-input', 'Row range must be non-negative integers.')
    return ok({ start, rows: table.parsed.values.slice(start, start + Math.min(count, 100_000)) })
  }

  close(id: string): boolean {
    return this.tables.delete(id)
  }
}
