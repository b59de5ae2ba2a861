/**
 * HiTab's answer matching (`qa/table/utils.py` `hmt_score`): both sides are processed the same way
 * (numbers read from text, strings normalised, lists and matrices reduced), then compared strictly on
 * type with floats within 1e-5 and lists element-wise in order.
 */
import { normalizeString, pyStrip } from './normalize'

/** A processed answer: a float, a normalised string, or a list of processed values. */
export type HmtValue = { kind: 'float'; value: number } | { kind: 'string'; value: string } | { kind: 'list'; items: HmtValue[] }

const PY_FLOAT = /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/u
const PY_SPECIAL = /^\s*[+-]?(?:nan|inf|infinity)\s*$/iu

/** Python 3 `float(text)` (NaN and infinities included); null when it raises. */
function pyFloat(text: string): number | null {
  if (PY_FLOAT.test(text)) return Number(text.trim())
  if (PY_SPECIAL.test(text)) {
    const t = text.trim().toLowerCase()
    if (t.endsWith('nan')) return Number.NaN
    return t.startsWith('-') ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY
  }
  return null
}

export function processScalar(value: unknown): HmtValue {
  if (typeof value === 'number') return { kind: 'float', value }
  if (typeof value === 'boolean') return { kind: 'float', value: value ? 1 : 0 }
  const base = pyStrip(typeof value === 'string' ? value : value === null || value === undefined ? '' : JSON.stringify(value)).toLowerCase()
  let s = base
  if (s.startsWith('(')) s = s.slice(1)
  if (s.endsWith('%') || s.endsWith(')')) s = s.slice(0, -1)
  const parsed = pyFloat(s.replace(/,/g, ''))
  if (parsed !== null) return { kind: 'float', value: parsed }
  return { kind: 'string', value: normalizeString(base) }
}

/**
 * Process an answer: a scalar, a list (one element → that element), or a matrix (one cell → the cell,
 * one row or one column → that line, otherwise a list of processed rows).
 */
export function processAnswer(answer: unknown): HmtValue {
  if (!Array.isArray(answer)) return processScalar(answer)
  const isMatrix = answer.length > 0 && answer.every((r) => Array.isArray(r))
  if (isMatrix) {
    const rows = answer as unknown[][]
    if (rows.length === 1) return processAnswer(rows[0])
    if (rows.every((r) => r.length === 1)) return processAnswer(rows.map((r) => r[0]))
    return { kind: 'list', items: rows.map((r) => processAnswer(r)) }
  }
  if (answer.length === 1) return processAnswer(answer[0])
  return { kind: 'list', items: answer.map((a) => (Array.isArray(a) ? processAnswer(a) : processScalar(a))) }
}

export function hmtEqual(a: HmtValue, b: HmtValue): boolean {
  if (a.kind === 'float' && b.kind === 'float') return Math.abs(a.value - b.value) < 1e-5
  if (a.kind === 'string' && b.kind === 'string') return a.value === b.value
  if (a.kind === 'list' && b.kind === 'list')
    return a.items.length === b.items.length && a.items.every((x, i) => hmtEqual(x, b.items[i] as HmtValue))
  return false
}

/** Answer score: 1 when the processed prediction equals the processed gold. */
export function hitabCorrect(gold: unknown[], predicted: unknown): boolean {
  return hmtEqual(processAnswer(gold), processAnswer(predicted))
}
