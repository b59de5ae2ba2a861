/**
 * Write the ParsedTable of every HiTab and AIT-QA table, and of every sheet (every table of a sheet of tables
 * side by side) of the real spreadsheets in datasets/spreadsheets, structured with detected headers, as JSON
 * files into the directory given as the first argument (`hitab-<id>.json`, `aitqa-<id>.json`,
 * `sheet-<file>-<n>.json`).
 * Usage: npx tsx scripts/export-parsed-fixtures.ts <out-dir>
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { importFileSync } from '../src/main/services/tables/import'
import { splitSideBySide, structureGrid } from '../src/main/services/tables/structure'
import {
  aitqaToGrid,
  hitabTableIds,
  hitabToGrid,
  readAitqaTables,
  readHitabTable,
  spreadsheetPaths
} from '../src/main/services/eval/datasets/hitab-grid'

const out = process.argv[2]
if (out === undefined || out.length === 0) {
  console.error('usage: export-parsed-fixtures <out-dir>')
  process.exit(2)
}
mkdirSync(out, { recursive: true })
let written = 0
for (const id of hitabTableIds()) {
  const parsed = structureGrid(hitabToGrid(id, readHitabTable(id)))
  writeFileSync(join(out, `hitab-${id.replace(/[^A-Za-z0-9_.-]/g, '_')}.json`), JSON.stringify(parsed))
  written++
}
for (const t of readAitqaTables()) {
  writeFileSync(join(out, `aitqa-${t.id}.json`), JSON.stringify(structureGrid(aitqaToGrid(t))))
  written++
}
for (const file of spreadsheetPaths()) {
  const read = importFileSync(basename(file), new Uint8Array(readFileSync(file)))
  if (!read.ok) throw new Error(`${file}: ${read.error.message}`)
  // As the app opens them: tables side by side on one sheet are one table each.
  read.value.flatMap(splitSideBySide).forEach((grid, n) => {
    writeFileSync(join(out, `sheet-${basename(file).replace(/[^A-Za-z0-9_.-]/g, '_')}-${n}.json`), JSON.stringify(structureGrid(grid)))
    written++
  })
}
console.log(`wrote ${written} parsed tables to ${out}`)
