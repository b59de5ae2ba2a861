/**
 * Numeric reading of cell text, as printed in statistical reports and filings.
 *
 * `1,234` → 1234, `(12)` → -12, `12%` → 12, `$3.5` → 3.5, `−5` → -5, `1 234` → 1234; markers of a
 * missing or suppressed value (`—`, `-`, `..`, `x`, `F`, `n/a`) → null; trailing footnote marks
 * (`12.5*`, `7†`, `3.1E`, `40 (a)`, `12¹`) are dropped.
 */

const PLAIN = /^-?\d+(?:\.\d+)?$/
const MISSING = new Set(['-', '--', '—', '–', '..', '...', '…', 'x', 'X', 'F', 'n/a', 'N/A', 'na', 'NA', 'nil', 'none', '*', '.'])
// Spaces of every width used as thousands separators.
const SPACES = /[\s\u00a0\u2007\u2009\u202f]+/g
// Footnote marks and quality flags (StatCan's E = use with caution) after a number.
export const FOOTNOTE_TAIL = /(?:[*†‡§¶#]+|[\u00b9\u00b2\u00b3\u2070-\u2079]+|(?<=\d)\s?[EF]|(?<=[\d%])\s*\([a-z]{1,2}\))$/
const CURRENCY = /^[$€£¥]|^(?:US\$|C\$|CA\$|USD|EUR|CAD)\s*/
const GROUPED = /^\d{1,3}(?:,\d{3})+(?:\.\d+)?$|^\d+(?:\.\d+)?$|^\.\d+$/

/** Parse a cell's text as a number, or null when it is not one. */
export function parseNumber(text: string): number | null {
  const quick = quickParse(text)
  if (quick !== undefined) return quick
  // Every number read below has an ASCII digit left once marks, signs and currencies are taken off; most
  // texts quickParse leaves ("..", "n/a", "Exports") have none.
  if (!hasDigit(text)) return null
  let s = text.trim()
  if (s.length === 0 || s.length > 40 || MISSING.has(s)) return null
  for (let i = 0; i < 2 && mayEndInMark(s); i++) s = s.replace(FOOTNOTE_TAIL, '').trim()
  if (s.length === 0) return null
  let negative = false
  if (s.startsWith('(') && (s.endsWith(')') || s.endsWith(')%'))) {
    negative = true
    s = s.endsWith('%') ? s.slice(1, -2) + '%' : s.slice(1, -1)
  }
  s = s.trim()
  const sign = /^[-−–+]/.exec(s)
  if (sign) {
    if (sign[0] !== '+') negative = !negative
    s = s.slice(1).trim()
  }
  s = s.replace(CURRENCY, '').trim()
  if (s.startsWith('(') && s.endsWith(')')) {
    negative = !negative
    s = s.slice(1, -1).trim()
  }
  const minusAfterCurrency = /^[-−–]/.exec(s)
  if (minusAfterCurrency) {
    negative = !negative
    s = s.slice(1)
  }
  if (s.endsWith('%')) s = s.slice(0, -1).trim()
  if (/^\d{1,3}(?:[\s\u00a0\u2007\u2009\u202f]\d{3})+(?:\.\d+)?$/.test(s)) s = s.replace(SPACES, '')
  if (!GROUPED.test(s)) return null
  const value = Number(s.replace(/,/g, ''))
  if (!Number.isFinite(value)) return null
  return negative ? -value : value
}

/**
 * Whether FOOTNOTE_TAIL can match: each of its forms ends in a mark, a superscript, E, F or ')'. The test is
 * cheap and the expression, tried from every position, is not.
 */
export function mayEndInMark(s: string): boolean {
  const c = s.charCodeAt(s.length - 1)
  // * # ) E F § ¶ ² ³ ¹ † ‡ ⁰…⁹
  return (
    c === 0x2a ||
    c === 0x23 ||
    c === 0x29 ||
    c === 0x45 ||
    c === 0x46 ||
    c === 0xa7 ||
    c === 0xb6 ||
    c === 0xb2 ||
    c === 0xb3 ||
    c === 0xb9 ||
    c === 0x2020 ||
    c === 0x2021 ||
    (c >= 0x2070 && c <= 0x2079)
  )
}

// 10^0 … 10^22, each exact in a double.
const POWERS = Array.from({ length: 23 }, (_, k) => Number(`1e${k}`))

/**
 * One pass over the common shapes ("12", "-3.5", "1,234.5"); undefined when the text needs the full
 * reading. Tables of a million cells spend most of their structure time here.
 */
function quickParse(text: string): number | null | undefined {
  const n = text.length
  if (n === 0) return null
  let i = 0
  const first = text.charCodeAt(0)
  if (first === 45) {
    i = 1
  } else if ((first >= 97 && first <= 122) || (first >= 65 && first <= 90)) {
    // Letters first: a word, unless a currency code or a missing-value marker.
    if (first === 85 || first === 67 || first === 69 || n <= 4) return undefined
    return null
  }
  const negative = i === 1
  let digits = 0
  let groupDigits = -1
  let grouped = false
  // The whole part's value, exact while it has at most 15 digits (below 2^53).
  let whole = 0
  for (; i < n; i++) {
    const c = text.charCodeAt(i)
    if (c >= 48 && c <= 57) {
      digits++
      whole = whole * 10 + (c - 48)
      if (groupDigits >= 0) groupDigits++
    } else if (c === 44) {
      if (digits === 0 || (groupDigits >= 0 && groupDigits !== 3) || (!grouped && digits > 3)) return undefined
      grouped = true
      groupDigits = 0
    } else break
  }
  if (digits === 0 || (grouped && groupDigits !== 3)) return undefined
  // A whole number needs no conversion from text; Number() gives the same value.
  if (i === n && digits <= 15) return negative ? -whole : whole
  // The digits after the point join the whole part's: the value is that integer over a power of ten.
  let places = 0
  if (i < n) {
    if (text.charCodeAt(i) !== 46 || i === n - 1) return undefined
    for (i++; i < n; i++) {
      const c = text.charCodeAt(i)
      if (c < 48 || c > 57) return undefined
      whole = whole * 10 + (c - 48)
      places++
    }
  }
  // Both exact (at most 15 digits, 10^22 at most), so their quotient is the correctly rounded value of the
  // text, as Number() reads it.
  if (digits + places <= 15 && places <= 22) {
    const value = whole / (POWERS[places] ?? 1)
    return negative ? -value : value
  }
  return Number(grouped ? text.replace(/,/g, '') : text)
}

/** True for the printed markers of a missing or suppressed value. */
export function isMissingMarker(text: string): boolean {
  return MISSING.has(text.trim())
}

/** A four-digit year between 1800 and 2100, optionally a span ("2016-17", "2016/2017") or a fiscal tag. */
export function isYearLike(text: string): boolean {
  const s = text.trim()
  // Such a year starts with 1 or 2: the expression is not run on other text.
  const first = s.charCodeAt(0)
  return (
    (first === 49 || first === 50) &&
    /^(?:18|19|20)\d{2}(?:\s*[-–/]\s*(?:\d{2}|(?:18|19|20)\d{2}))?(?:\s*\([a-z0-9]{1,2}\)|[*†‡]|\s+[a-z]{1,2})?$/i.test(s)
  )
}

const MONTH =
  '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?'
const DATE_FORMS = [
  // Sep-1948, Sep 1948, September 1948, Sep-48
  new RegExp(`^${MONTH}[\\s-]*(?:\\d{2}|(?:18|19|20)\\d{2})$`, 'i'),
  // 1948-09, 1948-09-30, 1948/09/30
  /^(?:18|19|20)\d{2}[-/](?:0?[1-9]|1[0-2])(?:[-/](?:0?[1-9]|[12]\d|3[01]))?$/,
  // 30/09/1948, 9/30/1948, 30.09.1948
  /^(?:(?:0?[1-9]|[12]\d|3[01])[/.](?:0?[1-9]|1[0-2])|(?:0?[1-9]|1[0-2])[/.](?:0?[1-9]|[12]\d|3[01]))[/.](?:18|19|20)\d{2}$/,
  // 1948 Q3, 1948-Q3, Q3 1948, 1948M09
  /^(?:(?:18|19|20)\d{2}\s*[-]?\s*(?:q[1-4]|m(?:0?[1-9]|1[0-2]))|q[1-4]\s*[-]?\s*(?:18|19|20)\d{2})$/i,
  // Dec. 31, 2024, September 30 2024 (the period ends of a filing's columns)
  new RegExp(`^${MONTH}\\s*(?:0?[1-9]|[12]\\d|3[01]),?\\s+(?:18|19|20)\\d{2}$`, 'i'),
  // 31 Dec 2024, 31 December 2024, 31-Dec-2024
  new RegExp(`^(?:0?[1-9]|[12]\\d|3[01])[\\s-]*${MONTH}[\\s-]*(?:18|19|20)\\d{2}$`, 'i')
]

// What every date form starts with: a digit, a month's first letter or Q.
const DATE_START = /^[\djfmasondq]/i

/** A date written as a year, a month and year, a full date or a quarter: the label of a time series row. */
export function isDateLike(text: string): boolean {
  const s = text.trim()
  return DATE_START.test(s) && (isYearLike(s) || DATE_FORMS.some((form) => form.test(s)))
}

// Marks after a period's label: a footnote "(a)", a flag "[x]" or "[p]", a dagger, a revision letter " r".
const PERIOD_MARK = /\s*(?:\([a-z0-9]{1,2}\)|\[[^\]]{1,4}\]|[*†‡]+|\s[a-z]{1,2})$/i

/**
 * The form of a label naming a period, marks left out: "Sep-1953" → "aaa-9999", "1971 [x]" → "9999"; null
 * for other labels. Rows of one time series share it.
 */
export function periodShape(label: string): string | null {
  // Every form of a date has a digit: without one, neither the marks nor the forms need reading.
  if (!hasDigit(label)) return null
  let s = label.trim()
  // A mark ends in a bracket, a dagger or a letter: a label ending in a digit ("1953") has none to take off.
  for (let i = 0; i < 2 && mayEndInPeriodMark(s); i++) s = s.replace(PERIOD_MARK, '')
  return s.length > 0 && isDateLike(s) ? s.toLowerCase().replace(/\d/g, '9').replace(/[a-z]/g, 'a') : null
}

/**
 * Whether a label can end in a PERIOD_MARK, read at its last characters: a bracket, a dagger or a star, or one
 * or two letters after a space. A label ending otherwise ("1953", "2020/21") has none to take off, and the
 * expression, tried from every position, is not run on it.
 */
function mayEndInPeriodMark(text: string): boolean {
  const n = text.length
  const last = text[n - 1] ?? ''
  if (last === ')' || last === ']' || last === '*' || last === '†' || last === '‡') return true
  if (!isAsciiLetter(last)) return false
  const before = text[n - 2] ?? ''
  return SPACE.test(before) || (isAsciiLetter(before) && SPACE.test(text[n - 3] ?? ''))
}

const SPACE = /^\s$/

function isAsciiLetter(c: string): boolean {
  const code = c.length === 1 ? c.charCodeAt(0) | 32 : 0
  return code >= 97 && code <= 122
}

/** Whether the text has an ASCII digit. */
export function hasDigit(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c >= 48 && c <= 57) return true
  }
  return false
}

/** How a cell reads for structure detection. */
export type CellKind = 'empty' | 'number' | 'missing' | 'text'

export function cellKind(text: string): CellKind {
  if (text.length === 0) return 'empty'
  // The common shapes in one pass: a number quickParse reads (never a missing marker), or a word of five
  // letters or more that it sets aside, when no space around it could make it a shorter marker ("none ").
  const quick = quickParse(text)
  if (quick !== undefined && quick !== null) return 'number'
  if (quick === null && text.trim() === text) return 'text'
  if (PLAIN.test(text)) return 'number'
  const s = text.trim()
  if (s.length === 0) return 'empty'
  if (MISSING.has(s)) return 'missing'
  return parseNumber(s) === null ? 'text' : 'number'
}
