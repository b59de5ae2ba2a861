import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fail, ok } from '../../../../shared/result'
import { tsvUnescape, tsvUnescapeList } from '../score/wikitq'
import type { EvalDataset, EvalQuestion, Split } from '../types'
import { importTable } from './common'

const FILES: Record<Split, string> = { dev: 'data/random-split-1-dev.tsv', test: 'data/pristine-unseen-tables.tsv' }
const TAGGED: Record<Split, string | null> = { dev: null, test: 'tagged/data/pristine-unseen-tables.tagged' }

function readTsv(path: string): Record<string, string>[] {
  const [head, ...lines] = readFileSync(path, 'utf8').split('\n')
  const names = (head ?? '').split('\t')
  return lines
    .filter((l) => l.length > 0)
    .map((l) => {
      const parts = l.split('\t')
      return Object.fromEntries(names.map((n, i) => [n, parts[i] ?? '']))
    })
}

/**
 * WikiTQ: questions from the split's TSV; gold `targetValue` with `targetCanon` from the tagged file
 * where the split has one (test). Dev has no canon, so each gold item is typed from its own text, as
 * the evaluator does when the tagged file is absent.
 */
export function loadWikitq(root: string, split: Split): EvalDataset {
  const dir = join(root, 'wikitq')
  const canon = new Map<string, string[]>()
  const tagged = TAGGED[split]
  const notes: string[] = []
  if (tagged !== null && existsSync(join(dir, tagged))) {
    for (const r of readTsv(join(dir, tagged))) canon.set(r.id ?? '', tsvUnescapeList(r.targetCanon ?? ''))
  } else {
    notes.push('No targetCanon for this split: gold items are typed from their own text (README: training.tagged is missing).')
  }
  const questions: EvalQuestion[] = readTsv(join(dir, FILES[split])).map((r) => {
    const id = r.id ?? ''
    const values = tsvUnescapeList(r.targetValue ?? '')
    const c = canon.get(id)
    return {
      id,
      question: tsvUnescape(r.utterance ?? ''),
      tableKey: r.context ?? '',
      gold: { kind: 'wikitq', values, canon: c !== undefined && c.length === values.length ? c : null },
      types: {}
    }
  })
  return {
    id: 'wikitq',
    split,
    dir,
    questions,
    notes,
    async loadTables(tableKey) {
      const table = await importTable(join(dir, tableKey))
      return table.ok ? ok({ main: table.value, named: [] }) : fail(table.error.code, table.error.message, table.error.detail)
    }
  }
}
