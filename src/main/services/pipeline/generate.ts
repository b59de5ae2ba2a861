/**
 * The generation half of answering a question: check the request, render the prompt for the tables, sample
 * n programs with their log-probabilities and extract the code from each reply. `ask` runs what this
 * returns; the evaluation runs it with its own executor wrapper. One mechanism for both.
 */

import type { AskOptions, AskProgress } from '../../../shared/ask'
import type { EndpointConfig, EngineRequestStats, Sample } from '../../../shared/model'
import type { Result } from '../../../shared/result'
import { fail, ok } from '../../../shared/result'
import type { ParsedTable } from '../../../shared/table'
import type { ModelClient } from '../model'
import { extractProgram } from './extract'
import type { BuiltPrompt, PromptKind, PromptLibrary, PromptProfile } from '../prompt'
import { buildPrompt, digestTables, loadPromptLibrary } from '../prompt'
import { inView } from '../tables/structure'
import { chooseKind, variableNames } from './tables'

export const MAX_QUESTION_CHARS = 2_000
export const MAX_N = 20
export const DEFAULTS = { n: 5, temperature: 0.7, maxTokens: 600, timeoutMs: 30_000, repairRounds: 1 } as const
/** Most times one candidate may be corrected. */
export const MAX_REPAIR_ROUNDS = 3

export type AskRequest = {
  /**
   * One or several tables; `name` is the display name. The variable a program sees is `variable` when
   * every table gives one, else `df` for a single table and a name derived from `name` for several.
   */
  tables: {
    name: string
    table: ParsedTable
    variable?: string
    /**
     * The id under which the executor already holds this table as opened (the workspace's payload): runs
     * use it as it is when the program sees the table in that view, so the question copies nothing.
     */
    tableId?: string
  }[]
  question: string
  options?: AskOptions
  askId?: string
  signal?: AbortSignal
  onProgress?: (event: AskProgress) => void
}

export type GenerateDeps = {
  client: ModelClient
  library?: PromptLibrary
}

/** What generation produced: everything needed to run the programs and to report on them. */
export type Generation = {
  library: PromptLibrary
  prompt: BuiltPrompt
  kind: PromptKind
  /** The tables as programs see them (after the requested representation), in request order. */
  tables: ParsedTable[]
  /** The variable each table is bound to, in request order. */
  names: string[]
  samples: Sample[]
  /** The program of each sample, or why its reply held none. */
  programs: Result<string>[]
  notes: string[]
  timings: { promptMs: number; generateMs: number }
  /** Prompt tokens are estimated (see prompt/budget.ts); completion tokens as the server counted, null when it did not. */
  tokens: { prompt: number; completion: number | null }
  /** Where the built-in engine's time went; null for other endpoints. */
  engine: EngineRequestStats | null
}

/**
 * The prompt profile an endpoint gets unless the question says otherwise. The built-in model gets
 * `compact`: its speed in the app is measured (docs/BENCHMARKS.md › model). On 30 questions the `paper`
 * profile answered 3 more right on the 1.5B model; the switch waits for its speed in the app to be measured.
 */
export function defaultProfile(config: EndpointConfig): PromptProfile {
  return config.kind === 'builtin' ? 'compact' : 'paper'
}

export function validate(request: AskRequest): string | null {
  const q = request.question
  if (typeof q !== 'string' || q.trim() === '') return 'The question is empty. Type a question about the table.'
  if (q.length > MAX_QUESTION_CHARS)
    return `The question is ${q.length.toLocaleString('en-US')} characters long; the limit is ${MAX_QUESTION_CHARS.toLocaleString('en-US')}. Ask something shorter.`
  if (request.tables.length === 0) return 'There is no table to ask about. Open a table first.'
  const o = request.options ?? {}
  if (o.n !== undefined && (!Number.isInteger(o.n) || o.n < 1 || o.n > MAX_N)) return `n must be a whole number from 1 to ${MAX_N}.`
  if (o.temperature !== undefined && (!Number.isFinite(o.temperature) || o.temperature < 0 || o.temperature > 2))
    return 'temperature must be between 0 and 2.'
  if (o.repairRounds !== undefined && (!Number.isInteger(o.repairRounds) || o.repairRounds < 1 || o.repairRounds > MAX_REPAIR_ROUNDS))
    return `repairRounds must be a whole number from 1 to ${MAX_REPAIR_ROUNDS}.`
  return null
}

