/**
 * Answering one question: render the prompt, sample n programs, run each against the tables (QA calls
 * answered by a model), normalise the answers, choose one. The seed paper's method with its defaults
 * (n = 5, temperature 0.7, highest log-probability), plus execution-guided selection where log-probs are absent.
 */

import { randomUUID } from 'node:crypto'
import type { AskAnswer, AskProgress, AskSummary, CandidateSummary, SelectionSummary } from '../../../shared/ask'
import type { Result } from '../../../shared/result'
import { fail, ok } from '../../../shared/result'
import type { ModelClient } from '../model'
import type { Candidate } from './select'
import { selectCandidate } from './select'
import type { PromptLibrary } from '../prompt'
import { encodeTable, type Executor, type RunOutcome } from '../python/types'
import { answerKey, readAnswer } from './answer'
import type { AskRequest } from './generate'
import { DEFAULTS, generate } from './generate'
import { qaHandler } from './qa'

export type { AskRequest } from './generate'
export { MAX_N, MAX_QUESTION_CHARS } from './generate'

export type AskDeps = {
  client: ModelClient
  /** Answers `qa(...)` calls; the generating client when absent. */
  qaClient?: ModelClient
  executor: Executor
  library?: PromptLibrary
  /** Most `qa(...)` calls one program may make. Default 20. */
  maxQaCalls?: number
}

export async function ask(request: AskRequest, deps: AskDeps): Promise<Result<AskSummary>> {
  const started = Date.now()
  const askId = request.askId ?? randomUUID()
  const generated = await generate({ ...request, askId }, deps)
  if (!generated.ok) return generated
  const { library, prompt, kind, tables, names, samples, programs } = generated.value
  const notes = [...generated.value.notes]
  const { promptMs, generateMs } = generated.value.timings
  const o = request.options ?? {}
  const progress = (stage: AskProgress['stage'], done: number, total: number | null, message: string): void =>
    request.onProgress?.({ askId, stage, done, total, message })
  const cancelled = (): Result<AskSummary> => fail('cancelled', 'The question was cancelled.')
  const { client, executor } = deps
  const config = client.config

  const execStart = Date.now()
  const tableIds = tables.map((_, i) => `${askId}-t${i}`)
  let qaCalls = 0
  const qa = qaHandler(deps.qaClient ?? client, library, request.signal, () => {
    qaCalls += 1
    progress('qa', qaCalls, null, `qa call ${qaCalls}`)
  })
  const candidates: CandidateSummary[] = []
  try {
    for (const [i, table] of tables.entries()) await executor.loadTable(tableIds[i] ?? '', encodeTable(table))
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
      // The traceback is what lets the UI say which line failed and why (e.g. a removed network API).
      const detail = read.ok ? undefined : (read.error.detail ?? (outcome.result.ok ? undefined : outcome.result.error.traceback))
      candidates.push({
        ...base,
        program: program.value,
        result: read.ok
          ? { ok: true, answer: read.value }
          : { ok: false, error: { code: read.error.code, message: read.error.message, ...(detail === undefined ? {} : { detail }) } },
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
    selection = {
      mode: s.mode,
      requested: s.requested,
      score,
      ranking: s.ranking,
      ...(s.fallbackReason === undefined ? {} : { fallbackReason: s.fallbackReason }),
      ...(s.votes === undefined ? {} : { votes: s.votes })
    }
    chosen = s.index
    // The paper keeps the most probable program even when it fails; an answer from the next one that ran is more useful.
    if (s.mode === 'logprob' && candidates[chosen]?.result.ok !== true) {
      const next = s.ranking.find((k) => candidates[k]?.result.ok === true)
      if (next !== undefined) {
        notes.push(
          `The most probable program (candidate ${chosen + 1}) failed; the most probable one that ran (candidate ${next + 1}) was chosen.`
        )
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
