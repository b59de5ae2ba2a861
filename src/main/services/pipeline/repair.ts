/**
 * Execution feedback: a candidate whose program failed (an exception, no answer, an empty or NaN answer,
 * a table where one value was asked, one value that does not fit the question, such as a number where "who"
 * asked for a name: ./answer-fit.ts) is asked for once more, with its program and the short error, in the
 * same conversation as the question. Small models often write the right program but for one wrong
 * header or name; the error (which lists the close matches) is usually what they need to fix it.
 *
 * The repair's prompt starts with the question's own prompt, so an engine that keeps evaluated prompts
 * reads only the program and the error. It is sampled greedily: one fix per failed program. Small models
 * often answer the greedy repair with the failed program again, which can only fail again; such a repeat
 * is asked once more at the question's temperature, with a note that the same program fails the same way
 * (the engine already holds the prompt up to the note).
 */

import type { AnswerCell, AnswerTable, AskAnswer } from '../../../shared/ask'
import type { ChatMessage, Sample } from '../../../shared/model'
import type { AppError, Result } from '../../../shared/result'
import { fail, ok } from '../../../shared/result'
import type { ModelClient } from '../model'
import type { BuiltPrompt, PromptLibrary } from '../prompt'
import { fillTemplate } from '../prompt'
import { answerSize } from './answer'
import { MANY_THINGS, ONE_NUMBER, ONE_THING, askAnswerGist, misfitNote } from './answer-fit'
import { extractProgram } from './extract'

/** Added to the note when the model answered a repair with the failed program again. */
export const REPEATED_NOTE = 'Writing the same program again gives the same result: change the part that fails.'

/** Most characters of the error the model is shown. */
const ERROR_CHARS = 600

const MODULES =
  'Only pandas, the standard library and the helper functions are available: draw a chart with chart(data, kind=..., x=..., y=...) as the answer.'
const CHART = 'Draw a chart with chart(data, kind=..., x=..., y=...) as the answer.'
/** The runtime's own note on a module that is not there (python/tableqa/runner.py). */
const RUNTIME_MODULE_NOTE = 'that module is not available here'

/** What a program's run came to, as far as a repair is concerned. */
export type RunShape =
  | { failed: string }
  | { empty: true }
  /**
   * An answer of several values: a table's rows and cells (a list or a Series is one column), and the
   * labels of its first values where it has them (a Series' index, a one-row table's columns).
   */
  | { table: { rows: number; cells: number; labelled?: Labelled[] } }
  /** An answer of zero or nothing that came from conditions that matched no row (the runtime's notes). */
  | { unmatched: string[]; answer: string }
  /** One value that does not fit the question (./answer-fit.ts `misfitNote`), with what the repair is told. */
  | { misfit: string }
  | { fine: true }

/**
 * One value of an answer with its label: the header path it stands under in the answer; and where the
 * value is still a cell of the table it was read from, the read that gives that cell alone.
 */
export type Labelled = { label: string[]; value: AnswerCell; read?: string }

/** Most labelled values a repair note lists. */
const LABELLED_SHOWN = 12

/** A header path as a program writes it: "x" for one level, ("a", "b") for several. */
function pathText(label: string[]): string {
  const parts = label.map((x) => JSON.stringify(x))
  return parts.length === 1 ? (parts[0] as string) : `(${parts.join(', ')})`
}

function valueText(value: AnswerCell): string {
  return value === null ? 'missing' : String(value)
}

/** Labelled values as one line: `("a", "b") 9.9; ("a", "c") 8.8; … and 3 more`. */
function labelledText(values: Labelled[], total: number): string {
  const shown = values.slice(0, LABELLED_SHOWN).map((v) => `${pathText(v.label)} ${valueText(v.value)}`)
  const more = total - shown.length
  return `${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}`
}

/**
 * Values with the read of each, one per line as a program writes it (`df.loc[("a", "b"), "c"]  # 9.9`);
 * null unless every value shown has one. The answer's own labels have lost the levels its read selected,
 * and a program written from them alone reads a whole line again: the read names the cell in full.
 */
function readsText(values: Labelled[], total: number): string | null {
  const shown = values.slice(0, LABELLED_SHOWN)
  if (shown.length === 0 || shown.some((v) => v.read === undefined)) return null
  const more = total - shown.length
  return `${shown.map((v) => `${v.read ?? ''}  # ${valueText(v.value)}`).join('\n')}${more > 0 ? `\n… and ${more} more` : ''}`
}