export function loadLibrary(given: PromptLibrary | undefined): Result<PromptLibrary> {
  if (given !== undefined) return ok(given)
  const loaded = loadPromptLibrary()
  return loaded.ok ? loaded : fail('internal', 'The prompt templates could not be loaded.', loaded.error.message)
}

function bindings(request: AskRequest, apiFunctions: readonly string[]): string[] {
  const given = request.tables.map((t) => t.variable)
  if (given.every((v): v is string => v !== undefined && v !== '')) return given
  return request.tables.length === 1
    ? ['df']
    : variableNames(
        request.tables.map((t) => t.name),
        apiFunctions
      )
}

/** A question made ready to sample: the tables as programs see them, their variables and the prompt. */
export type Prepared = Pick<Generation, 'library' | 'prompt' | 'kind' | 'tables' | 'names'> & { promptMs: number }

/**
 * Check the request and render its prompt; nothing is sent anywhere yet. What the prompt reads of every row
 * of a table is worked out on its first question, in slices between other work, and kept for the next ones.
 */
export async function prepare(request: AskRequest, deps: GenerateDeps): Promise<Result<Prepared>> {
  const started = Date.now()
  const invalid = validate(request)
  if (invalid !== null) return fail('bad-input', invalid)
  const library = loadLibrary(deps.library)
  if (!library.ok) return library
  const o = request.options ?? {}
  request.onProgress?.({ askId: request.askId ?? '', stage: 'prompt', done: 0, total: null, message: 'building the prompt' })
  const tables = request.tables.map((t) => inView(t.table, o.tableRepr ?? 'multiindex'))
  const kind = chooseKind(tables, o.kind ?? 'auto')
  const names = bindings(request, library.value.apiFunctions)
  await digestTables(tables)
  const prompt = buildPrompt({
    library: library.value,
    kind,
    mode: o.mode ?? 'python',
    apis: o.apis ?? 'full',
    form: deps.client.config.api === 'completions' ? 'completion' : 'chat',
    question: request.question.trim(),
    tables: tables.map((table, i) => ({
      name: names[i] ?? 'df',
      title: promptTitle(request.tables[i]?.name ?? '', request.tables[i]?.table.title, request.tables[i]?.table.notes),
      table
    })),
    tokenBudget: deps.client.config.promptTokenBudget,
    profile: o.profile ?? defaultProfile(deps.client.config),
    // Only the built-in engine lets the reply be started for the model.
    prefillAllowed: deps.client.config.kind === 'builtin'
  })
  return ok({ library: library.value, prompt, kind, tables, names, promptMs: Date.now() - started })
}

/** A sample and the program in it, handed over as soon as the sample is in. */
export type OnProgram = (index: number, sample: Sample, program: Result<string>) => void

/**
 * Sample n programs for a prepared question. `onProgram` gets each one as it arrives, so the caller can
 * run it while the rest are generated; the result holds them all, in order.
 */
