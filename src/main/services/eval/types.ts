/** Types of the evaluation runner: datasets, questions, gold answers, candidates and per-question records. */
import type { ParsedTable } from '../../../shared/table'
import type { EngineRequestStats, SelectionMode } from '../../../shared/model'
import type { RepairedFrom } from '../../../shared/ask'
import type { Result } from '../../../shared/result'
import type { QaHandler } from '../python/types'
import type { AnswerGist } from '../pipeline/answer-fit'

export type DatasetId = 'wikitq' | 'hitab' | 'aitqa' | 'spider'
export type Split = 'dev' | 'test'
export const DATASETS: readonly DatasetId[] = ['wikitq', 'hitab', 'aitqa', 'spider']

/** What a question is scored against. AIT-QA uses the WikiTQ kind, with the numbers its printed answers stand for as canonical forms. */
export type Gold =
  | { kind: 'wikitq'; values: string[]; canon: string[] | null }
  | { kind: 'hitab'; answer: unknown[]; formulas: unknown[]; referenceCells: Record<string, string> }
  | { kind: 'spider'; sql: string; dbId: string; dbPath: string | null }

export type EvalQuestion = {
  id: string
  question: string
  /** The table (or database) the question is about; questions sharing it share one loaded table set. */
  tableKey: string
  gold: Gold
  /** Breakdown labels for the summary, e.g. `{ aggregation: 'div' }`. */
  types: Record<string, string>
  /** Set when the question cannot be scored here (e.g. its database is missing); it is counted, not scored. */
  unscorable?: string
}

/** The tables a question's program sees: `df` and, for databases, one DataFrame per table by name. */
export type TableSet = { main: ParsedTable | null; named: NamedTable[] }

/** A table bound by name. */
export type NamedTable = { name: string; table: ParsedTable }

export type EvalDataset = {
  id: DatasetId
  split: Split
  dir: string
  questions: EvalQuestion[]
  /** Read, import and structure the tables behind a table key. */
  loadTables(tableKey: string): Promise<Result<TableSet>>
  notes: string[]
}

/** A program's answer as plain data, shaped by the evaluation wrapper so every scorer can read it. */
export type AnswerCell = number | string | boolean | null
export type ShapedAnswer =
  { kind: 'none' } | { kind: 'scalar'; value: AnswerCell } | { kind: 'list'; items: AnswerCell[] } | { kind: 'table'; rows: AnswerCell[][] }

/**
 * No answer at all: nothing, an empty value, a list or a table without rows or with only missing values (NaN
 * or None, as an all-NaN Series): the app calls these "no answer".
 */
export function isEmptyAnswer(a: ShapedAnswer): boolean {
  switch (a.kind) {
    case 'none':
      return true
    case 'scalar':
      return a.value === null
    case 'list':
      return a.items.every((x) => x === null)
    case 'table':
      return a.rows.every((row) => row.every((x) => x === null))
  }
}

/** How many values an answer holds: a table's cells, a list's items, one for a value, none for nothing. */
export function answerSize(a: ShapedAnswer | undefined): number {
  switch (a?.kind) {
    case undefined:
    case 'none':
      return 0
    case 'scalar':
      return a.value === null ? 0 : 1
    case 'list':
      return a.items.length
    case 'table':
      return a.rows.reduce((n, row) => n + row.length, 0)
  }
}

/** An answer as the selection's fit tests see it (pipeline/answer-fit.ts): its size, and its value when it is one. */
export function answerGist(a: ShapedAnswer | undefined): AnswerGist {
  const size = answerSize(a)
  if (size !== 1 || a === undefined) return { size }
  switch (a.kind) {
    case 'scalar':
      return { size, value: a.value }
    case 'list':
      return { size, value: a.items[0] ?? null }
    case 'table':
      return { size, value: a.rows.flat()[0] ?? null }
    case 'none':
      return { size }
  }
}

/**
 * What a candidate contributes to a selection: its answer's comparable form, or none when it failed or gave an
 * empty answer. As in the app, an empty answer is no vote and never wins over an answer.
 */
export function voteOf(ok: boolean, answer: ShapedAnswer | undefined): { ok: true; answerKey: string } | { ok: false } {
  return ok && answer !== undefined && !isEmptyAnswer(answer) ? { ok: true, answerKey: JSON.stringify(answer) } : { ok: false }
}

