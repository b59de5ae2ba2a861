/**
 * The built-in model's benchmark: `npm run bench -- model [--model PATH] [--threads N] [--context N]
 * [--n 5] [--limit 50] [--keep DIR (kept, and resumed)] [--data DIR] [--cancel-only] [--json FILE]`. It loads the model in its own engine
 * process, as the app does, and answers the first `limit` questions of WikiTQ dev and of HiTab dev through
 * the evaluation (the app's prompt, sampling, extraction, CPython execution and official scoring).
 * Without --model it runs the built-in endpoint's model from the data folder (`npm run setup:model`).
 * With --keep DIR the question logs and every engine request's timings (DIR/engine.jsonl) stay in DIR, and
 * the same command run again there asks only the questions not answered yet and reports over all of them:
 * the default sample takes hours on a small machine, so it can be run in several sittings.
 *
 * Metrics:
 * - model_load_ms: the engine process loading the model (node-llama-cpp, the weights, the context).
 * - model_rss_mb: the engine process's resident memory, the largest seen (after loading and after each request).
 * - model_prompt_tokens_per_s: prompt tokens evaluated per second (tokens the engine still held from the
 *   question before, the shared instructions and examples, are not evaluated again and not counted).
 * - model_gen_tokens_per_s: sampled tokens per second.
 * - model_first_candidate_ms: median over questions, from the sampling request to its first complete sample.
 * - model_question_p50_ms: median time of a question: sampling, running every candidate, choosing.
 * - model_programs_extracted_pct / model_programs_ran_pct: of all samples, those whose reply held a
 *   program, and those whose program ran to an answer without an error.
 * - model_ea_pct: execution accuracy over the scored questions of both datasets.
 *
 * Details also give what the sampled tokens' log-probabilities cost (./model-logprobs.ts) and how long a
 * cancelled request took to stop and leave the engine free (metric model_cancel_max_ms, the longest of
 * three cancels while the prompt is read and three while tokens are generated). --cancel-only measures
 * loading and cancelling alone, without the questions, in a minute rather than hours.
 */
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { SuiteResult } from '../bench'
import type { EndpointConfig } from '../../src/shared/model'
import { evaluate, type RunSummary } from '../../src/main/services/eval'
import type { QuestionRecord } from '../../src/main/services/eval/types'
import { EngineHost, type EngineJob, type EngineResult } from '../../src/main/services/local-model/engine-host'
import type { GenerateStats } from '../../src/main/services/local-model/engine-protocol'
import { physicalCores } from '../../src/main/services/local-model/hardware'
import { DEFAULT_CONTEXT, LocalModels } from '../../src/main/services/local-model/models'
import { nodeEngineSpawner } from '../../src/main/services/local-model/spawn-node'
import { MemorySecretStore, ModelClient } from '../../src/main/services/model'
import { appRoot, defaultDataDir } from '../../src/main/services/paths'
import { BUILTIN_ID, BUILTIN_NAME, builtinSettings, promptBudget, SETTINGS_STORE } from '../../src/main/services/settings'
import { openFileStore } from '../../src/main/services/store/store'
import type { Result } from '../../src/shared/result'
import { measureLogprobCost } from './model-logprobs'

const TEMPERATURE = 0.7

/** One engine request as the bench keeps it: its timings, or why it failed. */
type Call = { candidates: boolean; firstSampleMs: number | null; stats: GenerateStats | null; error: string | null }

/**
 * The app's engine host, with every request's timings kept. With a log file, the timings of the requests
 * made while `logging` is on are also appended to it, so that a run resumed in the same --keep folder
 * reports the engine's figures over every question, not only over the ones it asked itself.
 */
class MeasuringHost extends EngineHost {
  readonly calls: Call[] = []
  /** The model spec the app's client asked for, to make requests of the same engine. */
  lastModel: EngineJob['model'] | null = null
  logging = false

  constructor(
    private readonly candidateN: number,
    private readonly log: string | null = null
  ) {
    super(nodeEngineSpawner())
  }

