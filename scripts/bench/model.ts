/**
 * The built-in model's benchmark: `npm run bench -- model [--model PATH] [--threads N] [--context N] [--gpu auto|cpu]
 * [--n 5] [--sample wikitq:50,hitab:50,aitqa:25,spider:25] [--limit N] [--select logprob|vote] [--repair on|off] [--repair-rounds N] [--profile paper|compact]
 * [--seeds fixed|random] [--keep DIR] [--data DIR] [--logprob-cost] [--no-speed] [--cancel-only] [--json FILE]`.
 * It loads the model in its own engine process, as the app does, and answers a fixed sample through the
 * evaluation (the app's prompt, sampling, extraction, CPython execution and official scoring): by default
 * the first 50 WikiTQ dev, 50 HiTab dev, 25 AIT-QA dev and 25 Spider dev questions (`--limit N` sets the
 * WikiTQ and HiTab counts, `--sample` all of them, or a range: `wikitq:26-50`). Without --model it runs the built-in endpoint's model
 * from the data folder (`npm run setup:model`). With --keep DIR the question logs and every engine request's
 * timings (DIR/engine.jsonl) stay in DIR, and the same command run again there asks only the questions not
 * answered yet and reports over all of them, so a run can span sittings. `--repair` (on by default, as the
 * app does for the built-in model) asks once more, with the error, for each candidate whose program failed,
 * and again for a correction that fails too, up to `--repair-rounds` times per candidate (the app's default, 1);
 * `--profile` lays the prompt out as the paper does or compactly (the built-in model's default).
 * `--seeds fixed` (the default) seeds each engine request from its input, so that two versions of the code
 * that build the same prompt draw mostly the same programs (not all: the same prompt is not always read in
 * the same chunks, see docs/BENCHMARKS.md) and a comparison shows less of the spread between draws;
 * `--seeds random` samples as the app does, to see the spread between runs.
 *
 * Metrics (over WikiTQ and HiTab unless named for a dataset; left out when the sample has neither):
 * - model_load_ms, model_rss_mb: the engine process loading the model; its largest resident memory.
 * - model_prompt_tokens_per_s, model_gen_tokens_per_s: prompt tokens evaluated per second (tokens the engine
 *   held already, in memory or on disk, are not counted), sampled tokens per second.
 * - model_prompt_tokens_evaluated_p50: median over questions of the prompt tokens the engine evaluated.
 * - model_first_answer_p50_ms: median from a question's start to its first candidate that ran.
 * - model_question_p50_ms: median time of a question: prompt, sampling, running every candidate, choosing.
 * - model_parallel_speedup: sampled tokens per second with n samples decoded side by side over one after
 *   another, the same prompt and seeds, in the same run.
 * - model_prefix_eval_ms / model_prefix_load_ms: evaluating (and saving) the fixed part of a prompt, and
 *   reading it back from disk in a new engine process.
 * - model_programs_extracted_pct / model_programs_ran_pct: of all samples, those whose reply held a
 *   program, and those whose program ran to an answer without an error (after any repair);
 *   model_programs_ran_first_pct: those whose first program did.
 * - model_ea_pct: execution accuracy with the selection rule asked for; model_ea_logprob_pct and
 *   model_ea_vote_pct: the same candidates chosen by log-probability and by execution vote;
 *   model_ea_<dataset>_pct, model_ea_<dataset>_vote_pct and model_programs_ran_<dataset>_pct per dataset;
 *   model_any_right_pct: questions where some candidate is right.
 * - model_cancel_max_ms: the longest of three cancels while the prompt is read and three while sampling.
 *
 * Details give the misses by kind (and failed programs by error), the agreement calibration table, the
 * backend and layers offloaded, samples that ran to the token cap, and (with --logprob-cost) what the
 * sampled tokens' log-probabilities cost (./model-logprobs.ts). --cancel-only measures loading and
 * cancelling alone, in a minute. --no-speed leaves out the parallel, prefix and cancel measurements (the
 * last two take 5–10 minutes with the 1.5B model), so a run ends with its last question.
 */