export async function samplePrograms(
  prepared: Prepared,
  request: AskRequest,
  client: ModelClient,
  onProgram?: OnProgram
): Promise<Result<Generation>> {
  const o = request.options ?? {}
  const n = o.n ?? DEFAULTS.n
  const askId = request.askId ?? ''
  const { prompt } = prepared
  const extract = (sample: Sample): Result<string> =>
    extractProgram(sample.text, prompt.codePrefix === null ? {} : { codePrefix: prompt.codePrefix })
  request.onProgress?.({ askId, stage: 'generating', done: 0, total: n, message: `generating 0/${n}` })
  const genStart = Date.now()
  let engine: EngineRequestStats | null = null
  const sampled = await client.sample({
    onEngineStats: (stats) => {
      engine = stats
    },
    ...(prompt.text !== null ? { prompt: prompt.text } : { messages: prompt.messages ?? [] }),
    fixed: prompt.fixed,
    ...(prompt.prefill === null ? {} : { prefill: prompt.prefill }),
    n,
    temperature: o.temperature ?? DEFAULTS.temperature,
    maxTokens: o.maxTokens ?? DEFAULTS.maxTokens,
    stop: prompt.stop,
    logprobs: true,
    ...(request.signal === undefined ? {} : { signal: request.signal }),
    onProgress: (e) => {
      if (e.kind === 'sample')
        request.onProgress?.({ askId, stage: 'generating', done: e.done, total: e.total, message: `generating ${e.done}/${e.total}` })
      else if (e.kind === 'load')
        request.onProgress?.({
          askId,
          stage: 'generating',
          done: 0,
          total: n,
          message: `loading the model ${Math.round(e.fraction * 100)}%`
        })
      else if (e.kind === 'prompt')
        request.onProgress?.({
          askId,
          stage: 'generating',
          done: 0,
          total: n,
          message: `reading the prompt: ${e.done.toLocaleString('en-US')} of ${e.total.toLocaleString('en-US')} tokens`
        })
      else if (e.kind === 'queued')
        request.onProgress?.({
          askId,
          stage: 'generating',
          done: 0,
          total: n,
          message: `waiting for the model (${e.ahead} question${e.ahead === 1 ? '' : 's'} ahead)`
        })
    },
    ...(onProgram === undefined ? {} : { onSample: (index: number, sample: Sample) => onProgram(index, sample, extract(sample)) })
  })
  if (request.signal?.aborted === true) return fail('cancelled', 'The question was cancelled.')
  if (!sampled.ok) return sampled
  const samples = sampled.value
  const generateMs = Date.now() - genStart

  const programs = samples.map(extract)
  if (programs.every((p) => !p.ok)) {
    const first = programs[0]
    return fail(
      'model-no-code',
      `None of the ${samples.length} replies held a Python program. Check that the endpoint serves a code model and that its replies are not cut short.`,
      first !== undefined && !first.ok ? first.error.detail : undefined
    )
  }
  const counted = samples.map((s) => s.tokens)
  return ok({
    library: prepared.library,
    prompt,
    kind: prepared.kind,
    tables: prepared.tables,
    names: prepared.names,
    samples,
    programs,
    notes: [...prompt.notes],
    timings: { promptMs: prepared.promptMs, generateMs },
    tokens: {
      prompt: prompt.tokens,
      completion: counted.every((t): t is number => t !== null) ? counted.reduce((a, b) => a + b, 0) : null
    },
    engine
  })
}

/** Prepare and sample in one step, for callers that run the programs afterwards (the evaluation). */
export async function generate(request: AskRequest, deps: GenerateDeps): Promise<Result<Generation>> {
  const prepared = await prepare(request, deps)
  return prepared.ok ? samplePrograms(prepared.value, request, deps.client) : prepared
}

// The title block of a spreadsheet can run to paragraphs of source notes; the prompt takes its start, and
// as much of the notes under the table.
const TITLE_CHARS = 300

// A file name's extension in a tab name ("orders.csv", "report.xlsx › Table 1"): the file is not there for a
// program to read (the table is the DataFrame), and a name like "orders.csv" invites models to write
// `pd.read_csv("orders.csv")`, which fails.
const FILE_EXTENSION = /\.(?:csv|tsv|txt|json|jsonl|xlsx|xlsm|xls|ods|html?|xml|parquet)(?=$| ›)/gi

/**
 * The tab name without file extensions, and the table's own title lines when it has a title ("Table 11.
 * Employed persons … / [Numbers in thousands]"), then on a line of its own the notes under the table when
 * it has some.
 */
export function promptTitle(tabName: string, title: string | undefined, notes?: string): string {
  const name = tabName.replace(FILE_EXTENSION, '')
  const own = oneLine(title)
  const heading = own === '' ? name : cut(name === '' ? own : `${name}: ${own}`)
  const below = oneLine(notes)
  return below === '' ? heading : `${heading}\n${cut(`Notes: ${below}`)}`
}

function oneLine(text: string | undefined): string {
  return (text ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0)
    .join(' / ')
}

function cut(text: string): string {
  return text.length <= TITLE_CHARS ? text : `${text.slice(0, TITLE_CHARS - 1)}…`
}
