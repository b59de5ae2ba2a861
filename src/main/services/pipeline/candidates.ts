/**
 * Running one question's candidate programs: each as soon as its sample is in, side by side in the
 * question's own interpreters (the executor's pool decides how many run at once). A program sampled
 * twice runs once. Every run carries the question's scope, so the interpreters that ran them serve no
 * other question.
 */

import type { AskAnswer, AskProgress, CandidateSummary, RepairedFrom } from '../../../shared/ask'
import { repairDepth } from '../../../shared/ask'
import type { Sample } from '../../../shared/model'
import type { Result } from '../../../shared/result'
import type { Executor, QaHandler, RunOutcome } from '../python/types'
import { answerKey, readAnswer } from './answer'

export type CandidateRunOptions = {
  executor: Executor
  askId: string
  /** The unit of isolation: the question. */
  scope: string
  tableId: string | null
  namedTables: { name: string; tableId: string }[]
  timeoutMs: number
  qa: QaHandler
  maxQaCalls: number
  /** The question, for the runtime: of several headers one label names, it reads the one the question names. */
  question: string
  /** How many candidates the question has, for progress. */
  total: number
  signal?: AbortSignal
  progress: (stage: AskProgress['stage'], done: number, total: number | null, message: string, candidate?: AskProgress['candidate']) => void
}

export type CandidateRuns = {
  /** Start the candidate of sample `index` (a second start of the same index is ignored). */
  start(index: number, sample: Sample, program: Result<string>): void
  /** Every candidate, in sample order, once all have finished; those never started are started now. */
  finish(samples: Sample[], programs: Result<string>[]): Promise<CandidateSummary[]>
  /** Runs a corrected program for candidate `index`, whose program before failed as `from` says. */
  rerun(index: number, sample: Sample, program: Result<string>, from: RepairedFrom): Promise<CandidateSummary>
  /** Stop whatever is still running, and wait for it to end. */
  stop(): Promise<void>
}

export function candidateRuns(o: CandidateRunOptions): CandidateRuns {
  const started = new Map<number, Promise<CandidateSummary>>()
  const byProgram = new Map<string, Promise<RunOutcome>>()
  const running = new Set<string>()
  let finished = 0

  const execute = (index: number, code: string, suffix = ''): Promise<RunOutcome> => {
    const runId = `${o.askId}-c${index}${suffix}`
    const stop = (): void => void o.executor.stop(runId)
    o.signal?.addEventListener('abort', stop)
    running.add(runId)
    return o.executor
      .run({
        runId,
        code,
        tableId: o.tableId,
        ...(o.namedTables.length > 0 ? { namedTables: o.namedTables } : {}),
        timeoutMs: o.timeoutMs,
        qa: o.qa,
        maxQaCalls: o.maxQaCalls,
        question: o.question,
        scope: o.scope
      })
      .finally(() => {
        running.delete(runId)
        o.signal?.removeEventListener('abort', stop)
      })
  }

  const candidate = async (index: number, sample: Sample, program: Result<string>, from?: RepairedFrom): Promise<CandidateSummary> => {
    const base = {
      index,
      logprobSum: sample.logprobSum,
      logprobMean: sample.logprobMean,
      ...(from === undefined ? {} : { repairedFrom: from })
    }
    const done = (shown: AskProgress['candidate']): void => {
      if (from !== undefined) {
        o.progress('executing', finished, o.total, `repaired ${index + 1}`, { ...shown, index, repaired: true } as AskProgress['candidate'])
        return
      }
      finished += 1
      o.progress('executing', finished, o.total, `executing ${finished}/${o.total}`, shown)
    }
    if (!program.ok) {
      done({ index, answer: null, error: program.error.message })
      return { ...base, program: null, result: { ok: false, error: program.error }, answerKey: null, qaCalls: 0, durationMs: 0 }
    }
    const runStart = Date.now()
    const earlier = byProgram.get(program.value)
    const pending = earlier ?? execute(index, program.value, from === undefined ? '' : `r${repairDepth(from)}`)
    if (earlier === undefined) byProgram.set(program.value, pending)
    const outcome = await pending
    const read: Result<AskAnswer> = outcome.result.ok ? readAnswer(outcome.result.value) : { ok: false, error: outcome.result.error }
    done(read.ok ? { index, answer: read.value.text } : { index, answer: null, error: read.error.message })
    // The traceback is what lets the UI say which line failed and why (e.g. a removed network API).
    const detail = read.ok ? undefined : (read.error.detail ?? (outcome.result.ok ? undefined : outcome.result.error.traceback))
    // An empty answer keeps the conditions behind it, so that its repair is told them as the bench tells them.
    const unmatched = read.ok || !outcome.result.ok ? [] : (outcome.result.value.unmatched ?? [])
    return {
      ...base,
      program: program.value,
      result: read.ok
        ? { ok: true, answer: read.value }
        : { ok: false, error: { code: read.error.code, message: read.error.message, ...(detail === undefined ? {} : { detail }) } },
      answerKey: read.ok ? answerKey(read.value) : null,
      ...(unmatched.length > 0 ? { unmatched } : {}),
      // A repeated program did not run again, so it made no calls of its own.
      qaCalls: earlier === undefined ? outcome.qaCalls : 0,
      durationMs: Date.now() - runStart
    }
  }

  return {
    start: (index, sample, program) => {
      if (!started.has(index)) started.set(index, candidate(index, sample, program))
    },
    rerun: (index, sample, program, from) => candidate(index, sample, program, from),
    finish: (samples, programs) => {
      for (const [i, sample] of samples.entries()) {
        const program = programs[i]
        if (program !== undefined && !started.has(i)) started.set(i, candidate(i, sample, program))
      }
      return Promise.all(samples.map((_, i) => started.get(i) as Promise<CandidateSummary>))
    },
    stop: async () => {
      await Promise.all([...running].map((runId) => o.executor.stop(runId)))
      await Promise.allSettled(started.values())
    }
  }
}
