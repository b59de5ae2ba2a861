/** Types of asking a question about tables: what the UI sends, what it sees while waiting and what comes back. */

import type { BuiltinModelState } from './local-model'
import type { BuiltinSettings, EndpointConfig, EngineRequestStats, SelectionMode } from './model'
import type { AnswerChart } from './chart'
import type { AppError } from './result'
import type { CellRef, IndexView } from './table'

/** Which family of worked examples the prompt uses; `auto` decides from the tables. */
export type AskKind = 'auto' | 'relational' | 'hierarchical' | 'airline' | 'multi-table'

/** How a question is answered. Every field has a default (the seed paper's settings). */
export type AskOptions = {
  /** Programs sampled. Default 5. */
  n?: number
  /** Sampling temperature. Default 0.7. */
  temperature?: number
  /** How one program is chosen. Default `logprob`. */
  selection?: SelectionMode
  /** Which log-probability ranks candidates. Default `sum`. */
  score?: 'sum' | 'mean'
  /** A pandas program, or SQL through `sqldf`. Default `python`. */
  mode?: 'python' | 'sql'
  /** Helper functions offered: none, only `qa`, or all. Default `full`. */
  apis?: 'none' | 'qa' | 'full'
  /** Hierarchical headers as a MultiIndex (default) or flattened into single names (ablation). */
  tableRepr?: IndexView
  kind?: AskKind
  /** Most tokens one program may take. Default 600. */
  maxTokens?: number
  /**
   * How the prompt is laid out: `paper` (as in the paper) or `compact` (made for small local models).
   * Default: `compact` for the built-in model, `paper` for other endpoints.
   */
  profile?: 'paper' | 'compact'
  /**
   * Ask once more, with the error, for each candidate whose program failed (execution feedback). Default:
   * on for the built-in model, off for other endpoints.
   */
  repair?: boolean
  /**
   * How many times a failed candidate may be corrected, each time with its latest program and what went
   * wrong with it (when repair is on). Default 1 (a second round, measured on the WikiTQ sample with the
   * 1.5B model, gave no right answer and took longer: docs/BENCHMARKS.md › model); at most 3.
   */
  repairRounds?: number
  /** Time limit of one program, ms. Default 30 s. */
  timeoutMs?: number
}

/** One value of an answer, typed as the runtime normalised it. */
export type AnswerItem = { value: string | number | boolean; type: 'number' | 'string' | 'date' | 'boolean' }

/** One cell of a table answer: numbers stay numbers (dates are ISO text), null where the value is missing. */
export type AnswerCell = string | number | boolean | null

/** A DataFrame or Series answer as the answer panel shows it: a small grid. */
export type AnswerTable = {
  /** Column header tuples (one level for flat columns). */
  columns: string[][]
  /** Names of the row-index levels ("" where unnamed); empty when the index only numbers the rows. */
  indexNames: string[]
  /** The row-index tuple of each row; empty when the index only numbers the rows. */
  index: string[][]
  /** The cells, row by row (the first rows when the result was longer). */
  rows: AnswerCell[][]
  /** Rows of the whole result. */
  rowCount: number
  /**
   * For a short Series (one column) whose values are still the cells of the table they were read from, the
   * read that gives each value alone (`df.loc[("percent", "x"), ("men", "total")]`), row by row.
   */
  reads?: string[]
}

export type AskAnswer = {
  items: AnswerItem[]
  /** The items as one line of text. */
  text: string
  /** Source cells the answer was read from, where known. */
  cells: CellRef[]
  /** Something the user should know about the answer (cut to a size, read from printed output, ...). */
  note?: string
  /** The answer as a table, when the program returned a DataFrame or a Series. */
  table?: AnswerTable
  /** The answer as a chart, when the program returned `chart(...)`. */
  chart?: AnswerChart
  /** Conditions on text that matched no row, when the answer is zero (see `PythonOutput.unmatched`). */
  unmatched?: string[]
}

