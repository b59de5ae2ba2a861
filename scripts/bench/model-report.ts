/**
 * What the model bench reports from the question logs of a run (pure functions, tested on their own):
 * accuracy under each selection rule on the same candidates, how often the programs agree and how right
 * the answer is at each level of agreement, the kinds of misses, and where the time went; and which
 * questions a sample holds and their records in a run's folder.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { SelectionMode } from '../../src/shared/model'
import { normaliseAnswerKey, selectCandidate } from '../../src/main/services/pipeline/select'
import { preferFitting } from '../../src/main/services/pipeline/answer-fit'
import { sameProgram } from '../../src/main/services/pipeline/repair'
import { answerGist, type CandidateRecord, DATASETS, type DatasetId, type QuestionRecord, voteOf } from '../../src/main/services/eval/types'
import { repairDepth } from '../../src/shared/ask'

export function median(values: number[]): number {
  if (values.length === 0) return 0
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2
}

export const pct = (part: number, whole: number): number => (whole === 0 ? 0 : Number(((100 * part) / whole).toFixed(2)))

const scored = (records: QuestionRecord[]): QuestionRecord[] => records.filter((r) => r.unscorable === undefined)

/** The candidate a selection rule picks from a logged question, or null when none ran. */
export function pickWith(r: QuestionRecord, mode: SelectionMode): number | null {
  if (r.candidates.length === 0) return null
  const forSelect = preferFitting(
    r.candidates.map((c) => ({
      program: c.program,
      logprobSum: c.logprobSum ?? null,
      logprobMean: c.logprobMean ?? null,
      exec: voteOf(c.ok, c.answer)
    })),
    r.candidates.map((c) => (c.ok ? answerGist(c.answer) : { size: 0 })),
    r.question
  ).candidates
  const chosen = selectCandidate(forSelect, { mode })
  if (!chosen.ok) return null
  // As the app does: the most probable program that gave an answer, when the most probable one did not.
  const answered = (k: number): boolean => forSelect[k]?.exec.ok === true
  const index = chosen.value.index
  if (answered(index)) return index
  return chosen.value.ranking.find(answered) ?? index
}

/** Execution accuracy when each question's answer is chosen by `mode` among its logged candidates. */
export function eaWith(records: QuestionRecord[], mode: SelectionMode): number {
  const rs = scored(records)
  const right = rs.filter((r) => {
    const k = pickWith(r, mode)
    return k !== null && r.candidates[k]?.correct === true
  }).length
  return pct(right, rs.length)
}

/** Questions where at least one candidate is right: what a perfect selection would reach. */
export function anyRight(records: QuestionRecord[]): number {
  const rs = scored(records)
  return pct(rs.filter((r) => r.candidates.some((c) => c.correct === true)).length, rs.length)
}

export type Agreement = 'all agree' | 'majority' | 'split' | 'none ran'

/** How many of a question's candidates gave the chosen answer, as the user is told. */
export function agreementOf(r: QuestionRecord, mode: SelectionMode): { level: Agreement; agree: number; of: number } {
  const of = r.candidates.length
  const k = pickWith(r, mode)
  const chosen = k === null ? undefined : r.candidates[k]
  if (chosen === undefined || !chosen.ok || chosen.answer === undefined) return { level: 'none ran', agree: 0, of }
  const key = normaliseAnswerKey(JSON.stringify(chosen.answer))
  const agree = r.candidates.filter((c) => c.ok && c.answer !== undefined && normaliseAnswerKey(JSON.stringify(c.answer)) === key).length
  const level: Agreement = agree === of ? 'all agree' : agree * 2 > of ? 'majority' : 'split'
  return { level, agree, of }
}

export type CalibrationRow = { level: Agreement; questions: number; correct: number; ea: number }

/** EA at each level of agreement: how far an analyst can trust an answer the programs agree on. */
export function calibration(records: QuestionRecord[], mode: SelectionMode): CalibrationRow[] {
  const levels: Agreement[] = ['all agree', 'majority', 'split', 'none ran']
  const rs = scored(records)
  return levels.map((level) => {
    const at = rs.filter((r) => agreementOf(r, mode).level === level)
    const correct = at.filter((r) => {
      const k = pickWith(r, mode)
      return k !== null && r.candidates[k]?.correct === true
    }).length
    return { level, questions: at.length, correct, ea: pct(correct, at.length) }
  })
}

/** Misses by kind (and, for failed programs, by error), over the scored questions that are wrong. */
export function missKinds(records: QuestionRecord[]): { kinds: Record<string, number>; errors: Record<string, number> } {
  const kinds: Record<string, number> = {}
  const errors: Record<string, number> = {}
  for (const r of scored(records)) {
    if (r.correct) continue
    const kind = r.miss?.kind ?? 'unread'
    kinds[kind] = (kinds[kind] ?? 0) + 1
    if (kind === 'error') {
      const detail = r.miss?.detail ?? 'other'
      errors[detail] = (errors[detail] ?? 0) + 1
    }
  }
  return { kinds, errors }
}

/**
 * Of all samples, those whose reply held a program, those whose program ran to an answer (after any
 * repair), and those whose first program did; the repairs asked for, how many gave a program that ran, and
 * how many came back as the failed program itself (after the second ask a repeat calls for); and per round
 * of repairs, how many were asked for and how many ended there with a program that ran (a correction that
 * failed again is asked for in the next round).
 */
