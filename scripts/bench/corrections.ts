/**
 * Rows moved by hand: what applying them costs after the structure pass. The generated 200,000 × 20 CSV read
 * with its label column as the row index and no nesting (200,000 top-level rows: the widest left tree), with
 * one move and with 1,000 moves (every 200th row under the row before it), and the PhD report of the shared
 * spreadsheets with one move. Each figure is the best of five runs of `applyRowMoves` alone on the structured
 * table; the structure pass of the same table (best of three) is given beside it.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import type { RowMove } from '../../src/shared/corrections'
import type { ParsedTable, RawGrid, StructureOptions } from '../../src/shared/table'
import { datasetsDir } from '../../src/main/services/paths'
import { applyRowMoves } from '../../src/main/services/tables/corrections'
import { importFileSync } from '../../src/main/services/tables/import'
import { splitSideBySide, structureGrid } from '../../src/main/services/tables/structure'
import type { SuiteResult } from '../bench'
import { generatedCsv } from './generated'

function grid(name: string, bytes: Uint8Array): RawGrid {
  const read = importFileSync(name, bytes)
  if (!read.ok) throw new Error(read.error.message)
  const first = read.value.flatMap(splitSideBySide)[0]
  if (first === undefined) throw new Error(`${name}: no table`)
  return first
}

function bestOf(times: number, work: () => void): number {
  let ms = Infinity
  for (let k = 0; k < times; k++) {
    const t0 = performance.now()
    work()
    ms = Math.min(ms, performance.now() - t0)
  }
  return ms
}

/** Best time (ms) of applying `moves`, after checking that every one applies. */
function applying(parsed: ParsedTable, moves: RowMove[]): number {
  const { applied } = applyRowMoves(parsed, moves)
  if (applied.length !== moves.length) throw new Error(`${parsed.name}: ${applied.length} of ${moves.length} moves applied`)
  return bestOf(5, () => applyRowMoves(parsed, moves))
}

/** Sheet row r's label in the generated CSV (row 0 is the header). */
const label = (r: number): string => `region ${(r - 1) % 97}`

export function run(): Promise<SuiteResult> {
  const csv = grid('generated.csv', generatedCsv())
  const flat: StructureOptions = { headerRows: 1, headerCols: 1, leftHierarchy: 'none' }
  let structured: ParsedTable | null = null
  const structureMs = bestOf(3, () => (structured = structureGrid(csv, flat)))
  const table = structured ?? structureGrid(csv, flat)
  const one: RowMove[] = [{ row: 100_000, label: label(100_000), under: 99_999, underLabel: label(99_999) }]
  const many: RowMove[] = Array.from({ length: 1000 }, (_, k) => {
    const row = (k + 1) * 200
    return { row, label: label(row), under: row - 1, underLabel: label(row - 1) }
  })

  const phdName = 'PhD_major-field.xlsx'
  const phd = structureGrid(grid(phdName, new Uint8Array(readFileSync(join(datasetsDir(), 'spreadsheets', 'tidyabs', phdName)))))
  return Promise.resolve({
    metrics: {
      csv_200k_structure_ms: structureMs,
      csv_200k_apply_1_move_ms: applying(table, one),
      csv_200k_apply_1000_moves_ms: applying(table, many),
      phd_apply_1_move_ms: applying(phd, [{ row: 11, label: 'Chemistry', under: 6, underLabel: 'Life sciences' }])
    },
    details: { rows: table.values.length }
  })
}
