/**
 * Answering one question: render the prompt, sample n programs, run each against the tables (QA calls
 * answered by a model), normalise the answers, choose one. The seed paper's method with its defaults
 * (n = 5, temperature 0.7, highest log-probability), plus execution-guided selection where log-probs are absent.
 */

import { randomUUID } from 'node:crypto'
import type { AskAnswer, AskOptions, AskProgress, AskSummary, CandidateSummary, SelectionSummary } from '../../../shared/ask'
import type { Sample } from '../../../shared/model'
import type { Result } from '../../../shared/result'
import { fail, ok } from '../../../shared/result'
import type { ParsedTable } from '../../../shared/table'
import type { Candidate, ModelClient } from '../model'
import { extractProgram, selectCandidate } from '../model'
import type { PromptLibrary } from '../prompt'
import { buildPrompt, loadPromptLibrary, qaPrompt } from '../prompt'
import type { Executor, QaHandler, RunOutcome } from '../python/types'
import { answerKey, readAnswer } from './answer'
import { chooseKind, represent, variableNames } from './tables'

export const MAX_QUESTION_CHARS = 2_000
export const MAX_N = 20
const DEFAULTS = { n: 5, temperature: 0.7, maxTokens: 600, timeoutMs: 30_000 } as const

export type AskRequest = {
  /** One or several tables; `name` is the display name (a variable name is derived from it). */
  tables: { name: string; table: ParsedTable }[]
  question: string
  options?: AskOptions
  askId?: string
  signal?: AbortSignal
  onProgress?: (event: AskProgress) => void
}

export type AskDeps = {
  client: ModelClient
  /** Answers `qa(...)` calls; the generating client when absent. */
  qaClient?: ModelClient
  executor: Executor
  library?: PromptLibrary
  /** Most `qa(...)` calls one program may make. Default 20. */
  maxQaCalls?: number
}

function validate(request: AskRequest): string | null {
  const q = request.question
  if (typeof q !== 'string' || q.trim() === '') return 'The question is empty. Type a question about the table.'
  if (q.length > MAX_QUESTION_CHARS) return `The question is ${q.length.toLocaleString('en-US')} characters long; the limit is ${MAX_QUESTION_CHARS.toLocaleString('en-US')}. Ask something shorter.`
  if (request.tables.length === 0) return 'There is no table to ask about. Open a table first.'
  const o = request.options ?? {}
  if (o.n !== undefined && (!Number.isInteger(o.n) || o.n < 1 || o.n > MAX_N)) return `n must be a whole number from 1 to ${MAX_N}.`
  if (o.temperature !== undefined && (!Number.isFinite(o.temperature) || o.temperature < 0 || o.temperature > 2)) return 'temperature must be between 0 and 2.'
  return null
}

