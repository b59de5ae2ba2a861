/**
 * What kind of miss a wrong or failed question is, read from what the run logged: no program at all, a
 * program that failed (and which error), an empty answer, a table where one value was asked, the right
 * value in another form, a value read from the wrong cell, a number the table does not hold (wrong
 * arithmetic), or a gold answer that its own annotation does not support. Heuristic but mechanical, so
 * the counts of two runs compare.
 */

import type { ParsedTable } from '../../../shared/table'
import type { CandidateRecord, MissKind, ShapedAnswer, TableSet } from './types'

export type MissReading = { kind: MissKind; detail?: string }

/** The table's cell and header texts, normalised for comparison with answers. */
export function tableTexts(set: TableSet): Set<string> {
  const out = new Set<string>()
  const add = (t: ParsedTable): void => {
    for (const row of t.values) for (const cell of row) out.add(norm(cell))
    for (const path of [...t.columns, ...t.index]) for (const label of path) out.add(norm(label))
  }
  if (set.main !== null) add(set.main)
  for (const n of set.named) add(n.table)
  out.delete('')
  return out
}

/** Lower case, spaces collapsed, thousands separators and surrounding punctuation gone; numbers in one form. */
export function norm(value: unknown): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(Number(value.toPrecision(12))) : ''
  const text = (typeof value === 'string' ? value : value === null || value === undefined ? '' : JSON.stringify(value))
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
  const number = Number(text.replace(/(\d),(?=\d{3}\b)/g, '$1').replace(/[%$€£]/g, ''))
  if (text !== '' && /\d/.test(text) && Number.isFinite(number)) return String(Number(number.toPrecision(12)))
  return text.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '')
}

/** The answer's values as plain cells. */
export function answerValues(answer: ShapedAnswer): unknown[] {
  switch (answer.kind) {
    case 'none':
      return []
    case 'scalar':
      return [answer.value]
    case 'list':
      return answer.items
    case 'table':
      return answer.rows.flat()
  }
}

/** The error's class as the program raised it (`KeyError`, `HeaderNotFound`, …), or what stopped it. */
export function errorKind(message: string): string {
  const named = /\b([A-Z][A-Za-z]*(?:Error|Exception|NotFound|Header|Warning))\b/.exec(message)
  if (named !== null) return named[1] as string
  if (/time ?limit|timed out|timeout/i.test(message)) return 'timeout'
  if (/empty|nan|no answer|gave no readable answer/i.test(message)) return 'no answer'
  if (/no program|held no python|reply/i.test(message)) return 'no program'
  return 'other'
}

const numeric = (v: unknown): number | null => {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null
  const n = Number(
    String(v)
      .replace(/(\d),(?=\d{3}\b)/g, '$1')
      .replace(/[%$€£\s]/g, '')
  )
  return String(v).trim() !== '' && Number.isFinite(n) ? n : null
}

const close = (a: number, b: number): boolean => Math.abs(a - b) <= Math.max(1e-6, Math.abs(b) * 0.005)

/** Whether `values` equals `gold` up to form: order, case, rounding, a percentage as a fraction, or a list of one. */
function sameUpToForm(values: unknown[], gold: unknown[]): boolean {
  if (values.length === 0 || gold.length === 0) return false
  const g = gold.map(norm).sort()
  const v = values.map(norm).sort()
  if (g.length === v.length && g.every((x, i) => x === v[i])) return true
  if (g.length !== 1) return false
  const goldNumber = numeric(gold[0])
  return values.some((value) => {
    const n = numeric(value)
    if (goldNumber === null || n === null) return norm(value) === g[0]
    return [1, 100, 0.01, 1000, 0.001].some((scale) => close(n * scale, goldNumber))
  })
}

/**
 * Reads a miss. `chosen` is the selected candidate (null when none ran), `gold` the gold values when the
 * dataset gives them as values (not a query), `goldSuspect` set when the gold's own annotation disagrees
 * with it.
 */
export function missKind(o: {
  candidates: CandidateRecord[]
  chosen: CandidateRecord | null
  answer: ShapedAnswer | null
  gold: unknown[] | null
  texts: Set<string>
  goldSuspect?: boolean
}): MissReading {
  if (o.goldSuspect === true) return { kind: 'gold-problem' }
  if (o.candidates.length === 0 || o.candidates.every((c) => c.program === '')) return { kind: 'no-program' }
  if (o.answer === null || o.chosen === null || !o.chosen.ok) {
    const error = o.chosen?.error ?? o.candidates.find((c) => c.error !== undefined)?.error ?? 'failed'
    const kind = errorKind(error)
    return kind === 'no answer' ? { kind: 'empty' } : { kind: 'error', detail: kind }
  }
  const values = answerValues(o.answer)
  if (values.length === 0 || values.every((v) => v === null || norm(v) === '')) return { kind: 'empty' }
  if (o.gold !== null && sameUpToForm(values, o.gold)) return { kind: 'answer-form' }
  if (o.answer.kind === 'table' && (o.gold === null || o.gold.length <= 1) && values.length > 1) return { kind: 'table-answer' }
  const inTable = values.every((v) => o.texts.has(norm(v)))
  if (inTable) return { kind: 'wrong-cell' }
  if (values.some((v) => numeric(v) !== null)) return { kind: 'wrong-arithmetic' }
  return { kind: 'other' }
}
