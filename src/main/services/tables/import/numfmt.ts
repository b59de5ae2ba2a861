/**
 * Spreadsheet number formats → displayed text, for the common cases: General, fixed decimals,
 * thousands separators, percent, scientific, literal prefixes/suffixes, negative sections and dates.
 * Anything unusual falls back to the General rendering, which keeps the stored value.
 */

export const BUILTIN_FORMATS: Record<number, string> = {
  0: 'General',
  1: '0',
  2: '0.00',
  3: '#,##0',
  4: '#,##0.00',
  9: '0%',
  10: '0.00%',
  11: '0.00E+00',
  12: '# ?/?',
  13: '# ??/??',
  14: 'm/d/yyyy',
  15: 'd-mmm-yy',
  16: 'd-mmm',
  17: 'mmm-yy',
  18: 'h:mm AM/PM',
  19: 'h:mm:ss AM/PM',
  20: 'h:mm',
  21: 'h:mm:ss',
  22: 'm/d/yyyy h:mm',
  37: '#,##0 ;(#,##0)',
  38: '#,##0 ;(#,##0)',
  39: '#,##0.00;(#,##0.00)',
  40: '#,##0.00;(#,##0.00)',
  45: 'mm:ss',
  46: '[h]:mm:ss',
  47: 'mm:ss.0',
  48: '##0.0E+0',
  49: '@'
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']

/** The stored value with float noise removed (0.30000000000000004 → 0.3). */
export function generalNumber(v: number): string {
  if (!Number.isFinite(v)) return String(v)
  if (Number.isInteger(v) && Math.abs(v) < 1e21) return String(v)
  return String(Number(v.toPrecision(15)))
}

function splitSections(code: string): string[] {
  const out: string[] = []
  let cur = ''
  let inQuote = false
  for (let k = 0; k < code.length; k++) {
    const ch = code[k] as string
    if (ch === '"') inQuote = !inQuote
    if (ch === '\\' && !inQuote) {
      cur += code.slice(k, k + 2)
      k++
      continue
    }
    if (ch === ';' && !inQuote) {
      out.push(cur)
      cur = ''
    } else cur += ch
  }
  out.push(cur)
  return out
}

type Token = { literal: boolean; text: string }

/** Split a section into literal text and format characters; drop colours, fills and locale tags. */
function tokenize(section: string): Token[] {
  const tokens: Token[] = []
  for (let k = 0; k < section.length; k++) {
    const ch = section[k] as string
    if (ch === '"') {
      const end = section.indexOf('"', k + 1)
      const stop = end < 0 ? section.length : end
      tokens.push({ literal: true, text: section.slice(k + 1, stop) })
      k = stop
    } else if (ch === '\\') {
      tokens.push({ literal: true, text: section[k + 1] ?? '' })
      k++
    } else if (ch === '_') {
      tokens.push({ literal: true, text: ' ' })
      k++
    } else if (ch === '*') {
      k++
    } else if (ch === '[') {
      const end = section.indexOf(']', k)
      const inner = section.slice(k + 1, end < 0 ? section.length : end)
      const currency = /^\$([^-]*)/.exec(inner)
      if (currency !== null) tokens.push({ literal: true, text: currency[1] ?? '' })
      else if (/^h+$|^m+$|^s+$/i.test(inner)) tokens.push({ literal: false, text: `[${inner}]` })
      k = end < 0 ? section.length : end
    } else if ((ch === 'E' || ch === 'e') && (section[k + 1] === '+' || section[k + 1] === '-')) {
      tokens.push({ literal: false, text: ch + section[k + 1] })
      k++
    } else if (ch === '$' || ch === '-' || ch === '+' || ch === '(' || ch === ')' || ch === ' ' || ch === ':' || ch === '/') {
      tokens.push({ literal: true, text: ch })
    } else tokens.push({ literal: false, text: ch })
  }
  return tokens
}

function isDateFormat(tokens: Token[]): boolean {
  return (
    tokens.some((t) => !t.literal && /[yYdDhHsS]|^\[/.test(t.text)) ||
    (tokens.some((t) => !t.literal && /[mM]/.test(t.text)) && !tokens.some((t) => !t.literal && /[0#?]/.test(t.text)))
  )
}

function group(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
}

/** What a plain number section (digits, separators, percent, exponent, literals) asks for, read once per format. */
type PlainPlan = {
  prefix: string
  suffix: string
  /** The section has no digit placeholders: it shows only its literals. */
  literalOnly: boolean
  percent: boolean
  /** Divide by 1000 this many times (trailing thousands separators). */
  scale: number
  exponent: boolean
  minFrac: number
  maxFrac: number
  minInt: number
  grouped: boolean
}

/** The plan of a plain number section; null when it has characters only dates or fractions use. */
function plainPlan(tokens: Token[]): PlainPlan | null {
  const pattern = tokens
    .filter((t) => !t.literal)
    .map((t) => t.text)
    .join('')
  if (/[^0#?.,%Ee+\-@]/.test(pattern)) return null
  const first = tokens.findIndex((t) => !t.literal && /[0#?.]/.test(t.text))
  let last = -1
  for (let k = tokens.length - 1; k >= 0; k--) {
    const t = tokens[k] as Token
    if (!t.literal && /[0#?.,]/.test(t.text)) {
      last = k
      break
    }
  }
  const prefix = tokens
    .slice(0, Math.max(first, 0))
    .map((t) => t.text)
    .join('')
  const suffix = tokens
    .slice(last + 1)
    .map((t) => t.text)
    .join('')
  const body = tokens
    .slice(Math.max(first, 0), last + 1)
    .filter((t) => !t.literal)
    .map((t) => t.text)
    .join('')
  const scale = /,+$/.exec(body)?.[0].length ?? 0
  const core = body.slice(0, body.length - scale)
  const [intPat = '', fracPat = ''] = core.split(/[Ee][+-]/)[0]?.split('.') ?? []
  return {
    prefix,
    suffix,
    literalOnly: first < 0,
    percent: pattern.includes('%'),
    scale,
    exponent: /[Ee][+-]/.test(pattern),
    minFrac: (fracPat.match(/0/g) ?? []).length,
    maxFrac: (fracPat.match(/[0#?]/g) ?? []).length,
    minInt: (intPat.match(/0/g) ?? []).length,
    grouped: intPat.includes(',')
  }
}

function formatPlain(v: number, plan: PlainPlan): string {
  const { prefix, suffix } = plan
  if (plan.literalOnly) return prefix + suffix
  const value = (plan.percent ? v * 100 : v) / 1000 ** plan.scale
  if (plan.exponent) {
    const s = value.toExponential(plan.maxFrac)
    const [mant = '', exp = '0'] = s.split('e')
    const n = Number(exp)
    return `${prefix}${mant}E${n < 0 ? '-' : '+'}${String(Math.abs(n)).padStart(2, '0')}${suffix}`
  }
  const fixed = value.toFixed(plan.maxFrac)
  let [intPart = '', fracPart = ''] = fixed.split('.')
  while (fracPart.length > plan.minFrac && fracPart.endsWith('0')) fracPart = fracPart.slice(0, -1)
  if (intPart === '0' && plan.minInt === 0) intPart = ''
  intPart = intPart.padStart(plan.minInt, '0')
  if (plan.grouped) intPart = group(intPart)
  return prefix + (fracPart.length > 0 ? `${intPart}.${fracPart}` : intPart) + suffix
}

/** Excel serial day → UTC date parts (1900 system with its phantom 29 Feb 1900, or 1904). */
function serialToDate(serial: number, date1904: boolean): Date {
  const days = date1904 ? serial + 1462 : serial < 60 ? serial + 1 : serial
  const ms = Math.round((days - 25569) * 86400 * 1000) + (date1904 || serial >= 60 ? 0 : -86400000)
  return new Date(ms)
}

function formatDate(v: number, tokens: Token[], date1904: boolean): string {
  const d = serialToDate(v, date1904)
  const hasAmPm = tokens.some(
    (t, k) =>
      !t.literal &&
      /[aA]/.test(t.text) &&
      /^[aA]/.test(
        tokens
          .slice(k, k + 5)
          .map((x) => x.text)
          .join('')
      )
  )
  const parts: string[] = []
  let k = 0
  let lastWasHour = false
  while (k < tokens.length) {
    const t = tokens[k] as Token
    if (t.literal) {
      parts.push(t.text)
      k++
      continue
    }
    const ch = t.text.toLowerCase()
    let run = 1
    while (k + run < tokens.length && !(tokens[k + run] as Token).literal && (tokens[k + run] as Token).text.toLowerCase() === ch) run++
    const rest = tokens
      .slice(k + run)
      .filter((x) => !x.literal)
      .map((x) => x.text.toLowerCase())
      .join('')
    if (ch.startsWith('[')) {
      const hours = Math.floor(v * 24)
      parts.push(ch.startsWith('[h') ? String(hours) : ch.startsWith('[m') ? String(Math.floor(v * 1440)) : String(Math.round(v * 86400)))
    } else if (ch === 'y') parts.push(run <= 2 ? String(d.getUTCFullYear() % 100).padStart(2, '0') : String(d.getUTCFullYear()))
    else if (ch === 'm' && (lastWasHour || rest.startsWith('s'))) parts.push(String(d.getUTCMinutes()).padStart(run >= 2 ? 2 : 1, '0'))
    else if (ch === 'm') {
      const m = d.getUTCMonth()
      parts.push(
        run === 1
          ? String(m + 1)
          : run === 2
            ? String(m + 1).padStart(2, '0')
            : run === 3
              ? MONTHS[m]!.slice(0, 3)
              : run === 5
                ? MONTHS[m]!.slice(0, 1)
                : MONTHS[m]!
      )
    } else if (ch === 'd') {
      const dd = d.getUTCDate()
      const wd = DAYS[d.getUTCDay()]!
      parts.push(run === 1 ? String(dd) : run === 2 ? String(dd).padStart(2, '0') : run === 3 ? wd.slice(0, 3) : wd)
    } else if (ch === 'h') {
      let h = d.getUTCHours()
      if (hasAmPm) h = h % 12 === 0 ? 12 : h % 12
      parts.push(String(h).padStart(run >= 2 ? 2 : 1, '0'))
    } else if (ch === 's') parts.push(String(d.getUTCSeconds()).padStart(run >= 2 ? 2 : 1, '0'))
    else if (ch === 'a' && hasAmPm) {
      const joined = tokens
        .slice(k, k + 5)
        .map((x) => x.text)
        .join('')
      const pm = d.getUTCHours() >= 12
      if (/^am\/pm/i.test(joined)) {
        parts.push(pm ? 'PM' : 'AM')
        run = 5
      } else {
        parts.push(pm ? 'P' : 'A')
        run = 3
      }
    } else if (ch !== 'e' && ch !== 'g' && ch !== 'b') parts.push(t.text.repeat(run))
    lastWasHour = ch === 'h' || (lastWasHour && ch === ':')
    k += run
  }
  return parts.join('')
}

/**
 * How a stored number reads: as a number, or (by its format) as a date and time, a time of day or an elapsed
 * time. `value` is the number itself, or milliseconds (since 1970-01-01 00:00 with no time zone for a date, since
 * midnight for a time of day, elapsed for a duration).
 */
export type NumberReading = { text: string; kind: 'number' | 'date' | 'time' | 'duration'; value: number }

const MS_PER_DAY = 86_400_000

/** A section of a format, read once: how it shows a number. */
type Section = {
  text: string
  tokens: Token[]
  /** General (or text) shows the stored value; fraction formats fall back to it as well. */
  shows: 'general' | 'date' | 'plain'
  plain: PlainPlan | null
  /** For a date section: elapsed time (`[h]`), a clock (hours or seconds), a calendar (year or day). */
  elapsed: boolean
  clock: boolean
  calendar: boolean
}

function readSection(text: string): Section {
  const tokens = tokenize(text)
  const codes = tokens.filter((t) => !t.literal).map((t) => t.text.toLowerCase())
  const general = /^\s*general\s*$/i.test(text) || text.trim() === '' || text.trim() === '@'
  const date = !general && isDateFormat(tokens)
  const fraction = !general && !date && /[0#?]\s*\/\s*[0-9#?]/.test(text)
  const plain = general || date || fraction ? null : plainPlan(tokens)
  return {
    text,
    tokens,
    shows: date ? 'date' : plain === null ? 'general' : 'plain',
    plain,
    elapsed: codes.some((t) => t.startsWith('[')),
    clock: codes.some((t) => t === 'h' || t === 's'),
    calendar: codes.some((t) => t === 'y' || t === 'd')
  }
}

/** Formats read so far; a workbook uses a handful, and a hostile one cannot grow this past the bound. */
const SECTIONS = new Map<string, Section[]>()
const MAX_FORMATS = 512

function sectionsOf(code: string): Section[] {
  let sections = SECTIONS.get(code)
  if (sections === undefined) {
    if (SECTIONS.size >= MAX_FORMATS) SECTIONS.clear()
    sections = splitSections(code).map(readSection)
    SECTIONS.set(code, sections)
  }
  return sections
}

/** Render a numeric cell value the way its number format displays it. */
export function formatNumber(v: number, code: string, date1904 = false): string {
  return readNumber(v, code, date1904).text
}

/** A numeric cell's displayed text and what it stands for: dates, times and durations by their format. */
export function readNumber(v: number, code: string, date1904 = false): NumberReading {
  const sections = sectionsOf(code)
  let section = sections[0] as Section
  let value = v
  let sign = ''
  if (v < 0 && sections.length >= 2 && sections[1]?.text !== '') {
    section = sections[1] as Section
    value = -v
  } else if (v === 0 && sections.length >= 3) section = sections[2] as Section
  else if (v < 0) {
    sign = '-'
    value = -v
  }
  if (section.shows === 'date' && v >= 0 && v <= 2958465) {
    return { text: formatDate(v, section.tokens, date1904).trim(), ...dateValue(v, section, date1904) }
  }
  if (section.shows !== 'plain' || section.plain === null) return { text: generalNumber(v), kind: 'number', value: v }
  const plain = formatPlain(value, section.plain)
  return { text: (/[1-9]/.test(plain) ? sign + plain : plain).trim(), kind: 'number', value: v }
}

/**
 * What a serial under a date format stands for. Elapsed formats (`[h]:mm`) are durations; a format with hours,
 * minutes or seconds but no year or day shows a time of day, when the serial has no date part (below 1).
 */
function dateValue(v: number, section: Section, date1904: boolean): Pick<NumberReading, 'kind' | 'value'> {
  if (section.elapsed) return { kind: 'duration', value: Math.round(v * MS_PER_DAY) }
  if (section.clock && !section.calendar && v < 1) return { kind: 'time', value: Math.round(v * MS_PER_DAY) }
  return { kind: 'date', value: serialToDate(v, date1904).getTime() }
}