export function programs(records: QuestionRecord[]): {
  samples: number
  extractedPct: number
  ranPct: number
  ranFirstPct: number
  repairs: number
  repairsRan: number
  repairsRepeated: number
  rounds: { round: number; asked: number; ran: number }[]
} {
  const samples = records.flatMap((r) => r.candidates)
  const repaired = samples.filter((c) => c.repairedFrom !== undefined)
  return {
    samples: samples.length,
    extractedPct: pct(samples.filter((c) => c.program !== '' || c.repairedFrom !== undefined).length, samples.length),
    ranPct: pct(samples.filter((c) => c.program !== '' && c.ok).length, samples.length),
    ranFirstPct: pct(samples.filter((c) => c.program !== '' && c.ok && c.repairedFrom === undefined).length, samples.length),
    repairs: repaired.length,
    repairsRan: repaired.filter((c) => c.ok).length,
    repairsRepeated: repaired.filter((c) => c.repairedFrom !== undefined && sameProgram(c.program, c.repairedFrom.program)).length,
    rounds: roundsOf(repaired)
  }
}

function roundsOf(repaired: CandidateRecord[]): { round: number; asked: number; ran: number }[] {
  const depths = repaired.map((c) => ({ depth: repairDepth(c.repairedFrom), ok: c.ok }))
  const deepest = Math.max(0, ...depths.map((d) => d.depth))
  return Array.from({ length: deepest }, (_, k) => ({
    round: k + 1,
    asked: depths.filter((d) => d.depth >= k + 1).length,
    ran: depths.filter((d) => d.depth === k + 1 && d.ok).length
  }))
}

/** Where the questions' time went, from the engine's figures in the logs. */
export function timing(records: QuestionRecord[]): {
  questionP50Ms: number
  firstAnswerP50Ms: number
  promptTokensEvaluatedP50: number
  promptTokensP50: number
  samplesAtCap: number
  samplesTotal: number
  prefixSources: Record<string, number>
} {
  const engine = records.flatMap((r) => (r.engine === undefined ? [] : [r.engine]))
  const samples = engine.flatMap((e) => e.samples)
  const prefixSources: Record<string, number> = {}
  for (const e of engine) prefixSources[e.prefix.source] = (prefixSources[e.prefix.source] ?? 0) + 1
  return {
    questionP50Ms: Math.round(median(records.map((r) => r.timeMs))),
    firstAnswerP50Ms: Math.round(median(records.flatMap((r) => (r.firstRunMs === undefined ? [] : [r.firstRunMs])))),
    promptTokensEvaluatedP50: Math.round(median(engine.map((e) => e.promptEvaluatedTokens))),
    promptTokensP50: Math.round(median(engine.map((e) => e.promptTokens))),
    samplesAtCap: samples.filter((s) => s.finish === 'length').length,
    samplesTotal: samples.length,
    prefixSources
  }
}

/**
 * The records of the sample's questions: a --keep folder may also hold questions of a larger sample asked
 * in an earlier sitting, and a question asked again after an interrupted line counts once (the last).
 */
export function records(dir: string, ids: ReadonlySet<string>): QuestionRecord[] {
  const byId = new Map<string, QuestionRecord>()
  for (const line of readFileSync(join(dir, 'questions.jsonl'), 'utf8').split('\n')) {
    if (line.trim() === '') continue
    try {
      const r = JSON.parse(line) as QuestionRecord
      if (ids.has(r.id)) byId.set(r.id, r)
    } catch {
      // A line cut off by an interrupted run: the runner asked that question again.
    }
  }
  return [...byId.values()]
}

/** Part of a sample: the questions of one dataset's dev split from `offset` (0-based), `count` of them. */
export type SamplePart = { dataset: DatasetId; offset: number; count: number }

export const DEFAULT_SAMPLE: SamplePart[] = [
  { dataset: 'wikitq', offset: 0, count: 50 },
  { dataset: 'hitab', offset: 0, count: 50 },
  { dataset: 'aitqa', offset: 0, count: 25 },
  { dataset: 'spider', offset: 0, count: 25 }
]

/** How a part is written on the command line and in a run's record: `50` (the first 50) or `26-50`. */
export function partRange(part: SamplePart): string {
  return part.offset === 0 ? String(part.count) : `${part.offset + 1}-${part.offset + part.count}`
}

/** A part's questions of the split, in order. */
export function partQuestions<Q>(part: SamplePart, questions: readonly Q[]): Q[] {
  return questions.slice(part.offset, part.offset + part.count)
}

/**
 * `wikitq:50,hitab:50,…` (the first 50 of each) or `wikitq:26-50` (questions 26 to 50, counted from 1, so
 * that the second half of a sample can be asked on its own); `--limit N` alone sets the WikiTQ and HiTab
 * counts of the default sample.
 */
export function sampleOf(spec: string | undefined, limit: number | undefined): SamplePart[] {
  if (spec === undefined)
    return DEFAULT_SAMPLE.map((p) =>
      limit !== undefined && (p.dataset === 'wikitq' || p.dataset === 'hitab') ? { ...p, count: limit } : p
    )
  return spec.split(',').map((part) => {
    const [name, range] = part.split(':')
    const dataset = DATASETS.find((d) => d === name?.trim())
    const m = /^\s*(?:(\d+)\s*-\s*)?(\d+)\s*$/.exec(range ?? '')
    const first = m === null ? NaN : m[1] === undefined ? 1 : Number(m[1])
    const last = m === null ? NaN : Number(m[2])
    if (dataset === undefined || !Number.isInteger(first) || !Number.isInteger(last) || first < 1 || last < first)
      throw new Error(`--sample: '${part}' is not DATASET:COUNT or DATASET:FIRST-LAST (datasets: ${DATASETS.join(', ')})`)
    return { dataset, offset: first - 1, count: last - first + 1 }
  })
}
