/**
 * `npm run bench -- replay --keep DIR [--sample wikitq:20,hitab:10] [--rounds N] [--out DIR] [--data DIR]`: the programs a
 * model run logged (the `--keep` folder of `npm run bench -- model`) run again with this checkout's runtime,
 * without a model, and scored as the model bench scores them, beside the figures the run logged. A change
 * to the runtime (how tables are built, what `.loc` reads, the Operation APIs) is measured this way on real
 * model programs in a minute instead of hours. Each candidate's final program is run (after a repair, the
 * repaired one; with `--rounds N`, the program it had after N repairs, so that a run with more repair rounds
 * also says what fewer would have given on the same draws); `qa()` calls fail, as there is no model to answer them, so a program that asks one runs
 * here only if it did without the answer. Each question's answer is chosen by the rule the kept run used
 * (its `run.json`; the app's default when that is missing), as is the progress line's EA. The sample defaults
 * to the datasets the folder holds, all of their logged questions.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { SuiteResult } from '../bench'
import { loadDataset, resolveDataDir } from '../../src/main/services/eval/datasets'
import { hitabGoldCheck } from '../../src/main/services/eval/oracle/sources'
import { runEval } from '../../src/main/services/eval/runner'
import { goldQuery } from '../../src/main/services/eval/spider-gold'
import {
  DATASETS,
  type CandidateProgram,
  type CandidateSource,
  type DatasetId,
  type QuestionRecord
} from '../../src/main/services/eval/types'
import { createCPythonExecutor } from '../../src/main/services/python/cpython-executor'
import { programAtRound } from '../../src/shared/ask'
import type { SelectionMode } from '../../src/shared/model'
import { DEFAULT_SELECTION } from '../../src/shared/settings'
import { anyRight, eaWith, partQuestions, partRange, programs, records, sampleOf, type SamplePart } from './model-report'

/**
 * A logged question's candidates as the runner takes them: the program to run and its log-probability; the
 * program each had after `rounds` repairs when given, else its final one.
 */
export function loggedCandidates(record: QuestionRecord, rounds?: number): CandidateProgram[] {
  return record.candidates.map((c) => {
    const program = rounds === undefined ? c.program : programAtRound(c.program, c.repairedFrom, rounds)
    return program === ''
      ? { program: '', lang: 'python', error: 'the reply held no program' }
      : { program, lang: c.lang ?? 'python', logprobSum: c.logprobSum ?? null, logprobMean: c.logprobMean ?? null }
  })
}

/** The selection rule a kept run's folder says it used (its `run.json`), else the app's default. */
export function keptSelection(folder: string): SelectionMode {
  try {
    const config = JSON.parse(readFileSync(join(folder, 'run.json'), 'utf8')) as { select?: unknown }
    if (config.select === 'vote' || config.select === 'logprob') return config.select
  } catch {
    // No run.json, or not one the bench wrote: the default.
  }
  return DEFAULT_SELECTION
}

type Figures = { ranPct: number; eaLogprobPct: number; eaVotePct: number; anyRightPct: number; questions: number }

function figures(rs: QuestionRecord[]): Figures {
  return {
    ranPct: programs(rs).ranPct,
    eaLogprobPct: eaWith(rs, 'logprob'),
    eaVotePct: eaWith(rs, 'vote'),
    anyRightPct: anyRight(rs),
    questions: rs.length
  }
}