/** One candidate program from a candidate source. */
export type CandidateProgram = {
  program: string
  /** `python` programs run as they are; `sql` is run through `sqldf` over the question's tables. */
  lang: 'python' | 'sql'
  logprobSum?: number | null
  logprobMean?: number | null
  /** Tokens the model generated for it, when known. */
  tokens?: number | null
  /** Set when the sample held no program to run (e.g. a reply without code): it is kept, not run, and fails. */
  error?: string
}

export type CandidateSet = {
  candidates: CandidateProgram[]
  tokens?: { prompt?: number; completion?: number }
  /** Answers the candidates' `qa(...)` calls; without one such calls raise in the program. */
  qa?: QaHandler
  /** Most `qa(...)` calls one candidate may make. */
  maxQaCalls?: number
  /** What the source wants the log to keep about this question (e.g. rows left out of the prompt). */
  notes?: string[]
  /** Where the built-in engine's time went (model sources on the built-in endpoint). */
  engine?: EngineRequestStats
  /**
   * Execution feedback (model sources with repair on): a corrected candidate for candidate `index`, whose
   * program failed as `note` says; null when the model gave none.
   */
  repair?: (index: number, program: string, note: string) => Promise<CandidateProgram | null>
  /** How many times a candidate may be corrected, each time with its latest program and error. Default 1. */
  repairRounds?: number
  /** Set when the source could not produce candidates for this question (the question scores 0). */
  error?: { category: MissCategory; message: string }
}

/** Where candidate programs come from: gold annotations (oracle) or a model. */
export type CandidateSource = {
  name: string
  /**
   * The candidates are the app's own programs built from gold annotations, not a model's: they run as
   * trusted code, in clean interpreters that stay in service. Never set for a model's programs.
   */
  trusted?: boolean
  /**
   * The question's candidates. `onCandidate` (when given) gets each one as soon as it is known, while the
   * rest are still being generated, so the runner can start running it.
   */
  candidates(
    question: EvalQuestion,
    tables: TableSet,
    signal?: AbortSignal,
    onCandidate?: (index: number, candidate: CandidateProgram) => void
  ): Promise<CandidateSet>
  close?(): Promise<void>
}

/** Why a question was missed. */
export type MissCategory = 'parse' | 'api' | 'execution' | 'formatting' | 'scorer' | 'gold-error' | 'model'

/**
 * What went wrong in a missed question, read mechanically from the log (miss-kind.ts): no program, a
 * program that failed (`detail` names the error), an empty answer, a table where one value was asked, the
 * right value in another form, a value from the wrong cell, a number the table does not hold, a gold
 * answer its own annotation does not support, or none of these.
 */
export type MissKind =
  'no-program' | 'error' | 'empty' | 'table-answer' | 'answer-form' | 'wrong-cell' | 'wrong-arithmetic' | 'gold-problem' | 'other'

/** The JSONL log line of one finished question. */
export type QuestionRecord = {
  id: string
  question: string
  tableKey: string
  types: Record<string, string>
  program: string | null
  candidates: CandidateRecord[]
  answer: ShapedAnswer | null
  gold: unknown
  correct: boolean
  /** Counted but not scored (missing database). */
  unscorable?: string
  error: string | null
  miss?: { category: MissCategory; evidence: string; kind?: MissKind; detail?: string }
  timeMs: number
  /** From the question's start to its first candidate that ran (to an answer or an error), ms; absent when none ran. */
  firstRunMs?: number
  /** Where the built-in engine's time went, when it answered. */
  engine?: EngineRequestStats
  tokens: { prompt?: number; completion?: number } | null
  /** `qa(...)` calls answered for this question, over all its candidates (absent in logs of older runs). */
  qaCalls?: number
  /** The selection mode that decided, and why it is not the requested one when it fell back. */
  selection?: { mode: SelectionMode; fallbackReason?: string }
  notes?: string[]
}

/** One candidate of a question as the log keeps it. */
export type CandidateRecord = {
  program: string
  lang?: CandidateProgram['lang']
  ok: boolean
  answer?: ShapedAnswer
  error?: string
  logprobSum?: number | null
  logprobMean?: number | null
  tokens?: number | null
  qaCalls?: number
  /** Whether this candidate's answer scores right (every candidate that ran is scored, not only the chosen one). */
  correct?: boolean
  /**
   * Set when the sampled program failed and was corrected with its error: the program before this one and
   * the error (and the one before that, after a second correction).
   */
  repairedFrom?: RepairedFrom
}
