/**
 * A run's output as an answer: typed items, a comparable key for voting, and a cap on size. Pandas and numpy
 * values arrive already normalised by the runtime (`{"items", "cells"}`); plain Python data arrives as JSON.
 */

import type { AnswerItem, AnswerTable, AskAnswer } from '../../../shared/ask'
import { chartValues } from '../../../shared/chart'
import type { PythonOutput } from '../../../shared/python'
import type { Result } from '../../../shared/result'
import { fail, ok } from '../../../shared/result'
import type { CellRef } from '../../../shared/table'
import { readChart, readTable, recordsTable } from './answer-shapes'

/** Most values an answer keeps; a question wants one value or a short list, not a whole table. */
export const MAX_ANSWER_ITEMS = 1_000

function item(value: unknown): AnswerItem | null {
  if (value === null || value === undefined) return null
  if (typeof value === 'boolean') return { value, type: 'boolean' }
  if (typeof value === 'number') return Number.isFinite(value) ? { value, type: 'number' } : null
  if (typeof value === 'string') return { value: value.trim(), type: 'string' }
  return { value: JSON.stringify(value), type: 'string' }
}

function flatten(value: unknown, out: unknown[]): void {
  if (out.length > MAX_ANSWER_ITEMS) return
  if (Array.isArray(value)) for (const v of value) flatten(v, out)
  else if (typeof value === 'object' && value !== null) for (const v of Object.values(value)) flatten(v, out)
  else out.push(value)
}

function isNormalised(json: unknown): json is { items: unknown[]; cells?: unknown[]; table?: unknown } {
  return typeof json === 'object' && json !== null && !Array.isArray(json) && Array.isArray((json as { items?: unknown }).items)
}

function asItem(raw: unknown): AnswerItem | null {
  if (typeof raw !== 'object' || raw === null) return null
  const { value, type } = raw as { value?: unknown; type?: unknown }
  if (type === 'number' && typeof value === 'number') return { value, type }
  if (type === 'boolean' && typeof value === 'boolean') return { value, type }
  if ((type === 'string' || type === 'date') && typeof value === 'string') return { value, type }
  return item(value)
}

function asCell(raw: unknown): CellRef | null {
  if (typeof raw !== 'object' || raw === null) return null
  const { row, col } = raw as { row?: unknown; col?: unknown }
  return typeof row === 'number' && typeof col === 'number' ? { row, col } : null
}

/** Text of one value for voting: numbers to 10 significant digits so float noise votes together. */
export function itemKey(i: AnswerItem): string {
  if (typeof i.value === 'number') return Number.isInteger(i.value) ? String(i.value) : String(Number(i.value.toPrecision(10)))
  return String(i.value)
}

export function answerKey(answer: AskAnswer): string {
  return answer.items.map(itemKey).join(' | ')
}

/** The answer of a finished program, or why there is none. */
export function readAnswer(output: PythonOutput): Result<AskAnswer> {
  const notes: string[] = []
  let items: AnswerItem[] = []
  let cells: CellRef[] = []
  let table: AnswerTable | null = null
  const value = output.value
  const chart = value?.type === 'Chart' ? readChart(value.json) : null
  if (chart) {
    if (!chart.ok) return chart
    const values = chartValues(chart.value.spec)
      .slice(0, MAX_ANSWER_ITEMS)
      .map(item)
      .filter((i): i is AnswerItem => i !== null)
    return ok({ items: values, text: `Chart: ${chart.value.summary}`, cells: [], chart: chart.value })
  }
  if (value === null) {
    const printed = output.stdout
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '')
    const last = printed.at(-1)
    if (last === undefined)
      return fail('no-answer', 'The program ran but gave no answer: it neither assigned `answer` nor ended with an expression.')
    items = [{ value: last, type: 'string' }]
    notes.push('The program assigned no answer; its last printed line is used.')
  } else if (value.json === undefined) {
    items = [{ value: value.repr, type: 'string' }]
    notes.push(`The answer (a ${value.type}) could not be read as data; its text form is shown.`)
  } else if (isNormalised(value.json)) {
    items = value.json.items.map(asItem).filter((i): i is AnswerItem => i !== null)
    cells = (value.json.cells ?? []).map(asCell).filter((c): c is CellRef => c !== null)
    table = readTable(value.json.table)
  } else {
    table = recordsTable(value.json)
    const flat: unknown[] = []
    flatten(value.json, flat)
    items = flat.map(item).filter((i): i is AnswerItem => i !== null)
  }
  const unmatched = output.unmatched ?? []
  if (items.length === 0)
    return fail(
      'no-answer',
      `The program's answer is empty (${value === null ? 'nothing printed' : `${value.type} ${value.repr.slice(0, 80)}`}).` +
        unmatched.map((u) => ` ${sentence(u)}`).join('')
    )
  const shape = value === null ? null : /\[(\d+) rows x (\d+) columns\]\s*$/.exec(value.repr)
  if (items.length > MAX_ANSWER_ITEMS || (shape !== null && Number(shape[1]) * Number(shape[2]) > MAX_ANSWER_ITEMS)) {
    const size =
      shape !== null
        ? `a ${value?.type ?? 'table'} of ${Number(shape[1]).toLocaleString('en-US')} rows × ${shape[2]} columns`
        : `${items.length.toLocaleString('en-US')}+ values`
    items = items.slice(0, MAX_ANSWER_ITEMS)
    notes.push(
      `The answer is ${size}; only the first ${MAX_ANSWER_ITEMS.toLocaleString('en-US')} values are kept. A question usually wants one value or a short list — check the program.`
    )
  }
  if (unmatched.length > 0) notes.push(`Check this answer: ${unmatched.map(sentence).join(' ')}`)
  const readings = output.readings ?? []
  if (readings.length > 0) notes.push(`How the runtime read the program and its answer: ${readings.map(sentence).join(' ')}`)
  const answer: AskAnswer = { items, text: items.map((i) => String(i.value)).join(', '), cells }
  if (unmatched.length > 0) answer.unmatched = unmatched
  if (notes.length > 0) answer.note = notes.join(' ')
  if (table !== null) answer.table = table
  return ok(answer)
}

/** A runtime note as a sentence: a capital first letter is left as written, a full stop added. */
function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`
}

/** How many values an answer holds: a table's cells, a list's items, one for a chart. */
export function answerSize(answer: AskAnswer): number {
  if (answer.chart !== undefined) return 1
  return answer.table === undefined ? answer.items.length : answer.table.rowCount * Math.max(1, answer.table.columns.length)
}
