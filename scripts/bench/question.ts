/**
 * Question benchmark: what the app adds to the model's time for one question, with fresh interpreters
 * per question (the unit of isolation) and warm spares already holding the open table. The model is the
 * scripted OpenAI-compatible server answering at once with five distinct programs, so the figures are
 * the app's own: prompt, HTTP, candidates run side by side as their samples arrive, selection.
 *
 * - question_overhead_p50_ms / _p95_ms: a 5-candidate question on a HiTab table, spares warm before each;
 *   overhead is the question's wall time minus the model's (the generation time the pipeline measured).
 * - question_overhead_200k_p50_ms: the same on an open 200,000-row CSV.
 * - question_back_to_back_p50_ms: wall time of ten questions asked one after another, not waiting for spares.
 * - eval_model_mode_questions_per_s: `evaluate` in model mode (local CPython, the evaluation's executor) on HiTab dev.
 *
 * `npm run bench -- question [--json FILE] [--questions N] [--eval-limit N]`
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { testExecutor } from '../../test/support/executor'
import { startScriptedServer } from '../../test/support/scripted-openai-server'
import { evaluate } from '../../src/main/services/eval'
import { MemorySecretStore, ModelClient } from '../../src/main/services/model'
import { datasetsDir } from '../../src/main/services/paths'
import { ENDPOINT_DEFAULTS } from '../../src/main/services/settings/endpoints'
import { ask } from '../../src/main/services/pipeline/ask'
import type { PythonExecutor } from '../../src/main/services/python/executor'
import { encodeTable } from '../../src/main/services/python/types'
import { importFile } from '../../src/main/services/tables/import'
import { structureGrid } from '../../src/main/services/tables/structure'
import type { ParsedTable } from '../../src/shared/table'
import type { SuiteResult } from '../bench'

const HITAB_TABLE = join('hitab', 'data', 'tables', 'raw', '1004.json')
const BIG_ROWS = 200_000
const BACK_TO_BACK = 10

// Five distinct programs (a repeated program runs once), on the `rows` every executor gives.
export const PROGRAMS = [
  'answer = len(rows)',
  'answer = sum(1 for r in rows)',
  'answer = len([r for r in rows if r])',
  'answer = len(list(rows))',
  'n = 0\nfor r in rows:\n    n += 1\nanswer = n'
]
const fenced = (code: string): string => `\`\`\`python\n${code}\n\`\`\``

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[index] ?? Number.NaN
}

const round = (x: number): number => Math.round(x * 10) / 10

async function importTable(name: string, bytes: Uint8Array): Promise<ParsedTable> {
  const grids = await importFile(name, bytes)
  if (!grids.ok || !grids.value[0]) throw new Error(`cannot import ${name}`)
  return structureGrid(grids.value[0])
}

function bigCsv(): Uint8Array {
  const lines = ['region,year,amount,count']
  for (let i = 0; i < BIG_ROWS; i++) lines.push(`region ${i % 97},${2000 + (i % 20)},${(i * 7.31) % 1000},${i % 13}`)
  return new TextEncoder().encode(lines.join('\n'))
}

type Timing = { wallMs: number; modelMs: number; overheadMs: number; answered: boolean }

async function askOnce(client: ModelClient, executor: PythonExecutor, table: ParsedTable, tableId: string, k: number): Promise<Timing> {
  const t0 = performance.now()
  const result = await ask(
    { tables: [{ name: tableId, table, tableId }], question: `how many rows are there? (${k})`, options: { n: PROGRAMS.length } },
    { client, executor }
  )
  const wallMs = performance.now() - t0
  if (!result.ok) throw new Error(result.error.message)
  const modelMs = result.value.timings.generateMs
  return { wallMs, modelMs, overheadMs: wallMs - modelMs, answered: result.value.answer !== null }
}

async function series(
  client: ModelClient,
  executor: PythonExecutor,
  table: ParsedTable,
  tableId: string,
  count: number,
  waitForSpares: boolean
): Promise<Timing[]> {
  const out: Timing[] = []
  for (let k = 0; k < count; k++) {
    if (waitForSpares && !(await executor.whenWarm())) throw new Error('the spares did not warm up within 2 minutes')
    out.push(await askOnce(client, executor, table, tableId, k))
  }
  return out
}

type Summary = { overheadP50: number; overheadP95: number; wallP50: number; modelP50: number; unanswered: number }

function summary(timings: Timing[]): Summary {
  const overhead = timings.map((t) => t.overheadMs).sort((a, b) => a - b)
  const wall = timings.map((t) => t.wallMs).sort((a, b) => a - b)
  return {
    overheadP50: round(percentile(overhead, 50)),
    overheadP95: round(percentile(overhead, 95)),
    wallP50: round(percentile(wall, 50)),
    modelP50: round(
      percentile(
        timings.map((t) => t.modelMs).sort((a, b) => a - b),
        50
      )
    ),
    unanswered: timings.filter((t) => !t.answered).length
  }
}

export async function run(args: string[]): Promise<SuiteResult> {
  const { values } = parseArgs({ args, strict: false, options: { questions: { type: 'string' }, 'eval-limit': { type: 'string' } } })
  const questions = Number(values.questions ?? 20)
  const evalLimit = Number(values['eval-limit'] ?? 30)
  const server = await startScriptedServer({
    rules: [{ reply: { choices: PROGRAMS.map((code, i) => ({ text: fenced(code), logprobs: [-0.1 * (i + 1)] })) } }]
  })
  const client = new ModelClient(
    { id: 'bench', name: 'scripted', baseUrl: server.url, model: 'test-model', api: 'chat', ...ENDPOINT_DEFAULTS },
    { secrets: new MemorySecretStore() }
  )
  const executor = testExecutor({ poolSize: 2 }, 30_000)
  try {
    await executor.start()
    const hitab = await importTable('1004.json', new Uint8Array(readFileSync(join(datasetsDir(), HITAB_TABLE))))
    await executor.loadTable('hitab', encodeTable(hitab))
    await series(client, executor, hitab, 'hitab', 2, true) // warm-up: JIT, HTTP keep-alive
    const small = await series(client, executor, hitab, 'hitab', questions, true)
    const backToBack = await series(client, executor, hitab, 'hitab', BACK_TO_BACK, false)
    await executor.dropTable('hitab')

    const big = await importTable('big.csv', bigCsv())
    await executor.loadTable('big', encodeTable(big))
    const large = await series(client, executor, big, 'big', Math.max(5, Math.round(questions / 2)), true)
    await executor.dropTable('big')
    await executor.close()

    const evalStart = performance.now()
    const evalRun = await evaluate({
      dataset: 'hitab',
      split: 'dev',
      source: { client, label: 'bench-scripted' },
      n: PROGRAMS.length,
      limit: evalLimit,
      apis: 'full',
      tableRepr: 'multiindex',
      lang: 'python',
      select: 'logprob',
      concurrency: 2,
      out: join('bench-results', `question-eval-${Date.now()}`),
      progress: false
    })
    const evalSeconds = (performance.now() - evalStart) / 1000
    const s = summary(small)
    const l = summary(large)
    const b = summary(backToBack)
    return {
      metrics: {
        question_overhead_p50_ms: s.overheadP50,
        question_overhead_p95_ms: s.overheadP95,
        question_overhead_200k_p50_ms: l.overheadP50,
        question_back_to_back_p50_ms: b.wallP50,
        eval_model_mode_questions_per_s: Math.round(evalRun.questionsPerSecond * 100) / 100
      },
      details: {
        executor: 'pyodide',
        poolSize: 2,
        small,
        large,
        backToBack,
        summaries: { small: s, large: l, backToBack: b },
        eval: {
          questions: evalRun.questions,
          seconds: evalRun.seconds,
          wallSeconds: round(evalSeconds),
          ea: evalRun.ea,
          executor: 'cpython'
        }
      }
    }
  } finally {
    await executor.close()
    await server.close()
  }
}