export async function ask(request: AskRequest, deps: AskDeps): Promise<Result<AskSummary>> {
  const started = Date.now()
  const invalid = validate(request)
  if (invalid !== null) return fail('bad-input', invalid)
  const library = deps.library ?? (() => {
    const loaded = loadPromptLibrary()
    return loaded.ok ? loaded.value : null
  })()
  if (library === null) return fail('internal', 'The prompt templates could not be loaded.')
  const o = request.options ?? {}
  const n = o.n ?? DEFAULTS.n
  const mode = o.mode ?? 'python'
  const apis = o.apis ?? 'full'
  const askId = request.askId ?? randomUUID()
  const progress = (stage: AskProgress['stage'], done: number, total: number | null, message: string): void => request.onProgress?.({ askId, stage, done, total, message })
  const cancelled = (): Result<AskSummary> => fail('cancelled', 'The question was cancelled.')
  const { client, executor } = deps
  const config = client.config

  progress('prompt', 0, null, 'building the prompt')
  const tables = request.tables.map((t) => represent(t.table, o.tableRepr ?? 'multiindex'))
  const kind = chooseKind(tables, o.kind ?? 'auto')
  const names = tables.length === 1 ? ['df'] : variableNames(request.tables.map((t) => t.name))
  const prompt = buildPrompt({
    library,
    kind,
    mode,
    apis,
    form: config.api === 'completions' ? 'completion' : 'chat',
    question: request.question.trim(),
    tables: tables.map((table, i) => ({ name: names[i] ?? 'df', title: request.tables[i]?.name ?? '', table })),
    tokenBudget: config.promptTokenBudget
  })
  const notes = [...prompt.notes]
  const promptMs = Date.now() - started

  progress('generating', 0, n, `generating 0/${n}`)
  const genStart = Date.now()
  const sampled = await client.sample({
    ...(prompt.text !== null ? { prompt: prompt.text } : { messages: prompt.messages ?? [] }),
    n,
    temperature: o.temperature ?? DEFAULTS.temperature,
    maxTokens: o.maxTokens ?? DEFAULTS.maxTokens,
    stop: prompt.stop,
    logprobs: true,
    ...(request.signal === undefined ? {} : { signal: request.signal }),
    onProgress: (e) => {
      if (e.kind === 'sample') progress('generating', e.done, e.total, `generating ${e.done}/${e.total}`)
    }
  })
  if (aborted(request.signal)) return cancelled()
  if (!sampled.ok) return sampled
  const samples: Sample[] = sampled.value
  const generateMs = Date.now() - genStart

  const programs = samples.map((s) => extractProgram(s.text, prompt.codePrefix === null ? {} : { codePrefix: prompt.codePrefix }))
  if (programs.every((p) => !p.ok)) {
    const first = programs[0]
    return fail('model-no-code', `None of the ${samples.length} replies held a Python program. Check that the endpoint serves a code model and that its replies are not cut short.`, first !== undefined && !first.ok ? first.error.detail : undefined)
  }

  const execStart = Date.now()
  const tableIds = tables.map((_, i) => `${askId}-t${i}`)
  let qaCalls = 0
  const qa = qaHandler(deps.qaClient ?? client, library, request.signal, () => {
    qaCalls += 1
    progress('qa', qaCalls, null, `qa call ${qaCalls}`)
  })
  const candidates: CandidateSummary[] = []
  try {
    for (const [i, table] of tables.entries()) await executor.loadTable(tableIds[i] ?? '', table)
    const seen = new Map<string, { outcome: RunOutcome; index: number }>()
    for (const [i, sample] of samples.entries()) {
      if (aborted(request.signal)) return cancelled()
      progress('executing', i + 1, samples.length, `executing ${i + 1}/${samples.length}`)
      const program = programs[i] as Result<string>
      const base = { index: i, logprobSum: sample.logprobSum, logprobMean: sample.logprobMean }
      if (!program.ok) {
        candidates.push({ ...base, program: null, result: { ok: false, error: program.error }, answerKey: null, qaCalls: 0, durationMs: 0 })
        continue
      }
      const runStart = Date.now()
      const before = seen.get(program.value)
      let outcome: RunOutcome
      let calls = 0
      if (before !== undefined) {
        outcome = before.outcome
      } else {
        const runId = `${askId}-c${i}`
        const stop = (): void => void executor.stop(runId)
        request.signal?.addEventListener('abort', stop)
        outcome = await executor.run({
          runId,
          code: program.value,
          tableId: tables.length === 1 ? (tableIds[0] ?? null) : null,
          ...(tables.length > 1 ? { namedTables: names.map((name, k) => ({ name, tableId: tableIds[k] ?? '' })) } : {}),
          timeoutMs: o.timeoutMs ?? DEFAULTS.timeoutMs,
          qa,
          maxQaCalls: deps.maxQaCalls ?? 20
        })
        request.signal?.removeEventListener('abort', stop)
        calls = outcome.qaCalls
        seen.set(program.value, { outcome, index: i })
      }
      if (aborted(request.signal)) return cancelled()
      const read: Result<AskAnswer> = outcome.result.ok ? readAnswer(outcome.result.value) : { ok: false, error: outcome.result.error }
      candidates.push({
        ...base,
        program: program.value,
        result: read.ok ? { ok: true, answer: read.value } : { ok: false, error: { code: read.error.code, message: read.error.message, ...(read.error.detail === undefined ? {} : { detail: read.error.detail }) } },
        answerKey: read.ok ? answerKey(read.value) : null,
        qaCalls: calls,
        durationMs: Date.now() - runStart
      })
    }
  } finally {
    for (const id of tableIds) await executor.dropTable(id).catch(() => undefined)
  }
  const executeMs = Date.now() - execStart

  progress('selecting', candidates.length, candidates.length, 'choosing an answer')
  const score = o.score ?? 'sum'
  const forSelect: Candidate[] = candidates.map((c) => ({
    program: c.program ?? '',
    logprobSum: c.logprobSum,
    logprobMean: c.logprobMean,
    exec: c.answerKey === null ? { ok: false } : { ok: true, answerKey: c.answerKey }
  }))
  const selected = selectCandidate(forSelect, { mode: o.selection ?? 'logprob', score })
  let selection: SelectionSummary | null = null
  let chosen: number | null = null
  if (selected.ok) {
    const s = selected.value
    selection = { mode: s.mode, requested: s.requested, score, ranking: s.ranking, ...(s.fallbackReason === undefined ? {} : { fallbackReason: s.fallbackReason }), ...(s.votes === undefined ? {} : { votes: s.votes }) }
    chosen = s.index
    // The paper keeps the most probable program even when it fails; an answer from the next one that ran is more useful.
    if (s.mode === 'logprob' && candidates[chosen]?.result.ok !== true) {
      const next = s.ranking.find((k) => candidates[k]?.result.ok === true)
      if (next !== undefined) {
        notes.push(`The most probable program (candidate ${chosen + 1}) failed; the most probable one that ran (candidate ${next + 1}) was chosen.`)
        chosen = next
      }
    }
    if (s.fallbackReason !== undefined) notes.push(s.fallbackReason)
  }
  const pick = chosen === null ? undefined : candidates[chosen]
  const answer = pick?.result.ok === true ? pick.result.answer : null
  const summary: AskSummary = {
    askId,
    question: request.question,
    answer,
    program: pick?.program ?? null,
    chosen,
    candidates,
    selection,
    qaCalls,
    promptTokens: prompt.tokens,
    promptVersion: prompt.version,
    kind,
    executor: executor.kind,
    endpoint: { name: config.name, model: config.model, api: config.api },
    notes,
    timings: { promptMs, generateMs, executeMs, totalMs: Date.now() - started }
  }
  if (answer === null) {
    const failures = candidates.filter((c) => !c.result.ok)
    const first = failures[0]?.result
    const detail = first !== undefined && !first.ok ? first.error.message : undefined
    summary.problem = {
      code: 'no-answer',
      message: `None of the ${candidates.length} programs produced an answer.${detail === undefined ? '' : ` The first failure: ${detail}`}`
    }
  }
  return ok(summary)
}

function aborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true
}

/** QA calls from running programs, answered by a model with a short prompt. */
function qaHandler(client: ModelClient, library: PromptLibrary, signal: AbortSignal | undefined, counted: () => void): QaHandler {
  return async (call) => {
    counted()
    const text = qaPrompt(library, call.question, call.value)
    const reply = await client.sample({
      ...(client.config.api === 'completions' ? { prompt: text } : { messages: [{ role: 'user' as const, content: text }] }),
      n: 1,
      temperature: 0,
      maxTokens: 48,
      stop: ['\n'],
      logprobs: false,
      ...(signal === undefined ? {} : { signal })
    })
    if (!reply.ok) return reply
    const line = (reply.value[0]?.text ?? '').replace(/<think>[\s\S]*?<\/think>/gi, '').split('\n').map((l) => l.trim()).find((l) => l !== '') ?? ''
    return ok(line.replace(/^answer\s*:\s*/i, '').replace(/^["'](.*)["']$/, '$1').replace(/\.$/, ''))
  }
}
