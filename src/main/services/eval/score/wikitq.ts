/**
 * The WikiTQ evaluator's denotation matcher (ppasupat/WikiTableQuestions `evaluator.py`, v1.0.2):
 * each item is typed as a number, a date or a string from its canonical form, lists become sets, and a
 * prediction is correct when both sets have the same size and every gold item matches a predicted one.
 */
import { normalizeString } from './normalize'

export type WtqValue =
  | { kind: 'number'; amount: number; normalized: string }
  | { kind: 'date'; year: number; month: number; day: number; normalized: string }
  | { kind: 'string'; normalized: string }

const PY_INT = /^\s*[+-]?\d+\s*$/u
const PY_FLOAT = /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/u

/** Python 2 `int(text)`, else `float(text)` refusing NaN and infinities; null when neither parses. */
export function parsePyNumber(text: string): number | null {
  if (PY_INT.test(text)) return Number.parseInt(text.trim(), 10)
  if (PY_FLOAT.test(text)) {
    const v = Number(text.trim())
    return Number.isFinite(v) ? v : null
  }
  return null
}

function pyIntPart(part: string): number | null {
  return PY_INT.test(part) ? Number.parseInt(part.trim(), 10) : null
}

/** `year-month-day` with `xx` placeholders (year also `xxxx`); -1 marks an unknown part. */
export function parseWtqDate(text: string): [number, number, number] | null {
  const parts = text.toLowerCase().split('-')
  if (parts.length !== 3) return null
  const [ys, ms, ds] = parts as [string, string, string]
  const year = ys === 'xx' || ys === 'xxxx' ? -1 : pyIntPart(ys)
  const month = ms === 'xx' ? -1 : pyIntPart(ms)
  const day = ds === 'xx' ? -1 : pyIntPart(ds)
  if (year === null || month === null || day === null) return null
  if (year === -1 && month === -1 && day === -1) return null
  if (month !== -1 && (month < 1 || month > 12)) return null
  if (day !== -1 && (day < 1 || day > 31)) return null
  return [year, month, day]
}

function numberValue(amount: number, original: string): WtqValue {
  const stored = Math.abs(amount - Math.round(amount)) < 1e-6 ? Math.trunc(amount) : amount
  return { kind: 'number', amount: stored, normalized: original ? normalizeString(original) : String(stored) }
}

/** `to_value(original, canon)`: the type comes from the canonical string, the normalised text from the original. */
export function toValue(original: string, canon?: string | null): WtqValue {
  const typed = canon ? canon : original
  const amount = parsePyNumber(typed)
  if (amount !== null) return numberValue(amount, original)
  const ymd = parseWtqDate(typed)
  if (ymd !== null) {
    const [year, month, day] = ymd
    if (month === -1 && day === -1) return numberValue(year, original)
    return { kind: 'date', year, month, day, normalized: original ? normalizeString(original) : `${year}-${month}-${day}` }
  }
  return { kind: 'string', normalized: normalizeString(original) }
}

function identity(v: WtqValue): string {
  switch (v.kind) {
    case 'number':
      return `n:${v.amount}`
    case 'date':
      return `d:${v.year}-${v.month}-${v.day}`
    case 'string':
      return `s:${v.normalized}`
  }
}

/** `to_value_list`: a set, so duplicates collapse (strings by text, numbers by value, dates by y-m-d). */
export function toValueList(originals: string[], canons?: (string | null)[] | null): WtqValue[] {
  const seen = new Map<string, WtqValue>()
  originals.forEach((o, i) => {
    const v = toValue(o, canons ? (canons[i] ?? null) : null)
    const key = identity(v)
    if (!seen.has(key)) seen.set(key, v)
  })
  return [...seen.values()]
}

export function valueMatches(gold: WtqValue, pred: WtqValue): boolean {
  if (gold.normalized === pred.normalized) return true
  if (gold.kind === 'number' && pred.kind === 'number') return Math.abs(gold.amount - pred.amount) < 1e-6
  if (gold.kind === 'date' && pred.kind === 'date') return gold.year === pred.year && gold.month === pred.month && gold.day === pred.day
  return false
}

export function checkDenotation(gold: WtqValue[], pred: WtqValue[]): boolean {
  if (gold.length !== pred.length) return false
  return gold.every((g) => pred.some((p) => valueMatches(g, p)))
}

/** Score one question: gold strings (with canonical forms where the split has them) against predicted strings. */
export function wikitqCorrect(goldOriginals: string[], goldCanons: string[] | null, predicted: string[]): boolean {
  return checkDenotation(toValueList(goldOriginals, goldCanons), toValueList(predicted))
}

const GROUPED = /^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/u
const PLAIN = /^(?:\d+\.?\d*|\.\d+)$/u

/**
 * The number a cell printed in a financial report's usual way stands for, as a canonical string for
 * `toValue`: thousands separators, one currency sign before or a cent or percent sign after the figure,
 * a leading minus (ASCII or typographic) or accounting parentheses around it (`(1,844)` is −1844,
 * `(0.5)%` is −0.5). A percent keeps its printed figure (`0.5%` → `0.5`). Null when the text is not
 * such a number. Used for golds that come without canonical forms (AIT-QA's are cell texts).
 */
export function printedNumberCanon(text: string): string | null {
  let t = text.trim().replace(/\s+/gu, '')
  let negative = false
  const unwrap = (): void => {
    const m = /^\((.+)\)$/u.exec(t)
    if (m && !negative) {
      negative = true
      t = m[1] ?? ''
    }
  }
  if (/^[-−]/u.test(t)) {
    negative = true
    t = t.slice(1)
  }
  const suffix = /[%¢]$/u.exec(t)
  if (suffix) t = t.slice(0, -1)
  unwrap()
  if (/^[$€£¥]/u.test(t)) t = t.slice(1)
  unwrap()
  if (!suffix && /[%¢]$/u.test(t)) t = t.slice(0, -1)
  if (!GROUPED.test(t) && !PLAIN.test(t)) return null
  const amount = Number(t.replace(/,/gu, ''))
  if (!Number.isFinite(amount)) return null
  const digits = t.replace(/,/gu, '')
  return negative && amount !== 0 ? `-${digits}` : digits
}

/** The TSV escapes of WikiTQ files: `\n` newline, `\p` vertical bar, `\\` backslash. */
export function tsvUnescape(x: string): string {
  return x.replace(/\\n/g, '\n').replace(/\\p/g, '|').replace(/\\\\/g, '\\')
}

export function tsvUnescapeList(x: string): string[] {
  return x.split('|').map(tsvUnescape)
}