/** One sampled program and how it ran. */
export type CandidateSummary = {
  index: number
  /** The program found in the reply; null when the reply held none. */
  program: string | null
  logprobSum: number | null
  logprobMean: number | null
  result: { ok: true; answer: AskAnswer } | { ok: false; error: AppError }
  /** Comparable text of the answer, used for voting; null when the program failed. */
  answerKey: string | null
  /** Sub-questions the program asked through `qa(...)`. */
  qaCalls: number
  durationMs: number
  /**
   * Set when the sampled program failed and the model was asked once more with its error: the program
   * before this one and why it failed (and, after a second correction, the one before that). `program`
   * and `result` are then the corrected program's.
   */
  repairedFrom?: RepairedFrom
  /**
   * Conditions on text that matched no row, when the program's answer came out empty because of them (the
   * runtime's notes, see `PythonOutput.unmatched`); an answer keeps its own in `AskAnswer.unmatched`.
   */
  unmatched?: string[]
}

/** A failed program that a candidate's program corrects, and the failed programs before it, latest first. */
export type RepairedFrom = { program: string; error: string; before?: RepairedFrom }

/** How many times a candidate was corrected: 0 for a sampled program. */
export function repairDepth(from: RepairedFrom | undefined): number {
  let depth = 0
  for (let f = from; f !== undefined; f = f.before) depth += 1
  return depth
}

/** How a corrected candidate is marked: "repaired", or "repaired 2×" after two corrections; null for none. */
export function repairLabel(from: RepairedFrom | undefined): string | null {
  const depth = repairDepth(from)
  return depth === 0 ? null : depth === 1 ? 'repaired' : `repaired ${depth}×`
}

/** The program a candidate had after `round` corrections (0: as sampled), given its final program. */
export function programAtRound(program: string, from: RepairedFrom | undefined, round: number): string {
  let steps = repairDepth(from) - round
  let at = program
  for (let f = from; f !== undefined && steps > 0; f = f.before, steps -= 1) at = f.program
  return at
}

export type SelectionSummary = {
  mode: SelectionMode
  requested: SelectionMode
  score: 'sum' | 'mean'
  fallbackReason?: string
  /** Candidate indices, best first. */
  ranking: number[]
  votes?: { key: string; count: number; indices: number[] }[]
}

/** What answering one question produced. */
export type AskSummary = {
  askId: string
  question: string
  /** Null when no candidate produced an answer; `problem` then says why. */
  answer: AskAnswer | null
  problem?: AppError
  program: string | null
  /** Index of the chosen candidate. */
  chosen: number | null
  candidates: CandidateSummary[]
  selection: SelectionSummary | null
  /** QA sub-questions asked in all, across candidates. */
  qaCalls: number
  /** Estimated prompt tokens (characters / 3.5). */
  promptTokens: number
  promptVersion: number
  kind: Exclude<AskKind, 'auto'>
  executor: 'pyodide' | 'cpython'
  endpoint: { name: string; model: string; api: string }
  /** Things cut or changed on the way (rows left out of the prompt, fallbacks). */
  notes: string[]
  timings: { promptMs: number; generateMs: number; executeMs: number; totalMs: number }
  /** Where the built-in engine's time went (built-in endpoint only). */
  engine?: EngineRequestStats
}

/** Progress while a question is being answered: `generating 3/5`, `executing 2/5`, `qa call 4`. */
export type AskProgress = {
  askId: string
  stage: 'prompt' | 'generating' | 'executing' | 'qa' | 'selecting'
  done: number
  total: number | null
  message: string
  /**
   * With `executing`: the candidate that has just run, so its answer can be shown before the others are
   * in: its answer's text, or why it failed.
   */
  candidate?: { index: number; answer: string | null; error?: string; repaired?: boolean }
}

/** An OpenAI-compatible endpoint as the settings screen edits it; the registry assigns the id and the key reference. */
export type HttpEndpointDraft = Partial<Omit<EndpointConfig, 'apiKeyRef' | 'kind' | 'builtin'>> &
  Pick<EndpointConfig, 'name' | 'baseUrl' | 'model' | 'api'> & { kind?: 'openai' }

