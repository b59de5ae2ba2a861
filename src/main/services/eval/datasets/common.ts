import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import type { ParsedTable, StructureOptions } from '../../../../shared/table'
import { fail, ok, type Result } from '../../../../shared/result'
import { importFile } from '../../tables/import'
import { structureGrid } from '../../tables/structure'

/** Import one file through the app's importers and structure its first grid as the app would. */
export async function importTable(
  path: string,
  bytes?: Uint8Array,
  name?: string,
  options?: StructureOptions
): Promise<Result<ParsedTable>> {
  let data: Uint8Array
  try {
    data = bytes ?? readFileSync(path)
  } catch (e) {
    return fail('not-found', `Cannot read ${path}.`, e instanceof Error ? e.message : String(e))
  }
  const grids = await importFile(name ?? basename(path), data)
  if (!grids.ok) return grids
  const grid = grids.value[0]
  if (grid === undefined) return fail('bad-input', `${path} holds no table.`)
  return ok(structureGrid(grid, options))
}

export function readJsonl(path: string): unknown[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim().length > 0)
    .map((l) => JSON.parse(l) as unknown)
}

export function str(v: unknown): string {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : ''
}

export function asRecord(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {}
}
