/**
 * Answering one question: render the prompt, sample n programs, run each against the tables (QA calls
 * answered by a model), normalise the answers, choose one. The seed paper's method with its defaults
 * (n = 5, temperature 0.7), choosing by execution vote with ties to the most probable program unless the
 * paper's highest log-probability rule is asked for.
 */

import { randomUUID } from 'node:crypto'
import type { AskProgress, AskSummary, CandidateSummary, SelectionSummary } from '../../../shared/ask'
import type { Result } from '../../../shared/result'
import { fail, ok } from '../../../shared/result'
import type { ModelClient } from '../model'
import type { Candidate } from './select'
import { selectCandidate } from './select'
import { askAnswerGist, leftOutNote, preferFitting } from './answer-fit'
import { DEFAULT_SELECTION } from '../../../shared/settings'
import type { PromptLibrary } from '../prompt'
import type { ParsedTable } from '../../../shared/table'
import { encodeTable, type Executor } from '../python/types'
import { candidateRuns } from './candidates'
import type { AskRequest, Generation } from './generate'
import { DEFAULTS, prepare, samplePrograms } from './generate'
import { qaHandler } from './qa'
import { failureNote, repairInRounds, repairProgram } from './repair'

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
  const prepared = await prepare({ ...request, askId }, deps)
  if (!prepared.ok) return prepared
  const { library, tables, names } = prepared.value
  const o = request.options ?? {}
  const progress = (
    stage: AskProgress['stage'],
    done: number,
    total: number | null,
    message: string,
    candidate?: AskProgress['candidate']
  ): void => request.onProgress?.({ askId, stage, done, total, message, ...(candidate === undefined ? {} : { candidate }) })
  const cancelled = (): Result<AskSummary> => fail('cancelled', 'The question was cancelled.')
  const { client, executor } = deps
  const config = client.config

  let qaCalls = 0
  const qa = qaHandler(deps.qaClient ?? client, library, request.signal, () => {
    qaCalls += 1
    progress('qa', qaCalls, null, `qa call ${qaCalls}`)
  })
  const held: Held = { ids: [], loaded: [] }
  let generated: Generation
  let candidates: CandidateSummary[]
  const execStart = Date.now()
  try {
    await holdTables(executor, askId, request, tables, held)
    const runs = candidateRuns({
      executor,
      askId,
      // The question is the unit of isolation: its interpreters serve no other question.
      scope: askId,
      tableId: tables.length === 1 ? (held.ids[0] ?? null) : null,
      namedTables: tables.length > 1 ? names.map((name, k) => ({ name, tableId: held.ids[k] ?? '' })) : [],
      timeoutMs: o.timeoutMs ?? DEFAULTS.timeoutMs,
      qa,
      maxQaCalls: deps.maxQaCalls ?? 20,
      question: request.question,
      total: o.n ?? DEFAULTS.n,
      ...(request.signal === undefined ? {} : { signal: request.signal }),
      progress
    })
    // Candidates start as their samples arrive, while the rest are still being generated.
    const sampled = await samplePrograms(prepared.value, { ...request, askId }, client, (index, sample, program) =>
      runs.start(index, sample, program)
    )
    if (!sampled.ok) {
      await runs.stop()
      return sampled
    }
    generated = sampled.value
    candidates = await runs.finish(generated.samples, generated.programs)
    if (o.repair ?? config.kind === 'builtin') {
      const gen = generated
      let repairsDone = 0
      let repairsAsked = 0
      // A correction that fails too is asked for again, with its own program and error.
      candidates = await repairInRounds(
        candidates,
        o.repairRounds ?? DEFAULTS.repairRounds,
        async (c) => {
          const note = c.program === null ? null : failureNote(request.question, c.result, c.unmatched)
          if (note === null || c.program === null) return null
          repairsAsked += 1
          const fixed = await repairProgram(client, gen.prompt, gen.library, c.program, note, {
            maxTokens: o.maxTokens ?? DEFAULTS.maxTokens,
            temperature: o.temperature ?? DEFAULTS.temperature,
            ...(request.signal === undefined ? {} : { signal: request.signal })
          })
          repairsDone += 1
          progress('generating', repairsDone, repairsAsked, `repairing ${repairsDone} of ${repairsAsked}`)
          if (!fixed.ok) return null
          // The candidate keeps its sample's log-probability: the repair is the same approach, corrected.
          const sample = { ...fixed.value.sample, logprobSum: c.logprobSum, logprobMean: c.logprobMean }
          const from = { program: c.program, error: note, ...(c.repairedFrom === undefined ? {} : { before: c.repairedFrom }) }
          return runs.rerun(c.index, sample, fixed.value.program, from)
        },
        () => !aborted(request.signal)
      )
    }
  } finally {
    // Every run of the question has ended; the executor handles messages in order, so the question's
    // interpreters are gone before anything sent later is served, and the answer need not wait for that.
    void executor.endScope(askId).catch(() => undefined)
    for (const id of held.loaded) await executor.dropTable(id).catch(() => undefined)
  }
  if (aborted(request.signal)) return cancelled()
  const { prompt, kind } = generated
  const notes = [...generated.notes]
  const { promptMs, generateMs } = generated.timings
  // Execution overlaps generation; what is counted here is the wait for the programs after the last sample.
  const executeMs = Math.max(0, Date.now() - execStart - generateMs)

  progress('selecting', candidates.length, candidates.length, 'choosing an answer')
  const score = o.score ?? 'sum'
  const fitted = preferFitting(
    candidates.map((c) => ({
      program: c.program ?? '',
      logprobSum: c.logprobSum,
      logprobMean: c.logprobMean,
      exec: c.answerKey === null ? { ok: false } : { ok: true, answerKey: c.answerKey }
    })),
    candidates.map((c) => (c.result.ok ? askAnswerGist(c.result.answer) : { size: 0 })),
    request.question
  )
  const forSelect: Candidate[] = fitted.candidates
  const selected = selectCandidate(forSelect, { mode: o.selection ?? DEFAULT_SELECTION, score })
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
    if (s.mode === 'logprob' && forSelect[chosen]?.exec.ok !== true) {
      const next = s.ranking.find((k) => forSelect[k]?.exec.ok === true)
      if (next !== undefined) {
        notes.push(
          candidates[chosen]?.result.ok === true
            ? `The most probable program (candidate ${chosen + 1}) gave an answer that does not fit the question; the most probable one whose answer does (candidate ${next + 1}) was chosen.`
            : `The most probable program (candidate ${chosen + 1}) failed; the most probable one that ran (candidate ${next + 1}) was chosen.`
        )
        chosen = next
      }
    }
    if (s.fallbackReason !== undefined) notes.push(s.fallbackReason)
    notes.push(...fitted.leftOut.map(leftOutNote))
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
    timings: { promptMs, generateMs, executeMs, totalMs: Date.now() - started },
    ...(generated.engine === null ? {} : { engine: generated.engine })
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

type Held = { ids: string[]; loaded: string[] }

/**
 * The ids under which the executor holds the question's tables. A table the executor already holds as it
 * was opened (the workspace's payload, given as `tableId`) is used as it is, so nothing is encoded or
 * copied per question; a table in another view (flattened for this question) is loaded for it and
 * listed in `loaded`, to be dropped afterwards.
 */
async function holdTables(executor: Executor, askId: string, request: AskRequest, tables: ParsedTable[], held: Held): Promise<void> {
  const { ids, loaded } = held
  for (const [i, table] of tables.entries()) {
    const given = request.tables[i]
    if (given?.tableId !== undefined && given.table === table) {
      ids.push(given.tableId)
      continue
    }
    const id = `${askId}-t${i}`
    await executor.loadTable(id, encodeTable(table))
    loaded.push(id)
    ids.push(id)
  }
}

function aborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true
}