import { createHash } from 'node:crypto'
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { SuiteResult } from '../bench'
import type { EndpointConfig } from '../../src/shared/model'
import { evaluate, type RunSummary } from '../../src/main/services/eval'
import { loadDataset, resolveDataDir } from '../../src/main/services/eval/datasets'
import type { QuestionRecord } from '../../src/main/services/eval/types'
import { EngineHost, type EngineJob, type EngineResult } from '../../src/main/services/local-model/engine-host'
import type { GenerateStats } from '../../src/main/services/local-model/engine-protocol'
import { physicalCores } from '../../src/main/services/local-model/hardware'
import { DEFAULT_CONTEXT, engineStateDir, LocalModels } from '../../src/main/services/local-model/models'
import { nodeEngineSpawner } from '../../src/main/services/local-model/spawn-node'
import { MemorySecretStore, ModelClient } from '../../src/main/services/model'
import { engineInput, ENGINE_SEQUENCES } from '../../src/main/services/model/builtin'
import { DEFAULTS as ASK_DEFAULTS, MAX_REPAIR_ROUNDS, prepare } from '../../src/main/services/pipeline/generate'
import { appRoot, defaultDataDir } from '../../src/main/services/paths'
import { BUILTIN_ID, BUILTIN_NAME, builtinSettings, promptBudget, SETTINGS_STORE } from '../../src/main/services/settings'
import { openFileStore } from '../../src/main/services/store/store'
import type { Result } from '../../src/shared/result'
import { DEFAULT_SELECTION } from '../../src/shared/settings'
import { measureLogprobCost } from './model-logprobs'
import {
  anyRight,
  calibration,
  eaWith,
  missKinds,
  partQuestions,
  partRange,
  pct,
  programs,
  records,
  sampleOf,
  timing
} from './model-report'

const TEMPERATURE = 0.7

/** One engine request as the bench keeps it: its timings, or why it failed. */
type Call = { candidates: boolean; firstSampleMs: number | null; stats: GenerateStats | null; error: string | null }

/**
 * The app's engine host, with every request's timings kept. With a log file, the timings of the requests
 * made while `logging` is on are also appended to it, so that a run resumed in the same --keep folder
 * reports the engine's figures over every question, not only over the ones it asked itself.
 */
/**
 * How samples are seeded: `fixed` seeds each request from its input, so that two versions of the code that
 * build the same prompt draw mostly the same programs; `random` as the app does.
 */
export type Seeds = 'fixed' | 'random'

/** A seed made from a request's input: the first 31 bits of its sha256. */
export function inputSeed(input: EngineJob['input']): number {
  return createHash('sha256').update(JSON.stringify(input)).digest().readUInt32BE(0) & 0x7fffffff
}

/** The seeding a --keep folder was begun with (`random` for a folder begun before seeds were recorded); null for a new one. */
function keptSeeds(out: string): Seeds | null {
  const file = join(out, 'seeds')
  if (existsSync(file)) return readFileSync(file, 'utf8').trim() === 'random' ? 'random' : 'fixed'
  return existsSync(join(out, 'engine.jsonl')) ? 'random' : null
}

class MeasuringHost extends EngineHost {
  readonly calls: Call[] = []
  /** The model spec the app's client asked for, to make requests of the same engine. */
  lastModel: EngineJob['model'] | null = null
  logging = false

  constructor(
    private readonly candidateN: number,
    private readonly log: string | null = null,
    /** `fixed`: a request without a seed gets one made from its input, so the same prompt draws the same tokens. */
    private readonly seeds: Seeds = 'fixed'
  ) {
    super(nodeEngineSpawner())
  }