/**
 * The labels of an answer table's values, when each value has one: a Series (one column with a row
 * index) by its index, a one-row table by its columns; empty otherwise.
 */
export function labelledValues(table: AnswerTable): Labelled[] {
  if (table.columns.length === 1 && table.index.length > 0)
    return table.index.flatMap((label, k) => {
      if (table.rows[k] === undefined) return []
      const read = table.reads?.[k]
      return [{ label, value: table.rows[k]?.[0] ?? null, ...(read === undefined ? {} : { read }) }]
    })
  if (table.rowCount === 1 && table.columns.length > 1)
    return table.columns.map((label, k) => ({ label, value: table.rows[0]?.[k] ?? null }))
  return []
}

/** Why a run calls for a repair, in one short paragraph for the model; null when it needs none. */
export function repairNote(question: string, run: RunShape): string | null {
  if ('failed' in run) {
    const text = run.failed.replace(/\s+/g, ' ').trim()
    const short = text.length > ERROR_CHARS ? `${text.slice(0, ERROR_CHARS - 1)}…` : text
    // A module the sandbox does not have (matplotlib, most often): say what there is instead, unless the
    // runtime's note already did; a plotting module: how to draw a chart.
    if (text.includes(RUNTIME_MODULE_NOTE)) return /\bmatplotlib\b/.test(text) ? `${short} ${CHART}` : short
    return /\bNo module named\b|\bmatplotlib\b/.test(text) ? `${short} ${MODULES}` : short
  }
  if ('empty' in run) return "The program's answer is empty (None, NaN or nothing). Compute the value the question asks for."
  if ('unmatched' in run)
    return `The answer is ${run.answer}, because ${run.unmatched.join('; and ')}. If the question is about rows the table has, compare with the value as the cells write it (or with part of a cell), then compute the answer again.`
  if ('misfit' in run) return run.misfit
  if (!('table' in run) || run.table.cells <= 1 || MANY_THINGS.test(question)) return null
  const { rows, cells, labelled = [] } = run.table
  // A column of values can be a fair answer to "which …" or "who …" (several names); never to "how many …".
  // Values with labels are listed with them, so that the one asked for can be picked by its label.
  if (rows === cells || rows === 1) {
    if (!ONE_NUMBER.test(question)) return null
    const several = `The answer is ${cells} values, but the question asks for one number.`
    const reads = readsText(labelled, cells)
    if (reads !== null)
      return `${several} Each value, and the read that gives it alone:\n${reads}\nRead the one the question asks for, or compute the number from them.`
    return labelled.length > 0
      ? `${several} The values by label: ${labelledText(labelled, cells)}. Select the one the question asks for by its row and column labels, or compute the number from them.`
      : `${several} Select the one cell it asks for (its row and its column), or compute the number from them.`
  }
  return ONE_THING.test(question)
    ? `The answer is a table of ${rows} rows, but the question asks for one value. Reduce it to the single value (or name) asked for.`
    : null
}

/**
 * Why a candidate's outcome in the app calls for a repair; null when it needs none. `unmatched` are the
 * runtime's notes on conditions that matched no row, when they left the answer empty.
 */
export function failureNote(
  question: string,
  outcome: { ok: true; answer: AskAnswer } | { ok: false; error: AppError },
  unmatched: string[] = []
): string | null {
  if (!outcome.ok) {
    // A reply without a program has nothing to repair; a cancelled run is not the program's fault.
    if (outcome.error.code === 'model-no-code' || outcome.error.code === 'cancelled') return null
    if (outcome.error.code !== 'no-answer') return repairNote(question, { failed: outcome.error.message })
    // An empty answer from a condition that matched no row: which, and what the cells hold.
    return repairNote(question, unmatched.length > 0 ? { unmatched, answer: 'empty' } : { empty: true })
  }
  const { answer } = outcome
  if (answer.chart !== undefined) return null
  if (answer.unmatched !== undefined && answer.unmatched.length > 0)
    return repairNote(question, { unmatched: answer.unmatched, answer: answer.text })
  const cells = answerSize(answer)
  const misfit = cells === 1 ? misfitNote(question, askAnswerGist(answer)) : null
  if (misfit !== null) return repairNote(question, { misfit })
  // A list answer is one column of values.
  const labelled = answer.table === undefined ? [] : labelledValues(answer.table)
  return repairNote(question, { table: { rows: answer.table?.rowCount ?? cells, cells, ...(labelled.length > 0 ? { labelled } : {}) } })
}

