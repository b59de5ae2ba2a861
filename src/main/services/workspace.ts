import { randomUUID } from 'node:crypto'
import type { RowBlock, TableSummary } from '../../shared/api'
import { fail, ok, type Result } from '../../shared/result'
import type { ParsedTable } from '../../shared/table'
import { importFile } from './tables/import'
import { structureGrid } from './tables/structure'

/** Largest file the app reads into memory; bigger ones get a clear message instead of an out-of-memory crash. */
export const MAX_FILE_BYTES = 512 * 1024 * 1024

export type OpenTable = { id: string; parsed: ParsedTable; summary: TableSummary }

/** The tables open in this process, parsed and structured. */
export class Workspace {
  private readonly tables = new Map<string, OpenTable>()

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
    return ok(opened)
  }

  get(id: string): OpenTable | undefined {
    return this.tables.get(id)
  }

  rows(id: string, start: number, count: number): Result<RowBlock> {
    const table = this.tables.get(id)
    if (!table) return fail('not-found', 'That table is no longer open.')
    if (!Number.isInteger(start) || !Number.isInteger(count) || start < 0 || count < 0) return fail('bad-input', 'Row range must be non-negative integers.')
    return ok({ start, rows: table.parsed.values.slice(start, start + Math.min(count, 100_000)) })
  }

  close(id: string): boolean {
    return this.tables.delete(id)
  }
}
