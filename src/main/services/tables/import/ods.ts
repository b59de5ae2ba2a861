import { VALUE_KIND, type CellStyle, type RawGrid } from '../../../../shared/table'
import { fail, ok, type Result } from '../../../../shared/result'
import { LIMITS, SheetBuilder, isoDateTime, numberKind, type TypedValue } from './grid'
import { attr, walkXml, type XmlAttrs } from './xml'
import { readZip, xmlText, type ZipLimits } from './zip'

/** Repeats of a non-empty row or cell beyond this are not materialised (empty ones just advance). */
const MAX_CONTENT_REPEAT = 1000

type StyleDef = { parent?: string; bold?: boolean; indent?: number }
type PendingCell = {
  col: number
  text: string
  style: CellStyle | undefined
  value: TypedValue | undefined
  repeat: number
  colSpan: number
  rowSpan: number
}

const MS_PER_HOUR = 3_600_000

/** An ISO 8601 duration as ODS writes a time ("PT12H30M00S", "P1DT2H"), in milliseconds; null when malformed. */
function isoDuration(text: string): number | null {
  const m = /^(-)?P(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(text.trim())
  if (m === null) return null
  const [days, hours, minutes, seconds] = [m[2], m[3], m[4], m[5]].map((x) => Number(x ?? 0)) as [number, number, number, number]
  const ms = Math.round((((days * 24 + hours) * 60 + minutes) * 60 + seconds) * 1000)
  return m[1] === '-' ? -ms : ms
}

/**
 * The stored value ODS gives beside a cell's text (`office:value-type` and its value attribute): numbers,
 * percentages and currency amounts, dates, times (of day under 24 hours, else elapsed), truth values, and formula
 * errors as missing values. Strings stay untyped.
 */
function typedValue(a: XmlAttrs, text: string): TypedValue | undefined {
  if (a['calcext:value-type'] === 'error') return { kind: VALUE_KIND.missing }
  switch (attr(a, 'value-type')) {
    case 'float':
    case 'percentage':
    case 'currency': {
      const v = Number(attr(a, 'value'))
      return Number.isFinite(v) ? { kind: numberKind(text, v), value: v } : undefined
    }
    case 'date': {
      const ms = isoDateTime(attr(a, 'date-value') ?? '')
      return ms === null ? undefined : { kind: VALUE_KIND.date, value: ms }
    }
    case 'time': {
      const ms = isoDuration(attr(a, 'time-value') ?? '')
      if (ms === null) return undefined
      return { kind: ms >= 0 && ms < 24 * MS_PER_HOUR ? VALUE_KIND.time : VALUE_KIND.duration, value: ms }
    }
    case 'boolean': {
      const b = attr(a, 'boolean-value')
      return b === undefined ? undefined : { kind: b === 'true' || b === '1' ? VALUE_KIND.true : VALUE_KIND.false }
    }
    default:
      return undefined
  }
}

/** Length in points; LibreOffice writes an Excel indent level as 10 pt of left margin. */
function toPoints(length: string): number {
  const m = /^(-?[\d.]+)(cm|mm|in|pt|pc|px)?$/.exec(length.trim())
  if (m === null) return 0
  const v = Number(m[1])
  switch (m[2]) {
    case 'cm':
      return (v * 72) / 2.54
    case 'mm':
      return (v * 72) / 25.4
    case 'in':
      return v * 72
    case 'pc':
      return v * 12
    case 'px':
      return v * 0.75
    default:
      return v
  }
}

function collectStyles(xml: string | undefined, into: Map<string, StyleDef>): void {
  if (xml === undefined) return
  let current: StyleDef | null = null
  walkXml(xml, {
    open: (local, a) => {
      if (local === 'style' && attr(a, 'family') === 'table-cell') {
        const name = attr(a, 'name')
        current = {}
        const parent = attr(a, 'parent-style-name')
        if (parent !== undefined) current.parent = parent
        if (name !== undefined) into.set(name, current)
      } else if (current !== null && local === 'text-properties') {
        const weight = attr(a, 'font-weight')
        if (weight !== undefined) current.bold = weight === 'bold' || Number(weight) >= 600
      } else if (current !== null && local === 'paragraph-properties') {
        const margin = attr(a, 'margin-left')
        if (margin !== undefined) current.indent = Math.round(toPoints(margin) / 10)
      }
    },
    close: (local) => {
      if (local === 'style') current = null
    }
  })
}

function resolveStyle(defs: Map<string, StyleDef>, name: string | undefined): CellStyle | undefined {
  let bold: boolean | undefined
  let indent: number | undefined
  for (let n = name, hops = 0; n !== undefined && hops < 20; hops++) {
    const d = defs.get(n)
    if (d === undefined) break
    bold ??= d.bold
    indent ??= d.indent
    n = d.parent
  }
  if (bold !== true && (indent ?? 0) <= 0) return undefined
  return { ...(bold === true ? { bold } : {}), ...((indent ?? 0) > 0 ? { indent } : {}) }
}

function fallbackValue(a: XmlAttrs): string {
  return attr(a, 'value') ?? attr(a, 'date-value') ?? attr(a, 'time-value') ?? attr(a, 'boolean-value') ?? attr(a, 'string-value') ?? ''
}

function readTables(xml: string, defs: Map<string, StyleDef>): { name: string; sheet: SheetBuilder }[] {
  const tables: { name: string; sheet: SheetBuilder }[] = []
  let sheet: SheetBuilder | null = null
  let depth = 0
  let row = 0
  let col = 0
  let rowRepeat = 1
  let pending: PendingCell[] = []
  let cell: (PendingCell & { fallback: string; attrs: XmlAttrs }) | null = null
  let paragraphs: string[] = []
  let para: string[] | null = null
  let skip = 0
  let capped = false
  walkXml(xml, {
    open: (local, a) => {
      if (skip > 0 || local === 'annotation' || local === 'frame') {
        if (local === 'annotation' || local === 'frame' || skip > 0) skip++
        return
      }
      if (local === 'table') {
        depth++
        if (depth === 1) {
          sheet = new SheetBuilder()
          tables.push({ name: attr(a, 'name') ?? `Sheet${tables.length + 1}`, sheet })
          row = 0
        }
        return
      }
      if (depth !== 1) return
      if (local === 'table-row') {
        col = 0
        pending = []
        rowRepeat = Number(attr(a, 'number-rows-repeated') ?? 1) || 1
      } else if (local === 'table-cell' || local === 'covered-table-cell') {
        cell = {
          col,
          text: '',
          style: local === 'table-cell' ? resolveStyle(defs, attr(a, 'style-name')) : undefined,
          value: undefined,
          repeat: Number(attr(a, 'number-columns-repeated') ?? 1) || 1,
          colSpan: Number(attr(a, 'number-columns-spanned') ?? 1) || 1,
          rowSpan: Number(attr(a, 'number-rows-spanned') ?? 1) || 1,
          fallback: fallbackValue(a),
          attrs: a
        }
        paragraphs = []
      } else if (cell !== null && (local === 'p' || local === 'h')) para = []
      else if (para !== null && local === 's') para.push(' '.repeat(Math.min(Number(attr(a, 'c') ?? 1) || 1, 1000)))
      else if (para !== null && local === 'tab') para.push('\t')
      else if (para !== null && local === 'line-break') para.push('\n')
    },
    text: (t) => {
      if (skip === 0 && para !== null) para.push(t)
    },
    close: (local) => {
      if (skip > 0) {
        skip--
        return
      }
      if (local === 'table') {
        depth--
        return
      }
      if (depth !== 1) return
      if ((local === 'p' || local === 'h') && para !== null) {
        paragraphs.push(para.join(''))
        para = null
      } else if ((local === 'table-cell' || local === 'covered-table-cell') && cell !== null) {
        cell.text = paragraphs.length > 0 ? paragraphs.join('\n') : cell.fallback
        if (cell.text !== '' || cell.colSpan > 1 || cell.rowSpan > 1) {
          if (cell.repeat > MAX_CONTENT_REPEAT) capped = true
          const { col: at, text, style, colSpan, rowSpan } = cell
          const value = typedValue(cell.attrs, text)
          pending.push({ col: at, text, style, value, colSpan, rowSpan, repeat: Math.min(cell.repeat, MAX_CONTENT_REPEAT) })
        }
        col += cell.repeat
        cell = null
      } else if (local === 'table-row' && sheet !== null) {
        const s: SheetBuilder = sheet
        const times = pending.length === 0 ? 0 : Math.min(rowRepeat, MAX_CONTENT_REPEAT)
        if (pending.length > 0 && rowRepeat > MAX_CONTENT_REPEAT) capped = true
        for (let k = 0; k < times; k++) {
          for (const p of pending) {
            for (let j = 0; j < p.repeat; j++) {
              s.set(row + k, p.col + j, p.text, p.style, p.value)
              if (p.colSpan > 1 || p.rowSpan > 1) {
                s.merges.push({ top: row + k, left: p.col + j, bottom: row + k + p.rowSpan - 1, right: p.col + j + p.colSpan - 1 })
              }
            }
          }
        }
        if (capped) {
          s.warnings.push(`Repeated rows or cells beyond ${MAX_CONTENT_REPEAT} copies were left out.`)
          capped = false
        }
        row += rowRepeat
      }
    }
  })
  return tables
}

/** Import every sheet of an OpenDocument spreadsheet as one grid each. */
export function importOds(name: string, bytes: Uint8Array, limits?: ZipLimits): Result<RawGrid[]> {
  const zip = readZip(name, bytes, (p) => p === 'content.xml' || p === 'styles.xml', limits)
  if (!zip.ok) return zip
  const content = zip.value.get('content.xml')
  if (content === undefined) return fail('bad-input', `${name} is not an OpenDocument spreadsheet: it has no content.xml.`)
  try {
    const defs = new Map<string, StyleDef>()
    const stylesPart = zip.value.get('styles.xml')
    collectStyles(stylesPart === undefined ? undefined : xmlText(stylesPart), defs)
    const contentXml = xmlText(content)
    collectStyles(contentXml, defs)
    const tables = readTables(contentXml, defs)
    if (tables.length === 0) return fail('bad-input', `${name} has no sheets to import.`)
    const grids = tables.slice(0, LIMITS.maxGrids).map((t) => {
      const grid = t.sheet.build(`${name} › ${t.name}`)
      if (grid.cells.length === 0) grid.warnings.push(`Sheet "${t.name}" is empty.`)
      return grid
    })
    if (tables.length > LIMITS.maxGrids)
      grids[0]?.warnings.push(`Only the first ${LIMITS.maxGrids} of ${tables.length} sheets were imported.`)
    return ok(grids)
  } catch (e) {
    return fail('bad-input', `${name} is damaged: its content.xml cannot be read.`, e instanceof Error ? e.message : String(e))
  }
}
