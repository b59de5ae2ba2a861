import { join } from 'node:path'
import { fail, ok } from '../../../../shared/result'
import type { EvalDataset, EvalQuestion, Split } from '../types'
import { printedNumberCanon } from '../score/wikitq'
import { asRecord, importTable, readJsonl, str } from './common'

/**
 * AIT-QA: one question set (no dev/test split upstream); both split names give all of it. Its answers are
 * cell texts as the filings print them (`1,114`, `$2,129`, `(0.5)%`); each gets the number it stands for
 * as its canonical form, so the WikiTQ matcher compares numbers as numbers, as it does with WikiTQ's own
 * canonical forms, and still accepts the printed text.
 */
export function loadAitqa(root: string, split: Split): EvalDataset {
  const dir = join(root, 'aitqa')
  const tables = new Map<string, string>()
  for (const line of readJsonl(join(dir, 'raw_data', 'aitqa_tables.jsonl'))) tables.set(String(asRecord(line).id), JSON.stringify(line))
  const questions: EvalQuestion[] = readJsonl(join(dir, 'raw_data', 'aitqa_questions.jsonl')).map((line) => {
    const r = asRecord(line)
    const values = Array.isArray(r.answers) ? r.answers.map(String) : []
    return {
      id: String(r.id),
      question: String(r.question),
      tableKey: String(r.table_id),
      gold: { kind: 'wikitq', values, canon: values.map((v) => printedNumberCanon(v) ?? v) },
      types: { type: str(r.type), hierarchy: `row_hierarchy_needed=${str(r.row_hierarchy_needed)}` }
    }
  })
  return {
    id: 'aitqa',
    split,
    dir,
    questions,
    notes: ['AIT-QA has a single question set; --split dev and --split test both evaluate all of it.'],
    async loadTables(tableKey) {
      const text = tables.get(tableKey)
      if (text === undefined) return fail('not-found', `AIT-QA table ${tableKey} is not in aitqa_tables.jsonl.`)
      const table = await importTable(`${tableKey}.json`, new TextEncoder().encode(text), `${tableKey}.json`)
      return table.ok ? ok({ main: table.value, named: [] }) : fail(table.error.code, table.error.message, table.error.detail)
    }
  }
}
