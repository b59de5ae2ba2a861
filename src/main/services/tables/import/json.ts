import type { MergedRegion, RawGrid } from '../../../../shared/table'
import { fail, ok, type Result } from '../../../../shared/result'
import { decodeText } from './decode'
import { LIMITS, padRows } from './grid'

const EXPECTED =
  'a HiTab table (texts, merged_regions, top_header_rows_num, left_header_columns_num), an AIT-QA table (column_header, row_header, data), a list of rows, or a list of records'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type JsonObject = { [key: string]: Json }

function isObject(v: Json | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function text(v: Json | undefined): string {
  if (v === null || v === undefined) return ''
  if (typeof v === 'object') return JSON.stringify(v)
  return String(v)
}

function isLabelLists(v: Json | undefined): v is Json[][] {
  return Array.isArray(v) && v.every((x) => Array.isArray(x))
}

function isHitab(o: JsonObject): boolean {
  return isLabelLists(o.texts) && Array.isArray(o.merged_regions)
}

function isAitqa(o: JsonObject): boolean {
  return isLabelLists(o.column_header) && isLabelLists(o.row_header) && isLabelLists(o.data)
}

function hitabGrid(o: JsonObject, name: string): RawGrid {
  const warnings: string[] = []
  const cells = padRows(
    (o.texts as Json[][]).map((r) => r.map(text)),
    warnings
  )
  const merges: MergedRegion[] = []
  let clipped = 0
  for (const m of o.merged_regions as Json[]) {
    if (!isObject(m)) continue
    const region = { top: Number(m.first_row), left: Number(m.first_column), bottom: Number(m.last_row), right: Number(m.last_column) }
    if (!Object.values(region).every((x) => Number.isInteger(x) && x >= 0)) continue
    if (region.bottom >= cells.length || region.right >= (cells[0]?.length ?? 0)) {
      region.bottom = Math.min(region.bottom, cells.length - 1)
      region.right = Math.min(region.right, (cells[0]?.length ?? 0) - 1)
      clipped++
    }
    if (region.bottom > region.top || region.right > region.left) merges.push(region)
  }
  if (clipped > 0) warnings.push(`${clipped} merged regions reached past the table's edge and were cut to fit.`)
  const hints: NonNullable<RawGrid['hints']> = {}
  if (typeof o.top_header_rows_num === 'number') hints.headerRows = o.top_header_rows_num
  if (typeof o.left_header_columns_num === 'number') hints.headerCols = o.left_header_columns_num
  if (typeof o.title === 'string') hints.title = o.title
  return { name, cells, merges, warnings, hints }
}

/**
 * Lay out one header axis: `paths[i]` are the labels of line i from outer to inner. Returns the
 * labels placed on `depth` levels and the merges along and across the axis, in (level, line) terms:
 * a short path's last label stretches to the innermost level, and runs of lines sharing the same
 * outer labels are merged (never leaves: equal leaf paths are distinct columns).
 */
function headerAxis(
  paths: string[][],
  depth: number
): { at: (string | undefined)[][]; spans: { level: number; from: number; to: number; levelTo: number }[] } {
  const at = paths.map((p) => Array.from({ length: depth }, (_v, k) => p[k]))
  const spans: { level: number; from: number; to: number; levelTo: number }[] = []
  paths.forEach((p, i) => {
    if (p.length > 0 && p.length < depth) spans.push({ level: p.length - 1, from: i, to: i, levelTo: depth - 1 })
  })
  for (let level = 0; level < depth; level++) {
    let i = 0
    while (i < paths.length) {
      const p = paths[i] as string[]
      let j = i
      if (level < p.length - 1) {
        while (j + 1 < paths.length) {
          const q = paths[j + 1] as string[]
          if (!(level < q.length - 1) || !p.slice(0, level + 1).every((label, k) => q[k] === label)) break
          j++
        }
      }
      if (j > i) {
        spans.push({ level, from: i, to: j, levelTo: level })
        for (let k = i + 1; k <= j; k++) (at[k] as (string | undefined)[])[level] = ''
      }
      i = j + 1
    }
  }
  return { at, spans }
}

function aitqaGrid(o: JsonObject, name: string): RawGrid {
  const warnings: string[] = []
  const colPaths = (o.column_header as Json[][]).map((p) => p.map(text))
  const rowPaths = (o.row_header as Json[][]).map((p) => p.map(text))
  const data = (o.data as Json[][]).map((r) => r.map(text))
  const h = Math.max(0, ...colPaths.map((p) => p.length))
  const w = Math.max(0, ...rowPaths.map((p) => p.length))
  const dataCols = Math.max(colPaths.length, ...data.map((r) => r.length))
  const dataRows = Math.max(data.length, rowPaths.length)
  const shortRows = data.filter((r) => r.length < dataCols).length
  if (shortRows > 0)
    warnings.push(`${shortRows} data rows had fewer cells than the ${dataCols} columns; they were padded with empty cells.`)
  if (rowPaths.length > 0 && rowPaths.length !== data.length) {
    warnings.push(`The table has ${rowPaths.length} row headers for ${data.length} data rows; missing ones were left empty.`)
  }
  const cells = Array.from({ length: h + dataRows }, () => new Array<string>(w + dataCols).fill(''))
  const merges: MergedRegion[] = []
  const top = headerAxis(colPaths, h)
  top.at.forEach((labels, j) => labels.forEach((label, k) => label !== undefined && ((cells[k] as string[])[w + j] = label)))
  for (const s of top.spans) merges.push({ top: s.level, bottom: s.levelTo, left: w + s.from, right: w + s.to })
  const left = headerAxis(rowPaths, w)
  left.at.forEach((labels, i) => labels.forEach((label, k) => label !== undefined && ((cells[h + i] as string[])[k] = label)))
  for (const s of left.spans) merges.push({ top: h + s.from, bottom: h + s.to, left: s.level, right: s.levelTo })
  data.forEach((r, i) => r.forEach((v, j) => ((cells[h + i] as string[])[w + j] = v)))
  return { name, cells, merges, warnings, hints: { headerRows: h, headerCols: w } }
}

function rowsGrid(rows: Json[][], name: string): RawGrid {
  const warnings: string[] = []
  return {
    name,
    cells: padRows(
      rows.map((r) => r.map(text)),
      warnings
    ),
    merges: [],
    warnings
  }
}

function recordsGrid(records: JsonObject[], name: string): RawGrid {
  const keys: string[] = []
  const seen = new Set<string>()
  for (const r of records) {
    for (const k of Object.keys(r)) {
      if (seen.has(k)) continue
      seen.add(k)
      keys.push(k)
    }
  }
  return { name, cells: [keys, ...records.map((r) => keys.map((k) => text(r[k])))], merges: [], warnings: [] }
}

function parseDocument(source: string, name: string): Result<Json[]> {
  try {
    const v = JSON.parse(source) as Json
    return ok(Array.isArray(v) && v.length > 0 && v.every((x) => isObject(x) && (isHitab(x) || isAitqa(x))) ? v : [v])
  } catch (e) {
    const lines = source.split(/\r?\n/).filter((l) => l.trim() !== '')
    if (lines.length > 1) {
      try {
        return ok(lines.map((l) => JSON.parse(l) as Json))
      } catch {
        // fall through to the whole-document error, which is the more useful one
      }
    }
    return fail('bad-input', `${name} is not valid JSON.`, e instanceof Error ? e.message : String(e))
  }
}

/** Import JSON tables: HiTab and AIT-QA layouts (one per document or per JSON Lines line), or plain rows/records. */
export function importJson(name: string, bytes: Uint8Array): Result<RawGrid[]> {
  const decoded = decodeText(name, bytes)
  if (!decoded.ok) return decoded
  if (decoded.value.text.trim() === '') return fail('bad-input', `${name} is empty.`)
  const docs = parseDocument(decoded.value.text, name)
  if (!docs.ok) return docs
  const items = docs.value
  const grids: RawGrid[] = []
  try {
    for (const [k, v] of items.entries()) {
      if (grids.length >= LIMITS.maxGrids) {
        grids[0]?.warnings.push(`Only the first ${LIMITS.maxGrids} of ${items.length} tables were imported.`)
        break
      }
      const id = isObject(v) && typeof v.id === 'string' ? v.id : `Table ${k + 1}`
      const gridName = items.length === 1 ? name : `${name} › ${id}`
      if (isObject(v) && isHitab(v)) grids.push(hitabGrid(v, gridName))
      else if (isObject(v) && isAitqa(v)) grids.push(aitqaGrid(v, gridName))
      else if (Array.isArray(v) && v.length > 0 && v.every((r) => Array.isArray(r))) grids.push(rowsGrid(v, gridName))
      else if (Array.isArray(v) && v.length > 0 && v.every((r) => isObject(r))) grids.push(recordsGrid(v, gridName))
      else {
        const found = isObject(v)
          ? `an object with keys ${Object.keys(v).slice(0, 8).join(', ') || '(none)'}`
          : Array.isArray(v)
            ? 'a list'
            : `a ${typeof v}`
        return fail(
          'bad-input',
          `${name}${items.length > 1 ? ` (table ${k + 1})` : ''} is not a table: expected ${EXPECTED}; found ${found}.`
        )
      }
    }
  } catch (e) {
    // A value nested tens of thousands deep overflows the stack when a cell's text is made from it.
    if (e instanceof RangeError) return fail('bad-input', `${name} is nested too deeply to be read as a table.`, e.message)
    throw e
  }
  grids[0]?.warnings.push(...decoded.value.warnings)
  return ok(grids)
}
