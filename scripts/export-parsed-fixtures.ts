/**
 * Write the ParsedTable of every HiTab and AIT-QA table, structured with detected headers, as JSON files
 * into the directory given as the first argument (`hitab-<id>.json`, `aitqa-<id>.json`).
 * Usage: npx tsx scripts/export-parsed-fixtures.ts <out-dir>
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { structureGrid } from '../src/main/services/tables/structure'
import {
  aitqaToGrid,
  hitabTableIds,
  hitabToGrid,
  readAitqaTables,
  readHitabTable
} from '../src/main/services/tables/structure/hitab-grid'

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
console.log(`wrote ${written} parsed tables to ${out}`)
