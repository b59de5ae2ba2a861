/**
 * Oracle benchmark: gold programs (HiTab formulas over header paths, Spider gold SQL through sqldf) run on
 * CPython with pandas and scored by the official rules. Metrics: EA per dataset and split, questions per
 * second. `npm run bench -- oracle [--limit N] [--json FILE]`.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import type { SuiteResult } from '../bench'
import { evaluate, type RunSummary } from '../../src/main/services/eval'
import type { DatasetId, Split } from '../../src/main/services/eval/types'

const RUNS: { dataset: DatasetId; split: Split }[] = [
  { dataset: 'hitab', split: 'dev' },
  { dataset: 'hitab', split: 'test' },
  { dataset: 'spider', split: 'dev' }
]

export async function run(args: string[]): Promise<SuiteResult> {
  const { values } = parseArgs({ args, strict: false, options: { limit: { type: 'string' }, data: { type: 'string' } } })
  const limit = typeof values.limit === 'string' ? Number(values.limit) : undefined
  const out = mkdtempSync(join(tmpdir(), 'tableqa-bench-oracle-'))
  const metrics: Record<string, number> = {}
  const details: Record<string, Omit<RunSummary, 'missExamples'> & { missExamples: RunSummary['missExamples'] }> = {}
  try {
    for (const r of RUNS) {
      const summary = await evaluate({
        dataset: r.dataset,
        split: r.split,
        source: 'oracle',
        limit,
        apis: 'full',
        tableRepr: 'multiindex',
        lang: 'python',
        select: 'greedy',
        concurrency: 2,
        out: join(out, `${r.dataset}-${r.split}`),
        data: typeof values.data === 'string' ? values.data : undefined
      })
      const name = `${r.dataset}_${r.split}`
      metrics[`${name}_ea_pct`] = Number(summary.ea.toFixed(2))
      metrics[`${name}_scored`] = summary.scored
      metrics[`${name}_unscorable`] = summary.unscorable.count
      metrics[`${name}_questions_per_s`] = Number(summary.questionsPerSecond.toFixed(2))
      details[name] = summary
    }
  } finally {
    rmSync(out, { recursive: true, force: true })
  }
  return { metrics, details }
}
