import type { RawGrid } from '../../../../shared/table'
import { fail, ok, type Result } from '../../../../shared/result'
import { decodeText } from './decode'
import { padRows } from './grid'

/**
 * How a delimited file is written. `backslash` is the WikiTQ style where `\"` is a quote and `\\` a
 * backslash inside quoted fields; `double` is RFC 4180 (`""` is a quote).
 */
export type CsvDialect = { delimiter: string; quote: string; escape: 'double' | 'backslash' }

const DELIMITERS = [',', '\t', ';', '|'] as const
const SNIFF_CHARS = 65536
const SNIFF_ROWS = 200

/**
 * Parse delimited text into rows. Fully blank lines are skipped; a stray character after a closing
 * quote is kept in the field rather than failing the file.
 */
export function parseCsv(text: string, dialect: CsvDialect, maxRows = Infinity): string[][] {
  const rows: string[][] = []
  const n = text.length
  const delim = dialect.delimiter.charCodeAt(0)
  const quoteChar = dialect.quote
  const quote = quoteChar.charCodeAt(0)
  const backslash = dialect.escape === 'backslash'
  let i = 0
  // Rows are allocated at the previous row's width: growing 4M small arrays costs more than parsing.
  let width = 1
  let row: string[] = new Array<string>(width)
  let k = 0
  // Cached so that files without backslashes are not rescanned for one per quoted field.
  let nextBackslash = backslash ? text.indexOf('\\') : -1
  while (i < n && rows.length < maxRows) {
    let field: string
    let quoted = false
    if (text.charCodeAt(i) === quote) {
      quoted = true
      let start = i + 1
      let search = start
      let parts: string[] | null = null
      for (;;) {
        const q = text.indexOf(quoteChar, search)
        if (backslash) {
          if (nextBackslash !== -1 && nextBackslash < search) nextBackslash = text.indexOf('\\', search)
          const b = nextBackslash
          if (b !== -1 && (q === -1 || b < q)) {
            parts ??= []
            parts.push(text.slice(start, b), text.slice(b + 1, b + 2))
            start = search = b + 2
            continue
          }
        }
        if (q === -1) {
          field = (parts === null ? '' : parts.join('')) + text.slice(start)
          i = n
          break
        }
        if (!backslash && text.charCodeAt(q + 1) === quote) {
          parts ??= []
          parts.push(text.slice(start, q + 1))
          start = search = q + 2
          continue
        }
        field = (parts === null ? '' : parts.join('')) + text.slice(start, q)
        i = q + 1
        let j = i
        while (j < n) {
          const c = text.charCodeAt(j)
          if (c === delim || c === 10 || c === 13) break
          j++
        }
        if (j > i) field += text.slice(i, j)
        i = j
        break
      }
    } else {
      let j = i
      while (j < n) {
        const c = text.charCodeAt(j)
        if (c === delim || c === 10 || c === 13) break
        j++
      }
      field = text.slice(i, j)
      i = j
    }
    row[k++] = field
    if (i >= n) break
    const c = text.charCodeAt(i)
    if (c === delim) {
      i++
      if (i >= n) row[k++] = ''
      continue
    }
    i += c === 13 && text.charCodeAt(i + 1) === 10 ? 2 : 1
    if (!(k === 1 && field === '' && !quoted)) {
      if (k < row.length) row.length = k
      rows.push(row)
      width = k
    }
    row = new Array<string>(width)
    k = 0
  }
  if (k > 0 && !(k === 1 && row[0] === '') && rows.length < maxRows) {
    if (k < row.length) row.length = k
    rows.push(row)
  }
  return rows
}

/** Share of rows having the most common width, and that width. */
export function widthConsistency(rows: string[][]): { share: number; mode: number } {
  if (rows.length === 0) return { share: 0, mode: 0 }
  const counts = new Map<number, number>()
  for (const r of rows) counts.set(r.length, (counts.get(r.length) ?? 0) + 1)
  let mode = 0
  let best = -1
  for (const [w, k] of counts) {
    if (k > best || (k === best && w > mode)) {
      best = k
      mode = w
    }
  }
  return { share: best / rows.length, mode }
}

function sampleOf(text: string): string {
  if (text.length <= SNIFF_CHARS) return text
  const cut = text.lastIndexOf('\n', SNIFF_CHARS)
  return text.slice(0, cut > 0 ? cut : SNIFF_CHARS)
}

function sniffQuote(sample: string): string {
  if (sample.includes('"')) return '"'
  const single = sample.match(/(^|[,;\t|])'[^'\n]*'(?=[,;\t|\r\n]|$)/gm)
  return single !== null && single.length >= 2 ? "'" : '"'
}

/**
 * Choose delimiter, quote and escape style: the delimiter whose parse gives the most consistent row
 * width (at least two columns); ties go to the extension's own delimiter, then , TAB ; |.
 */
export function sniffDialect(text: string, preferred: string): CsvDialect {
  const sample = sampleOf(text)
  const quote = sniffQuote(sample)
  const order = [preferred, ...DELIMITERS.filter((d) => d !== preferred)]
  let delimiter = preferred
  let bestShare = 0
  for (const d of order) {
    const { share, mode } = widthConsistency(parseCsv(sample, { delimiter: d, quote, escape: 'double' }, SNIFF_ROWS))
    if (mode >= 2 && share > bestShare + 1e-9) {
      bestShare = share
      delimiter = d
    }
  }
  return { delimiter, quote, escape: text.includes('\\' + quote) ? 'backslash' : 'double' }
}

function parseChoosingEscape(text: string, dialect: CsvDialect): string[][] {
  const first = parseCsv(text, dialect)
  if (dialect.escape === 'double') return first
  const rfc = parseCsv(text, { ...dialect, escape: 'double' })
  return widthConsistency(rfc).share > widthConsistency(first).share ? rfc : first
}

/** Import a CSV/TSV (or other delimited) file as one grid. */
export function importDelimited(name: string, bytes: Uint8Array, preferred: string): Result<RawGrid[]> {
  const decoded = decodeText(name, bytes)
  if (!decoded.ok) return decoded
  const { text, warnings } = decoded.value
  if (text.trim() === '') return fail('bad-input', `${name} is empty.`)
  const dialect = sniffDialect(text, preferred)
  const rows = parseChoosingEscape(text, dialect)
  const cells = padRows(rows, warnings)
  return ok([{ name, cells, merges: [], warnings, hints: { records: true } }])
}
