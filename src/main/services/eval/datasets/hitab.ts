import { join } from 'node:path'
import { fail, ok } from '../../../../shared/result'
import type { EvalDataset, EvalQuestion, Split } from '../types'
import { asRecord, importTable, readJsonl, str } from './common'

/** HiTab: the 2022 final dev/test samples (what the paper's generation used) over the raw tables. */
export function loadHitab(root: string, split: Split): EvalDataset {
  const dir = join(root, 'hitab')
  const questions: EvalQuestion[] = readJsonl(join(dir, 'data', `${split}_samples.jsonl`)).map((line) => {
    const r = asRecord(line)
    const aggregation = Array.isArray(r.aggregation) ? r.aggregation.map(String).join('+') : 'none'
    return {
      id: String(r.id),
      question: typeof r.question === 'string' ? r.question : JSON.stringify(r.question),
      tableKey: String(r.table_id),
      gold: {
        kind: 'hitab',
        answer: Array.isArray(r.answer) ? r.answer : [r.answer],
        formulas: Array.isArray(r.answer_formulas) ? r.answer_formulas : [],
        referenceCells: Object.fromEntries(Object.entries(asRecord(r.reference_cells_map)).map(([k, v]) => [k, String(v)]))
      },
      types: { aggregation, source: str(r.table_source) }
    }
  })
  return {
    id: 'hitab',
    split,
    dir,
    questions,
    notes: [],
    async loadTables(tableKey) {
      const table = await importTable(join(dir, 'data', 'tables', 'raw', `${tableKey}.json`))
      return table.ok ? ok({ main: table.value, named: [] }) : fail(table.error.code, table.error.message, table.error.detail)
    }
  }
}