  override async generate(job: EngineJob): Promise<Result<EngineResult>> {
    this.lastModel = job.model
    const startedAt = Date.now()
    let firstSampleMs: number | null = null
    const result = await super.generate({
      ...job,
      ...(this.seeds === 'fixed' && job.seed === undefined ? { seed: inputSeed(job.input) } : {}),
      onSample: (index, sample) => {
        firstSampleMs ??= Date.now() - startedAt
        job.onSample?.(index, sample)
      }
    })
    // `qa(...)` sub-questions are single greedy samples; the candidates are the bench's n at its temperature.
    const call: Call = {
      candidates: job.n === this.candidateN && job.temperature === TEMPERATURE,
      firstSampleMs,
      stats: result.ok ? result.value.stats : null,
      error: result.ok ? null : `${result.error.code}: ${result.error.message}`
    }
    this.calls.push(call)
    if (this.logging && this.log !== null) appendFileSync(this.log, `${JSON.stringify(call)}\n`)
    return result
  }
}

type CancelStop = { during: 'prompt' | 'generation'; stopMs: number; hardStop: boolean }

/**
 * Cancels requests, once while the prompt is read and once while tokens are generated, each `times`
 * times, and measures from the abort to the engine being free for the next request (it stops by itself,
 * or is stopped hard after the host's grace period: a restart counts as a hard stop).
 */
export async function measureCancel(host: EngineHost, job: Omit<EngineJob, 'signal'>, times: number): Promise<CancelStop[]> {
  const out: CancelStop[] = []
  for (const during of ['prompt', 'generation'] as const) {
    for (let i = 0; i < times; i += 1) {
      // A loaded engine first, so that a restart after the last trial's hard stop is not counted in this one.
      await host.generate({ ...job, n: 1, maxTokens: 1 })
      const controller = new AbortController()
      const starts = host.status().starts
      let abortedAt = 0
      const abort = (): void => {
        if (abortedAt !== 0) return
        abortedAt = Date.now()
        controller.abort()
      }
      const pending = host.generate({
        ...job,
        // A prompt the engine does not hold yet, so that it has to read it.
        input: job.input.kind === 'text' ? { kind: 'text', text: `${i} ${during}\n${job.input.text}` } : job.input,
        signal: controller.signal,
        onTokens: during === 'generation' ? abort : undefined
      })
      if (during === 'prompt') setTimeout(abort, 20)
      await pending
      while (host.status().state === 'busy') await new Promise((r) => setTimeout(r, 2))
      out.push({ during, stopMs: Date.now() - abortedAt, hardStop: host.status().starts !== starts || host.status().state === 'stopped' })
    }
  }
  return out
}

/** The endpoint the bench runs: the built-in endpoint's settings, for the given file or the installed model. */
function endpointFor(flags: { model?: string; threads?: number; context?: number; gpu?: 'auto' | 'cpu' }): EndpointConfig {
  const dataDir = defaultDataDir()
  const models = new LocalModels(dataDir)
  const settings = builtinSettings(openFileStore(dataDir, SETTINGS_STORE).store)
  const state = models.resolve(flags.model === undefined ? settings : { ...settings, modelFile: resolve(flags.model) })
  if (state.state !== 'ready')
    throw new Error(
      state.state === 'missing'
        ? `No built-in model is installed in ${models.dir}: give --model PATH, or install one with npm run setup:model.`
        : state.message
    )
  const model = state.model
  const contextSize = Math.min(flags.context ?? settings.contextSize ?? DEFAULT_CONTEXT, model.trainContext ?? Number.MAX_SAFE_INTEGER)
  return {
    id: BUILTIN_ID,
    kind: 'builtin',
    name: BUILTIN_NAME,
    baseUrl: `file://${model.file}`,
    model: model.name,
    api: model.form === 'completion' ? 'completions' : 'chat',
    timeoutMs: 30 * 60_000,
    maxRetries: 0,
    promptTokenBudget: promptBudget(contextSize),
    builtin: {
      modelFile: model.file,
      contextSize,
      threads: flags.threads ?? (settings.threads > 0 ? settings.threads : physicalCores()),
      gpu: flags.gpu ?? settings.gpu ?? 'auto'
    }
  }
}