export async function run(args: string[]): Promise<SuiteResult> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      keep: { type: 'string' },
      sample: { type: 'string' },
      rounds: { type: 'string' },
      out: { type: 'string' },
      data: { type: 'string' }
    }
  })
  const rounds = values.rounds === undefined ? undefined : Number(values.rounds)
  if (rounds !== undefined && (!Number.isInteger(rounds) || rounds < 0))
    throw new Error('--rounds must be a whole number (0: the sampled programs)')
  if (values.keep === undefined) throw new Error('give --keep DIR: the folder a model bench run kept (npm run bench -- model --keep DIR)')
  const keep = resolve(values.keep)
  if (!existsSync(keep)) throw new Error(`${keep} does not exist`)
  const held = readdirSync(keep).filter((d) => DATASETS.some((ds) => d === `${ds}-dev`) && existsSync(join(keep, d, 'questions.jsonl')))
  if (held.length === 0) throw new Error(`${keep} holds no question logs (DATASET-dev/questions.jsonl)`)
  const dataDir = resolveDataDir(values.data)
  const sample: SamplePart[] =
    values.sample === undefined
      ? held.map((d) => {
          const ds = d.replace(/-dev$/, '') as DatasetId
          return { dataset: ds, offset: 0, count: loadDataset(ds, 'dev', dataDir).questions.length }
        })
      : sampleOf(values.sample, undefined)
  const out = resolve(values.out ?? mkdtempSync(join(tmpdir(), 'tableqa-replay-')))
  const metrics: Record<string, number> = {}
  const details: Record<string, { logged: Figures; replayed: Figures }> = {}
  const all = { logged: [] as QuestionRecord[], replayed: [] as QuestionRecord[] }
  for (const part of sample) {
    const ds = part.dataset
    const folder = join(keep, `${ds}-dev`)
    if (!existsSync(join(folder, 'questions.jsonl'))) throw new Error(`${keep} has no log of ${ds} dev questions`)
    const dataset = loadDataset(ds, 'dev', dataDir)
    const ids = new Set(partQuestions(part, dataset.questions).map((q) => q.id))
    const logged = records(folder, ids)
    const byId = new Map(logged.map((r) => [r.id, r]))
    // Only the questions the run answered are replayed and compared.
    const asked = new Set(byId.keys())
    const source: CandidateSource = {
      name: `replay of ${keep}`,
      candidates: (q) => Promise.resolve({ candidates: loggedCandidates(byId.get(q.id) as QuestionRecord, rounds) })
    }
    const executor = createCPythonExecutor({
      python: process.env.TABLEQA_PYTHON ?? 'python3',
      config: { poolSize: 1 },
      defaultTimeoutMs: 60_000
    })
    await executor.start()
    const dir = join(out, `${ds}-dev`)
    try {
      await runEval({
        dataset: { ...dataset, questions: partQuestions(part, dataset.questions).filter((q) => asked.has(q.id)) },
        source,
        executor,
        gold: goldQuery(executor),
        ...(ds === 'hitab' ? { goldCheck: hitabGoldCheck(dataset) } : {}),
        out: dir,
        config: { replay: keep, dataset: ds, ...(rounds === undefined ? {} : { rounds }) },
        concurrency: 1,
        select: keptSelection(folder),
        tableRepr: 'multiindex',
        timeoutMs: 60_000
      })
    } finally {
      await executor.close()
    }
    const replayed = records(dir, asked)
    details[ds] = { logged: figures(logged), replayed: figures(replayed) }
    all.logged.push(...logged)
    all.replayed.push(...replayed)
    for (const [k, v] of Object.entries(details[ds].replayed)) if (k !== 'questions') metrics[`replay_${ds}_${snake(k)}`] = v
    for (const [k, v] of Object.entries(details[ds].logged)) if (k !== 'questions') metrics[`logged_${ds}_${snake(k)}`] = v
    console.error(`${ds} dev: ${logged.length} logged questions replayed (logs in ${dir})`)
  }
  const total = { logged: figures(all.logged), replayed: figures(all.replayed) }
  metrics['replay_ran_pct'] = total.replayed.ranPct
  metrics['logged_ran_pct'] = total.logged.ranPct
  metrics['replay_ea_vote_pct'] = total.replayed.eaVotePct
  metrics['logged_ea_vote_pct'] = total.logged.eaVotePct
  return {
    metrics,
    details: {
      keep,
      out,
      sample: Object.fromEntries(sample.map((p) => [p.dataset, partRange(p)])),
      ...(rounds === undefined ? {} : { rounds }),
      datasets: details,
      total
    }
  }
}

function snake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
}
