/**
 * Every table of the corpora the parse bench reads, structured as the app does it, one JSON line each: the
 * layout, title, notes, column and row tuples, data rows and warnings. Two dumps, before and after a change
 * to the structure pass, show every table it changed (`diff`, or `npm run bench -- parse --compare A B`).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { importFileSync } from '../../src/main/services/tables/import'
import { detectStructure, splitSideBySide, structureGrid } from '../../src/main/services/tables/structure'
import {
  aitqaToGrid,
  hitabTableIds,
  hitabToGrid,
  readAitqaTables,
  readHitabTable,
  spreadsheetPaths
} from '../../src/main/services/eval/datasets/hitab-grid'
import { datasetsDir } from '../../src/main/services/paths'
import type { RawGrid } from '../../src/shared/table'

/** Every grid of HiTab, AIT-QA, the spreadsheets and WikiTQ (CSV and HTML), named by corpus and file. */
export function* corpusGrids(): Generator<{ id: string; grid: RawGrid }> {
  for (const id of hitabTableIds()) yield { id: `hitab/${id}`, grid: hitabToGrid(id, readHitabTable(id)) }
  for (const t of readAitqaTables()) yield { id: `aitqa/${t.id}`, grid: aitqaToGrid(t) }
  const open = (path: string): RawGrid[] => {
    const read = importFileSync(basename(path), new Uint8Array(readFileSync(path)))
    return read.ok ? read.value.flatMap(splitSideBySide) : []
  }
  for (const file of spreadsheetPaths()) for (const grid of open(file)) yield { id: `sheets/${grid.name}`, grid }
  const wikitq = join(datasetsDir(), 'wikitq', 'csv')
  if (!existsSync(wikitq)) return
  for (const page of readdirSync(wikitq).sort())
    for (const file of readdirSync(join(wikitq, page)).sort()) {
      if (!/\.(csv|html)$/.test(file)) continue
      for (const [k, grid] of open(join(wikitq, page, file)).entries()) yield { id: `wikitq/${page}/${file}#${k}`, grid }
    }
}

/** One line per table. */
export function dumpLines(): string[] {
  const lines: string[] = []
  for (const { id, grid } of corpusGrids()) {
    const options = detectStructure(grid)
    const t = structureGrid(grid, options)
    lines.push(
      JSON.stringify({
        id,
        options: t.options,
        title: t.title ?? '',
        notes: t.notes ?? '',
        columns: t.columns,
        index: t.index,
        rows: t.rowSource,
        warnings: t.warnings ?? []
      })
    )
  }
  return lines
}

export function writeDump(file: string): number {
  const lines = dumpLines()
  writeFileSync(file, `${lines.join('\n')}\n`)
  return lines.length
}

/** Tables whose line differs between two dumps, by id, and what differs. */
export function compareDumps(a: string, b: string): { id: string; fields: string[] }[] {
  const read = (file: string): Map<string, Record<string, unknown>> =>
    new Map(
      readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l.length > 0)
        .map((l) => {
          const o = JSON.parse(l) as Record<string, unknown>
          return [String(o.id), o]
        })
    )
  const before = read(a)
  const after = read(b)
  const out: { id: string; fields: string[] }[] = []
  for (const id of new Set([...before.keys(), ...after.keys()])) {
    const x = before.get(id)
    const y = after.get(id)
    if (x === undefined || y === undefined) {
      out.push({ id, fields: [x === undefined ? 'added' : 'removed'] })
      continue
    }
    const fields = Object.keys({ ...x, ...y }).filter((k) => JSON.stringify(x[k]) !== JSON.stringify(y[k]))
    if (fields.length > 0) out.push({ id, fields })
  }
  return out
}