/** A request to cancel: a prompt of about 6,000 characters the engine has to read, then up to 400 tokens. */
function cancelJobFor(host: MeasuringHost, config: EndpointConfig): Omit<EngineJob, 'signal'> {
  return {
    model: host.lastModel ?? { file: config.builtin?.modelFile ?? '', contextSize: DEFAULT_CONTEXT, threads: 1 },
    input: { kind: 'text', text: readFileSync(join(appRoot(), 'README.md'), 'utf8').slice(0, 6000) },
    n: 1,
    temperature: TEMPERATURE,
    maxTokens: 400,
    stop: []
  }
}

/** The engine requests an earlier run in the same --keep folder logged (none for a new folder). */
function loggedCalls(file: string): Call[] {
  if (!existsSync(file)) return []
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Call)
}

export async function run(args: string[]): Promise<SuiteResult> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      model: { type: 'string' },
      threads: { type: 'string' },
      context: { type: 'string' },
      gpu: { type: 'string' },
      n: { type: 'string' },
      limit: { type: 'string' },
      sample: { type: 'string' },
      select: { type: 'string' },
      repair: { type: 'string' },
      'repair-rounds': { type: 'string' },
      profile: { type: 'string' },
      seeds: { type: 'string' },
      keep: { type: 'string' },
      data: { type: 'string' },
      'logprob-cost': { type: 'boolean' },
      'no-speed': { type: 'boolean' },
      'cancel-only': { type: 'boolean' }
    }
  })
  const int = (name: string, value: string | undefined): number | undefined => {
    if (value === undefined) return undefined
    const n = Number(value)
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive whole number`)
    return n
  }
  const n = int('n', values.n) ?? 5
  const limit = int('limit', values.limit)
  const sample = sampleOf(values.sample, limit)
  const select = values.select === undefined ? DEFAULT_SELECTION : values.select
  if (select !== 'logprob' && select !== 'vote') throw new Error('--select must be logprob or vote')
  if (values.repair !== undefined && values.repair !== 'on' && values.repair !== 'off') throw new Error('--repair must be on or off')
  // As the app does for the built-in model: on unless asked otherwise.
  const repair = values.repair !== 'off'
  const repairRounds = int('repair-rounds', values['repair-rounds']) ?? ASK_DEFAULTS.repairRounds
  if (repairRounds > MAX_REPAIR_ROUNDS) throw new Error(`--repair-rounds must be at most ${MAX_REPAIR_ROUNDS}`)
  const profile = values.profile === undefined ? 'compact' : values.profile
  if (profile !== 'paper' && profile !== 'compact') throw new Error('--profile must be paper or compact')
  const seeds = values.seeds === undefined ? 'fixed' : values.seeds
  if (seeds !== 'fixed' && seeds !== 'random') throw new Error('--seeds must be fixed or random')
  const gpu = values.gpu === undefined ? undefined : values.gpu
  if (gpu !== undefined && gpu !== 'auto' && gpu !== 'cpu') throw new Error('--gpu must be auto or cpu')
  const threads = int('threads', values.threads)
  const context = int('context', values.context)
  const config = endpointFor({
    ...(values.model === undefined ? {} : { model: values.model }),
    ...(threads === undefined ? {} : { threads }),
    ...(context === undefined ? {} : { context }),
    ...(gpu === undefined ? {} : { gpu })
  })
  const out = values.keep === undefined ? mkdtempSync(join(tmpdir(), 'tableqa-bench-model-')) : resolve(values.keep)
  mkdirSync(out, { recursive: true })
  const log = join(out, 'engine.jsonl')
  const kept = keptSeeds(out)
  if (kept !== null && kept !== seeds)
    throw new Error(`${out} holds a run with --seeds ${kept}; use another --keep folder for --seeds ${seeds}.`)
  writeFileSync(join(out, 'seeds'), `${seeds}\n`)
  const earlier = loggedCalls(log)
  const host = new MeasuringHost(n, log, seeds)
  const stateDir = engineStateDir(defaultDataDir())
  const client = new ModelClient(config, { secrets: new MemorySecretStore(), builtin: { host, stateDir } })
  console.error(
    `model: ${config.model} (${config.builtin?.modelFile ?? ''}), ${config.api}, context ${config.builtin?.contextSize}, ${config.builtin?.threads} threads, gpu ${config.builtin?.gpu ?? 'auto'}`
  )

  try {
    const cancelOnly = values['cancel-only'] === true
    const logprobCost =
      values['logprob-cost'] === true ? await measureLogprobCost(config.builtin?.modelFile ?? '', config.builtin?.threads ?? 1) : null
    // Loading, measured on its own with a one-token request.
    const warm = await client.sample({
      ...(config.api === 'completions' ? { prompt: 'def main():' } : { messages: [{ role: 'user' as const, content: 'Say hi.' }] }),
      n: 1,
      temperature: 0,
      maxTokens: 1
    })
    if (!warm.ok) throw new Error(`The model did not load: ${warm.error.message}`)
    const loaded = host.status().model
    if (loaded === null) throw new Error('The engine reports no model after loading.')
    console.error(
      `engine: ${loaded.backend}${loaded.gpuLayers > 0 ? ` (${loaded.gpuLayers} of ${loaded.layers} layers offloaded)` : ''}, ${loaded.sequences} sequences; ${loaded.note ?? ''}`
    )
    host.calls.length = 0
    if (cancelOnly) {
      const stops = await measureCancel(host, cancelJobFor(host, config), 3)
      return {
        metrics: {
          model_load_ms: loaded.loadMs,
          model_rss_mb: Math.round(loaded.rssBytes / 2 ** 20),
          model_cancel_max_ms: Math.max(...stops.map((c) => c.stopMs))
        },
        details: { model: loaded, cancel: { stops, hardStops: stops.filter((c) => c.hardStop).length } }
      }
    }

    const runs: { name: string; summary: RunSummary; records: QuestionRecord[] }[] = []
    host.logging = true
    for (const part of sample) {
      const { dataset, offset, count } = part
      const dir = join(out, `${dataset}-dev`)
      const which = offset === 0 ? `the first ${count} questions` : `questions ${partRange(part)}`
      console.error(`${dataset} dev: ${which} (logs in ${dir})`)
      const summary = await evaluate({
        dataset,
        split: 'dev',
        source: { client, label: 'builtin' },
        n,
        temperature: TEMPERATURE,
        ...(offset === 0 ? {} : { offset }),
        limit: count,
        apis: 'full',
        tableRepr: 'multiindex',
        lang: 'python',
        select,
        repair,
        repairRounds,
        profile,
        concurrency: 1,
        out: dir,
        progress: true,
        ...(values.data === undefined ? {} : { data: values.data })
      })
      const ids = new Set(partQuestions(part, loadDataset(dataset, 'dev', resolveDataDir(values.data)).questions).map((q) => q.id))
      runs.push({ name: dataset, summary, records: records(dir, ids) })
    }
    host.logging = false

    const noSpeed = values['no-speed'] === true
    const speed = noSpeed ? null : await measureSpeed(host, config, values.data, profile)
    const calls = host.calls.length
    const cancels = noSpeed ? [] : await measureCancel(host, cancelJobFor(host, config), 3)
    host.calls.length = calls

    const allCalls = [...earlier, ...host.calls]
    const engineRuns = allCalls.flatMap((c) => (c.stats === null ? [] : [c.stats]))
    const promptTokens = engineRuns.reduce((a, s) => a + s.promptEvaluatedTokens, 0)
    const promptMs = engineRuns.reduce((a, s) => a + s.promptMs, 0)
    const genTokens = engineRuns.reduce((a, s) => a + s.generatedTokens, 0)
    const genMs = engineRuns.reduce((a, s) => a + s.generateMs, 0)
    const main = runs.filter((r) => r.name === 'wikitq' || r.name === 'hitab').flatMap((r) => r.records)
    const all = runs.flatMap((r) => r.records)
    const made = programs(main)
    const time = timing(main)
    const perDataset = Object.fromEntries(
      runs.flatMap((r) => [
        [`model_ea_${r.name}_pct`, Number(r.summary.ea.toFixed(2))],
        [`model_ea_${r.name}_vote_pct`, eaWith(r.records, 'vote')],
        [`model_programs_ran_${r.name}_pct`, programs(r.records).ranPct]
      ])
    )
    // Figures over WikiTQ and HiTab, left out when the sample has neither (a 0 would read as measured).
    const overMain: Record<string, number> =
      main.length === 0
        ? {}
        : {
            model_prompt_tokens_evaluated_p50: time.promptTokensEvaluatedP50,
            model_first_answer_p50_ms: time.firstAnswerP50Ms,
            model_question_p50_ms: time.questionP50Ms,
            model_programs_extracted_pct: made.extractedPct,
            model_programs_ran_pct: made.ranPct,
            model_programs_ran_first_pct: made.ranFirstPct,
            model_ea_pct: pct(
              main.filter((r) => r.unscorable === undefined && r.correct).length,
              main.filter((r) => r.unscorable === undefined).length
            ),
            model_ea_logprob_pct: eaWith(main, 'logprob'),
            model_ea_vote_pct: eaWith(main, 'vote'),
            model_any_right_pct: anyRight(main)
          }
    const metrics: Record<string, number> = {
      model_load_ms: loaded.loadMs,
      model_rss_mb: Math.round(Math.max(loaded.rssBytes, ...engineRuns.map((s) => s.rssBytes)) / 2 ** 20),
      model_prompt_tokens_per_s: Number((promptMs === 0 ? 0 : (promptTokens * 1000) / promptMs).toFixed(1)),
      model_gen_tokens_per_s: Number((genMs === 0 ? 0 : (genTokens * 1000) / genMs).toFixed(1)),
      ...(speed === null
        ? {}
        : {
            model_parallel_speedup: speed.parallel.speedup,
            model_prefix_eval_ms: speed.prefix.evalMs,
            model_prefix_load_ms: speed.prefix.loadMs
          }),
      ...overMain,
      ...perDataset,
      ...(cancels.length === 0 ? {} : { model_cancel_max_ms: Math.max(...cancels.map((c) => c.stopMs)) })
    }
    const failures = allCalls.flatMap((c) => (c.error === null ? [] : [c.error]))
    return {
      metrics,
      details: {
        model: loaded,
        backend: { backend: loaded.backend, gpuLayers: loaded.gpuLayers, layers: loaded.layers, note: loaded.note },
        endpoint: {
          api: config.api,
          contextSize: config.builtin?.contextSize,
          threads: config.builtin?.threads,
          promptTokenBudget: config.promptTokenBudget
        },
        speed,
        // The WikiTQ + HiTab figures are null when the sample has neither, as their metrics are left out.
        timing: { wikitqAndHitab: main.length === 0 ? null : time, all: timing(all) },
        logprobCost,
        cancel:
          cancels.length === 0
            ? null
            : {
                stops: cancels,
                maxStopMs: Math.max(...cancels.map((c) => c.stopMs)),
                hardStops: cancels.filter((c) => c.hardStop).length
              },
        sampling: {
          n,
          temperature: TEMPERATURE,
          sample: Object.fromEntries(sample.map((p) => [p.dataset, partRange(p)])),
          apis: 'full',
          select,
          repair,
          ...(repair ? { repairRounds } : {}),
          profile,
          seeds
        },
        engine: {
          requests: allCalls.length,
          requestsOfEarlierRuns: earlier.length,
          promptTokensEvaluated: promptTokens,
          promptTokensSent: engineRuns.reduce((a, s) => a + s.promptTokens, 0),
          generatedTokens: genTokens,
          failures: failures.slice(0, 20),
          failed: failures.length
        },
        runs: runs.map((r) => ({
          name: r.name,
          ea: r.summary.ea,
          eaLogprob: eaWith(r.records, 'logprob'),
          eaVote: eaWith(r.records, 'vote'),
          anyRight: anyRight(r.records),
          scored: r.summary.scored,
          correct: r.summary.correct,
          programs: programs(r.records),
          misses: missKinds(r.records),
          calibration: calibration(r.records, select),
          timing: timing(r.records)
        })),
        calibration: main.length === 0 ? null : calibration(main, select),
        misses: main.length === 0 ? null : missKinds(main),
        ...(values.keep === undefined ? {} : { logs: out })
      }
    }
  } finally {
    await host.close()
    if (values.keep === undefined) rmSync(out, { recursive: true, force: true })
  }
}

/**
 * The engine's speed on one real prompt (the first WikiTQ dev question's), in the same run: n samples decoded
 * side by side against one after another, and the prompt's fixed part evaluated and saved against read back
 * from disk in a new process.
 */
async function measureSpeed(
  host: MeasuringHost,
  config: EndpointConfig,
  data: string | undefined,
  profile: 'paper' | 'compact'
): Promise<{
  parallel: { speedup: number; side: RateRun; serial: RateRun }
  prefix: { evalMs: number; loadMs: number; tokens: number; evalSource: string; loadSource: string }
}> {
  const dataset = loadDataset('wikitq', 'dev', resolveDataDir(data))
  const q = dataset.questions[0]
  if (q === undefined) throw new Error('WikiTQ dev has no questions')
  const tables = await dataset.loadTables(q.tableKey)
  if (!tables.ok || tables.value.main === null) throw new Error(`The first WikiTQ question's table did not load: ${q.tableKey}`)
  const client = new ModelClient(config, { secrets: new MemorySecretStore() })
  const prepared = await prepare(
    { tables: [{ name: tables.value.main.name, table: tables.value.main, variable: 'df' }], question: q.question, options: { profile } },
    { client }
  )
  if (!prepared.ok) throw new Error(prepared.error.message)
  const prompt = prepared.value.prompt
  const input = engineInput(config, {
    ...(prompt.text !== null ? { prompt: prompt.text } : { messages: prompt.messages ?? [] }),
    fixed: prompt.fixed,
    ...(prompt.prefill === null ? {} : { prefill: prompt.prefill })
  })
  const base = host.lastModel ?? { file: config.builtin?.modelFile ?? '', contextSize: DEFAULT_CONTEXT, threads: 1 }
  const rate = async (sequences: number): Promise<RateRun> => {
    const h = new EngineHost(nodeEngineSpawner())
    try {
      const job = { model: { ...base, sequences }, input, temperature: TEMPERATURE, stop: [], seed: 1234 }
      // The prompt first, so that only sampling is timed.
      await h.generate({ ...job, n: 1, maxTokens: 1 })
      const result = await h.generate({ ...job, n: 5, maxTokens: 64 })
      if (!result.ok) throw new Error(result.error.message)
      const { generatedTokens, generateMs } = result.value.stats
      return { sequences, tokens: generatedTokens, ms: generateMs, tokensPerS: Number(((generatedTokens * 1000) / generateMs).toFixed(2)) }
    } finally {
      await h.close()
    }
  }
  const side = await rate(ENGINE_SEQUENCES)
  const serial = await rate(1)
  const dir = mkdtempSync(join(tmpdir(), 'tableqa-bench-prefix-'))
  try {
    const warmIn = async (): Promise<{ ms: number; source: string; tokens: number }> => {
      const h = new EngineHost(nodeEngineSpawner())
      try {
        const warmed = await h.warm({ model: { ...base, stateDir: dir }, input })
        if (!warmed.ok) throw new Error(warmed.error.message)
        return { ms: warmed.value.prefix.ms, source: warmed.value.prefix.source, tokens: warmed.value.prefix.tokens }
      } finally {
        await h.close()
      }
    }
    const evaluated = await warmIn()
    const read = await warmIn()
    return {
      parallel: { speedup: Number((side.tokensPerS / serial.tokensPerS).toFixed(2)), side, serial },
      prefix: { evalMs: evaluated.ms, loadMs: read.ms, tokens: evaluated.tokens, evalSource: evaluated.source, loadSource: read.source }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

type RateRun = { sequences: number; tokens: number; ms: number; tokensPerS: number }