  override async generate(job: EngineJob): Promise<Result<EngineResult>> {
    this.lastModel = job.model
    const startedAt = Date.now()
    let firstSampleMs: number | null = null
    const result = await super.generate({
      ...job,
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

function median(values: number[]): number {
  if (values.length === 0) return 0
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}

const pct = (part: number, whole: number): number => (whole === 0 ? 0 : Number(((100 * part) / whole).toFixed(2)))

/** The endpoint the bench runs: the built-in endpoint's settings, for the given file or the installed model. */
function endpointFor(flags: { model?: string; threads?: number; context?: number }): EndpointConfig {
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
    builtin: { modelFile: model.file, contextSize, threads: flags.threads ?? (settings.threads > 0 ? settings.threads : physicalCores()) }
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

function records(dir: string): QuestionRecord[] {
  return readFileSync(join(dir, 'questions.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as QuestionRecord)
}

export async function run(args: string[]): Promise<SuiteResult> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      model: { type: 'string' },
      threads: { type: 'string' },
      context: { type: 'string' },
      n: { type: 'string' },
      limit: { type: 'string' },
      keep: { type: 'string' },
      data: { type: 'string' },
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
  const limit = int('limit', values.limit) ?? 50
  const threads = int('threads', values.threads)
  const context = int('context', values.context)
  const config = endpointFor({
    ...(values.model === undefined ? {} : { model: values.model }),
    ...(threads === undefined ? {} : { threads }),
    ...(context === undefined ? {} : { context })
  })
  const out = values.keep === undefined ? mkdtempSync(join(tmpdir(), 'tableqa-bench-model-')) : resolve(values.keep)
  mkdirSync(out, { recursive: true })
  const log = join(out, 'engine.jsonl')
  const earlier = loggedCalls(log)
  const host = new MeasuringHost(n, log)
  const client = new ModelClient(config, { secrets: new MemorySecretStore(), builtin: { host } })
  console.error(
    `model: ${config.model} (${config.builtin?.modelFile ?? ''}), ${config.api}, context ${config.builtin?.contextSize}, ${config.builtin?.threads} threads`
  )

  try {
    const cancelOnly = values['cancel-only'] === true
    const logprobCost = cancelOnly ? null : await measureLogprobCost(config.builtin?.modelFile ?? '', config.builtin?.threads ?? 1)
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
    for (const dataset of ['wikitq', 'hitab'] as const) {
      const dir = join(out, `${dataset}-dev`)
      const summary = await evaluate({
        dataset,
        split: 'dev',
        source: { client, label: 'builtin' },
        n,
        temperature: TEMPERATURE,
        limit,
        apis: 'full',
        tableRepr: 'multiindex',
        lang: 'python',
        select: 'logprob',
        concurrency: 1,
        out: dir,
        ...(values.data === undefined ? {} : { data: values.data })
      })
      runs.push({ name: `${dataset}_dev`, summary, records: records(dir) })
    }

    host.logging = false
    const calls = host.calls.length
    const cancels = await measureCancel(host, cancelJobFor(host, config), 3)
    host.calls.length = calls

    const allCalls = [...earlier, ...host.calls]
    const engineRuns = allCalls.flatMap((c) => (c.stats === null ? [] : [c.stats]))
    const promptTokens = engineRuns.reduce((a, s) => a + s.promptEvaluatedTokens, 0)
    const promptMs = engineRuns.reduce((a, s) => a + s.promptMs, 0)
    const genTokens = engineRuns.reduce((a, s) => a + s.generatedTokens, 0)
    const genMs = engineRuns.reduce((a, s) => a + s.generateMs, 0)
    const all = runs.flatMap((r) => r.records)
    const samples = all.flatMap((r) => r.candidates)
    const scored = runs.reduce((a, r) => a + r.summary.scored, 0)
    const correct = runs.reduce((a, r) => a + r.summary.correct, 0)
    const candidateCalls = allCalls.filter((c) => c.candidates)
    const metrics = {
      model_load_ms: loaded.loadMs,
      model_rss_mb: Math.round(Math.max(loaded.rssBytes, ...engineRuns.map((s) => s.rssBytes)) / 2 ** 20),
      model_prompt_tokens_per_s: Number((promptMs === 0 ? 0 : (promptTokens * 1000) / promptMs).toFixed(1)),
      model_gen_tokens_per_s: Number((genMs === 0 ? 0 : (genTokens * 1000) / genMs).toFixed(1)),
      model_first_candidate_ms: Math.round(median(candidateCalls.flatMap((c) => (c.firstSampleMs === null ? [] : [c.firstSampleMs])))),
      model_question_p50_ms: Math.round(median(all.map((r) => r.timeMs))),
      model_programs_extracted_pct: pct(samples.filter((c) => c.program !== '').length, samples.length),
      model_programs_ran_pct: pct(samples.filter((c) => c.program !== '' && c.ok).length, samples.length),
      model_ea_pct: pct(correct, scored),
      model_cancel_max_ms: Math.max(...cancels.map((c) => c.stopMs))
    }
    const failures = allCalls.flatMap((c) => (c.error === null ? [] : [c.error]))
    return {
      metrics,
      details: {
        model: loaded,
        endpoint: {
          api: config.api,
          contextSize: config.builtin?.contextSize,
          threads: config.builtin?.threads,
          promptTokenBudget: config.promptTokenBudget
        },
        logprobCost,
        cancel: {
          stops: cancels,
          maxStopMs: Math.max(...cancels.map((c) => c.stopMs)),
          hardStops: cancels.filter((c) => c.hardStop).length
        },
        sampling: { n, temperature: TEMPERATURE, limitPerDataset: limit, apis: 'full', select: 'logprob' },
        engine: {
          requests: allCalls.length,
          requestsOfEarlierRuns: earlier.length,
          candidateRequests: candidateCalls.length,
          promptTokensEvaluated: promptTokens,
          promptTokensSent: engineRuns.reduce((a, s) => a + s.promptTokens, 0),
          generatedTokens: genTokens,
          failures: failures.slice(0, 20),
          failed: failures.length
        },
        samples: samples.length,
        scored,
        correct,
        runs: runs.map((r) => ({
          name: r.name,
          ea: r.summary.ea,
          scored: r.summary.scored,
          correct: r.summary.correct,
          misses: r.summary.misses
        })),
        ...(values.keep === undefined ? {} : { logs: out })
      }
    }
  } finally {
    await host.close()
    if (values.keep === undefined) rmSync(out, { recursive: true, force: true })
  }
}
