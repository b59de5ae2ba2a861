/**
 * What each data column of a table holds once the Python runtime has read it (python/tableqa/columns.py):
 * numbers, text, or other values (dates, elapsed times, truth values). The prompt names the text columns,
 * because a column whose cells show numbers with words or units ("113.6 m", "1 (0+1)") holds strings that a
 * program must take the numbers out of before comparing them.
 *
 * The rule is the runtime's, written again here (a test runs both on real tables and on hard cells):
 * - An untyped column is numeric when each cell reads as a number the way reports write them (`1,234`,
 *   `(12)`, `12%`, `$3.5`, a Unicode minus) or as a missing-value mark (empty, a dash, `n/a`), and at least
 *   one cell is a number; any other untyped column is text.
 * - A column whose source types its cells (`stored`): numeric when each cell is a stored number, a missing
 *   value or untyped text read as above, and one is a number; dates (or elapsed times) and missing values
 *   only: other; truth values only: other; else text.
 */

import type { StoredColumn } from '../../../shared/table'

export type ColumnKind = 'number' | 'text' | 'other'

/** The part of a table the kinds are read from: the cell text, and the stored values where the source has them. */
export type KindsInput = {
  columns: readonly (readonly string[])[]
  values: readonly (readonly string[])[]
  stored?: readonly (StoredColumn | null)[]
}

const DASHES = /[\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d]/g
// The runtime's missing-value marks (python/tableqa/text.py), compared in lower case after dashes are made '-'.
const MISSING = new Set(['', '-', '--', '---', '.', '..', '...', 'n/a', 'na', 'n.a.', 'nan', 'none', 'null', 'x', 'f', '*', '**', '\u2026'])
const CURRENCY = '$\u20ac\u00a3\u00a5'
// Python's `\d` is any Unicode decimal digit.
const DIGIT = /\p{Nd}/u
const NUMBER = /^(?:(?:\p{Nd}{1,3}(?:,\p{Nd}{3})+|\p{Nd}+)(?:\.\p{Nd}*)?|\.\p{Nd}+)(?:[eE][-+]?\p{Nd}+)?$/u
const PLAIN = /^-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$/

// Python's whitespace (str.isspace): JavaScript's `\s` without U+FEFF, with U+001C–U+001F and U+0085.
const EDGE_SPACE =
  // eslint-disable-next-line no-control-regex -- the separators U+001C–U+001F are whitespace to Python
  /^[\t\n\v\f\r \x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g

/** Python's str.strip(). */
function strip(text: string): string {
  return text.replace(EDGE_SPACE, '')
}

/** Whether a cell's text stands for a missing value (the runtime's `is_blank_cell`). */
export function isBlankCell(text: string): boolean {
  return MISSING.has(strip(text).replace(DASHES, '-').toLowerCase())
}

/**
 * A cell's text read as a number the way reports write it (the runtime's `parse_number`): the number, NaN for a
 * missing-value mark, null when it is not a number.
 */
export function readNumber(text: string): number | null {
  let t = strip(text.normalize('NFKC')).replace(DASHES, '-')
  if (DIGIT.test(t)) t = t.replace(/[\u00a0\u202f ]/g, '')
  if (isBlankCell(t)) return Number.NaN
  let negative = false
  for (let k = 0; k < 2; k += 1) {
    if (t.endsWith('%')) t = strip(t.slice(0, -1))
    if (t.length > 2 && t.startsWith('(') && t.endsWith(')') && !negative) {
      negative = true
      t = strip(t.slice(1, -1))
    }
    if ((t.startsWith('-') || t.startsWith('+')) && t[1] !== '-') {
      negative = negative !== t.startsWith('-')
      t = strip(t.slice(1))
    }
    if (t !== '' && CURRENCY.includes(t[0] ?? '')) t = strip(t.slice(1))
  }
  if (!NUMBER.test(t)) return null
  const value = Number(t.replace(/,/g, '').replace(/\p{Nd}/gu, (d) => String(digitValue(d))))
  return negative ? -value : value
}

function digitValue(d: string): number {
  // Every Unicode decimal digit block runs 0–9 from a code point ending in 0 (hex).
  const cp = d.codePointAt(0) ?? 48
  return cp >= 48 && cp <= 57 ? cp - 48 : cp % 16
}

function untypedKind(texts: readonly string[]): ColumnKind {
  if (texts.length > 0 && texts.every((t) => PLAIN.test(t))) return 'number'
  let counted = false
  for (const t of texts) {
    const v = PLAIN.test(t) ? Number(t) : readNumber(t)
    if (v === null) return 'text'
    if (!Number.isNaN(v)) counted = true
  }
  return counted ? 'number' : 'text'
}

function storedKind(texts: readonly string[], stored: StoredColumn): ColumnKind {
  const kinds = stored.kinds.slice(0, texts.length).padEnd(texts.length, '.')
  if (/^n*$/.test(kinds)) return 'number'
  let numeric = true
  let counted = false
  let dated = true
  const seen = new Set<string>()
  texts.forEach((text, i) => {
    const kind = kinds[i] ?? '.'
    if (kind === '.') {
      const reading = readNumber(text)
      numeric &&= reading !== null
      counted ||= reading !== null && !Number.isNaN(reading)
      dated &&= isBlankCell(text)
      return
    }
    seen.add(kind)
    if (kind === 'n' || kind === 'N') counted = true
    else if (kind !== '0') numeric = false
    dated &&= kind === 'd' || kind === 'e' || kind === '0'
  })
  if (numeric && counted) return 'number'
  seen.delete('0')
  const present = [...seen]
  if (dated && present.length === 1 && (present[0] === 'd' || present[0] === 'e')) return 'other'
  if (present.length > 0 && present.every((k) => k === 't' || k === 'f') && !kinds.includes('.') && !kinds.includes('0')) return 'other'
  return 'text'
}

const known = new WeakMap<object, ColumnKind[]>()

/** The kind of each data column, as the runtime will read it. */
export function columnKinds(table: KindsInput): ColumnKind[] {
  const cached = known.get(table)
  if (cached !== undefined) return cached
  const width = Math.max(table.columns.length, ...table.values.map((r) => r.length))
  const kinds = Array.from({ length: width }, (_, j) => {
    const texts = table.values.map((r) => r[j] ?? '')
    const stored = table.stored?.[j]
    return stored === undefined || stored === null ? untypedKind(texts) : storedKind(texts, stored)
  })
  known.set(table, kinds)
  return kinds
}
