/**
 * Headless evaluation: `evaluate(options)` loads a dataset, starts one CPython executor for the whole run,
 * takes candidates from the oracle (gold annotations) or a model, and writes the log and summaries.
 */
import { join } from 'node:path'
import type { SelectionMode } from '../../../shared/model'
import type { ModelClient } from '../model'
import { DEFAULTS as ASK_DEFAULTS } from '../pipeline/generate'
import { createCPythonExecutor } from '../python/cpython-executor'
import type { Executor } from '../python/types'
import { loadDataset, resolveDataDir } from './datasets'
import { modelSource, type ModelOptions } from './model-source'
import { hitabGoldCheck, oracleSource } from './oracle/sources'
import { runEval } from './runner'
import { goldQuery } from './spider-gold'
import type { RunSummary } from './summary'
import type { CandidateSource, DatasetId, Split } from './types'

export type EvalOptions = {
  dataset: DatasetId
  split: Split
  /**
   * Where candidates come from: 'oracle' (programs from the gold annotations), or a model client the
   * caller opened (scripts/lib/model-client.ts opens one from the command line's endpoint flags).
   */
  source: 'oracle' | { client: ModelClient; label: string }
  /** Samples per question and their temperature (model mode); default the paper's 5 at 0.7. */
  n?: number
  temperature?: number
  /** Questions of the split to leave out before the first one asked (default 0). */
  offset?: number
  limit?: number
  apis: ModelOptions['apis']
  tableRepr: ModelOptions['tableRepr']
  lang: ModelOptions['lang']
  select: SelectionMode
  concurrency: number
  out?: string
  data?: string
  timeoutMs?: number
  progress?: boolean
  /** Execution feedback: each failed candidate is corrected with its error (model mode). */
  repair?: boolean
  /** How many times a failed candidate may be corrected (model mode, with repair). Default: the app's. */
  repairRounds?: number
  /** The prompt profile (model mode); the endpoint's default when absent. */
  profile?: 'paper' | 'compact'
  /** An executor to use instead of starting a CPython one (tests). */
  executor?: Executor
}

export function defaultOutDir(o: EvalOptions): string {
  const who = o.source === 'oracle' ? 'oracle' : o.source.label
  const sampling = o.source === 'oracle' ? '' : `-n${o.n ?? ASK_DEFAULTS.n}-t${o.temperature ?? ASK_DEFAULTS.temperature}`
  return join(
    'eval-runs',
    `${o.dataset}-${o.split}-${who.replace(/[^A-Za-z0-9._-]+/g, '_')}-${o.tableRepr}-${o.apis}-${o.lang}-${o.select}${sampling}`
  )
}

export async function evaluate(o: EvalOptions): Promise<RunSummary> {
  const oracle = o.source === 'oracle'
  const n = o.n ?? ASK_DEFAULTS.n
  const temperature = o.temperature ?? ASK_DEFAULTS.temperature
  const rounds = o.repairRounds ?? ASK_DEFAULTS.repairRounds
  let source: CandidateSource | undefined
  const executor =
    o.executor ??
    createCPythonExecutor({
      python: process.env.TABLEQA_PYTHON ?? 'python3',
      config: { poolSize: Math.max(1, o.concurrency) },
      defaultTimeoutMs: o.timeoutMs ?? 60_000
    })
  const gold = goldQuery(executor)
  try {
    const dataset = loadDataset(o.dataset, o.split, resolveDataDir(o.data))
    source =
      o.source === 'oracle' ? oracleSource(dataset, gold) : modelSource(o.source.client, { ...o, n, temperature, repairRounds: rounds })
    await executor.start()
    return await runEval({
      dataset,
      source,
      executor,
      gold,
      ...(dataset.id === 'hitab' ? { goldCheck: hitabGoldCheck(dataset) } : {}),
      out: o.out ?? defaultOutDir(o),
      config: {
        dataset: o.dataset,
        split: o.split,
        endpoint: o.source === 'oracle' ? 'oracle' : o.source.label,
        apis: o.apis,
        tableRepr: o.tableRepr,
        lang: oracle ? 'gold' : o.lang,
        select: o.select,
        ...(oracle ? {} : { n, temperature }),
        // Written only when on, so that logs of runs without it resume as before.
        ...(!oracle && o.repair === true ? { repair: 'on' } : {}),
        // Likewise the rounds: a log of one round per candidate resumes as before.
        ...(!oracle && o.repair === true && rounds !== 1 ? { repairRounds: rounds } : {}),
        ...(!oracle && o.profile !== undefined && o.profile !== 'paper' ? { profile: o.profile } : {})
      },
      offset: o.offset,
      limit: o.limit,
      concurrency: o.concurrency,
      select: o.select,
      tableRepr: o.tableRepr,
      timeoutMs: o.timeoutMs ?? 60_000,
      progress: o.progress
    })
  } finally {
    if (o.executor === undefined) await executor.close()
    await source?.close?.()
  }
}

export type { RunSummary } from './summary'
export { summaryMarkdown } from './summary'