/** The built-in endpoint's settings as the settings screen edits them; fields left out keep their value. */
export type BuiltinEndpointDraft = { kind: 'builtin'; id?: string; builtin: Partial<BuiltinSettings> }

/** An endpoint as the settings screen edits it. */
export type EndpointDraft = HttpEndpointDraft | BuiltinEndpointDraft

/**
 * An endpoint as the UI sees it: whether a key is stored, never the key. The built-in endpoint also says
 * whether its model is ready.
 */
export type EndpointView = EndpointConfig & { hasKey: boolean; isDefault: boolean; builtinState?: BuiltinModelState }

/** What testing an endpoint found. */
export type EndpointTestReport = { models: string[]; modelListed: boolean; message: string }

/** Request of `question:ask`: tables open in the workspace by id (several for a database), the question, and how. */
export type AskQuestionRequest = {
  /** Lets the UI cancel the question and match progress events; one is made up when absent. */
  askId?: string
  tableIds: string[]
  question: string
  /** The configured endpoint to use; the default endpoint when absent. */
  endpointId?: string
  /** Another endpoint to answer `qa(...)` calls; the generating one when absent. */
  qaEndpointId?: string
  options?: AskOptions
}

/**
 * The answer in one line, for headlines and lists: a table of several rows and columns by its size (its
 * values joined would be a wall of numbers; the grid shows them), anything else by its text.
 */
export function answerHeadline(answer: Pick<AskAnswer, 'text' | 'table' | 'chart'>): string {
  const t = answer.table
  if (answer.chart === undefined && t !== undefined && t.rowCount > 1 && t.columns.length > 1)
    return `A table of ${t.rowCount.toLocaleString('en-US')} rows × ${t.columns.length} columns`
  return answer.text === '' ? '(empty)' : answer.text
}

/**
 * A table answer as plain text for a terminal: header rows (one per column level), the row-index tuples
 * on the left, columns padded to their widest cell, the first `maxRows` rows and a line saying how many
 * more there are. Cells keep their text; numbers are right-aligned.
 */
export function answerTableText(t: AnswerTable, maxRows = 20): string {
  const shown = t.rows.slice(0, maxRows)
  const indexWidth = t.index[0]?.length ?? 0
  const levels = Math.max(1, ...t.columns.map((c) => c.length))
  const cellText = (v: AnswerCell): string =>
    v === null ? '' : typeof v === 'number' ? v.toLocaleString('en-US', { maximumFractionDigits: 6 }) : String(v)
  const header: string[][] = []
  for (let level = 0; level < levels; level += 1) {
    const left = Array.from({ length: indexWidth }, (_, k) => (level === levels - 1 ? (t.indexNames[k] ?? '') : ''))
    // A label repeated across neighbouring columns at an upper level is shown once, as a spreadsheet merges it.
    const labels = t.columns.map((c, j) => {
      const label = c[level] ?? ''
      const prev = t.columns[j - 1]
      const sameParent = prev !== undefined && prev.slice(0, level + 1).join('\u0000') === c.slice(0, level + 1).join('\u0000')
      return level < levels - 1 && sameParent ? '' : label
    })
    header.push([...left, ...labels])
  }
  const body = shown.map((row, i) => [...(t.index[i] ?? []).map(String), ...row.map(cellText)])
  const numeric = [
    ...Array.from({ length: indexWidth }, () => false),
    ...t.columns.map((_, j) => shown.some((r) => typeof r[j] === 'number'))
  ]
  const all = [...header, ...body]
  const widths = numeric.map((_, j) => Math.max(...all.map((r) => (r[j] ?? '').length)))
  const line = (r: string[], alignNumbers: boolean): string =>
    r
      .map((c, j) => (alignNumbers && numeric[j] === true ? c.padStart(widths[j] ?? 0) : c.padEnd(widths[j] ?? 0)))
      .join('  ')
      .trimEnd()
  const lines = [...header.map((r) => line(r, false)), ...body.map((r) => line(r, true))]
  if (t.rowCount > shown.length) lines.push(`… ${(t.rowCount - shown.length).toLocaleString('en-US')} more rows`)
  return lines.join('\n')
}