/** The question's prompt, followed by the failed program and what went wrong. */
export function repairPrompt(
  prompt: BuiltPrompt,
  library: PromptLibrary,
  program: string,
  note: string
): { prompt?: string; messages?: ChatMessage[]; fixed: number } {
  const feedback = fillTemplate(library.layout.repair, { error: note })
  const fenced = `${library.layout.codeOpen}\n${program}\n${library.layout.codeClose}`
  if (prompt.text !== null) {
    // The completion prompt ends inside an open code block, after the code every program starts with (which
    // the program holds): close it, then open the corrected one with that code again.
    const start = prompt.codePrefix ?? ''
    const rest = program.startsWith(start) ? program.slice(start.length) : program
    return {
      prompt: `${prompt.text}${rest}\n${library.layout.codeClose}\n\n${feedback}\n${library.layout.codeOpen}\n${start}`,
      fixed: prompt.fixed
    }
  }
  return {
    messages: [...(prompt.messages ?? []), { role: 'assistant', content: fenced }, { role: 'user', content: feedback }],
    fixed: prompt.fixed
  }
}

export type Repair = { sample: Sample; program: Result<string> }

/** The same program, but for spacing at the ends of lines and blank lines. */
export function sameProgram(a: string, b: string): boolean {
  const lines = (text: string): string =>
    text
      .split('\n')
      .map((line) => line.trimEnd())
      .filter((line) => line.trim() !== '')
      .join('\n')
  return lines(a) === lines(b)
}

/**
 * Asks the model to fix `program`, which failed as `note` says: greedily, and once more at `temperature`,
 * with `REPEATED_NOTE`, when that reply repeats the program (a temperature of 0 asks only once).
 */
export async function repairProgram(
  client: ModelClient,
  prompt: BuiltPrompt,
  library: PromptLibrary,
  program: string,
  note: string,
  o: { maxTokens: number; temperature: number; signal?: AbortSignal }
): Promise<Result<Repair>> {
  const ask = async (temperature: number, said: string): Promise<Result<Repair>> => {
    const request = repairPrompt(prompt, library, program, said)
    const sampled = await client.sample({
      ...request,
      ...(prompt.prefill === null ? {} : { prefill: prompt.prefill }),
      n: 1,
      temperature,
      maxTokens: o.maxTokens,
      stop: prompt.stop,
      logprobs: true,
      ...(o.signal === undefined ? {} : { signal: o.signal })
    })
    if (!sampled.ok) return sampled
    const sample = sampled.value[0]
    if (sample === undefined) return fail('model-bad-reply', 'The model sent no repair.')
    return ok({ sample, program: extractProgram(sample.text, prompt.codePrefix === null ? {} : { codePrefix: prompt.codePrefix }) })
  }
  const first = await ask(0, note)
  if (!first.ok) return first
  const repeated = first.value.program.ok && sameProgram(first.value.program.value, program)
  if (!repeated || o.temperature <= 0) return first
  const again = await ask(o.temperature, `${note} ${REPEATED_NOTE}`)
  // A second reply that fails to arrive leaves the first: the candidate is then run as it was.
  return again.ok ? again : first
}

/**
 * Rounds of repairs over a question's candidates: the first round calls `repair` for every candidate, each
 * later round for those the round before replaced (a correction that may have failed too), all of a round
 * side by side; `repair` gives the replacement, or null when the candidate needs none or the model gave
 * none. Rounds stop after `rounds`, when nothing was replaced, or when `more()` says so (a cancel).
 */
export async function repairInRounds<T>(
  candidates: readonly T[],
  rounds: number,
  repair: (candidate: T, index: number, round: number) => Promise<T | null>,
  more: () => boolean = () => true
): Promise<T[]> {
  let now = [...candidates]
  let open = now.map((_, k) => k)
  for (let round = 1; round <= rounds && open.length > 0 && more(); round += 1) {
    const before = now
    const replaced = await Promise.all(open.map(async (k) => [k, await repair(before[k] as T, k, round)] as const))
    now = [...before]
    open = []
    for (const [k, next] of replaced) {
      if (next === null) continue
      now[k] = next
      open.push(k)
    }
  }
  return now
}
