import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fail, ok } from '../../../../shared/result'
import { importFile } from '../../tables/import'
import { structureGrid } from '../../tables/structure'
import type { EvalDataset, EvalQuestion, Split, TableSet } from '../types'
import { asRecord } from './common'
import { spiderHardness } from './spider-hardness'

/**
 * Spider dev: gold SQL from `dev_gold.sql` (aligned with `dev.json`), one table set per database. Questions
 * whose `.sqlite` is missing are kept and marked unscorable. Each database table becomes a flat ParsedTable
 * with the values SQLite stores (the importer's typed cells): a cell is a number only when SQLite stores one, so
 * text such as '1' stays text in the DataFrame as it is in the database, and NULL is a missing value.
 */
export function loadSpider(root: string, split: Split): EvalDataset {
  if (split !== 'dev') throw new Error('Spider has only a dev split here (the test set is not public in this copy).')
  const dir = join(root, 'spider')
  const records = JSON.parse(readFileSync(join(dir, 'dev.json'), 'utf8')) as unknown[]
  const gold = readFileSync(join(dir, 'dev_gold.sql'), 'utf8')
    .split('\n')
    .filter((l) => l.trim().length > 0)
  if (gold.length !== records.length) throw new Error(`dev_gold.sql has ${gold.length} lines for ${records.length} questions in dev.json.`)
  const dbPath = (db: string): string => join(dir, 'database', db, `${db}.sqlite`)
  const questions: EvalQuestion[] = records.map((rec, i) => {
    const r = asRecord(rec)
    const [sql = '', dbId = String(r.db_id)] = (gold[i] ?? '').split('\t')
    const path = dbPath(dbId)
    const present = existsSync(path)
    const q: EvalQuestion = {
      id: `spider-dev-${i}`,
      question: String(r.question),
      tableKey: dbId,
      gold: { kind: 'spider', sql, dbId, dbPath: present ? path : null },
      types: { hardness: spiderHardness(r.sql), db: dbId }
    }
    if (!present) q.unscorable = `database ${dbId} is missing (${dbId}.sqlite)`
    return q
  })
  return {
    id: 'spider',
    split,
    dir,
    questions,
    notes: [],
    async loadTables(dbId) {
      const path = dbPath(dbId)
      if (!existsSync(path)) return fail('not-found', `Database ${dbId} is missing.`)
      const grids = await importFile(`${dbId}.sqlite`, readFileSync(path))
      if (!grids.ok) return grids
      const named: TableSet['named'] = []
      for (const grid of grids.value) {
        const name = grid.relational?.table ?? grid.name
        const parsed = structureGrid(grid, { headerRows: 1, headerCols: 0, leftHierarchy: 'none' })
        named.push({ name, table: parsed })
      }
      return ok({ main: null, named })
    }
  }
}
