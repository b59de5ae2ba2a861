import { assertNever } from '../../../../shared/result'
import { VALUE_KIND, type CellStyle, type GridValues, type MergedRegion, type RawGrid, type ValueKind } from '../../../../shared/table'
import type { NumberReading } from './numfmt'

/** Limits that keep a hostile or absurd file from exhausting memory. */
export const LIMITS = {
  /** Cells of one grid (rows × columns after trimming). */
  maxCellsPerGrid: 20_000_000,
  maxRows: 1_048_576,
  maxCols: 16_384,
  /** Sheets/tables kept from one file. */
  maxGrids: 200
} as const

/** Pad ragged rows to the widest one, telling the user how many were short. */
export function padRows(rows: string[][], warnings: string[]): string[][] {
  let width = 0
  for (const r of rows) if (r.length > width) width = r.length
  let short = 0
  for (const r of rows) {
    if (r.length < width) {
      short++
      for (let k = r.length; k < width; k++) r.push('')
    }
  }
  if (short > 0) {
    warnings.push(`${short} of ${rows.length} rows had fewer cells than the widest row (${width}); they were padded with empty cells.`)
  }
  return rows
}

/** "B12" → {row: 11, col: 1}; null when malformed. */
export function parseA1(ref: string): { row: number; col: number } | null {
  const m = /^\$?([A-Za-z]{1,3})\$?(\d{1,7})$/.exec(ref)
  if (m === null) return null
  const letters = (m[1] as string).toUpperCase()
  let col = 0
  for (let k = 0; k < letters.length; k++) col = col * 26 + (letters.charCodeAt(k) - 64)
  return { row: Number(m[2]) - 1, col: col - 1 }
}

/** "A1:C3" (or a single cell) → a region; null when malformed. */
export function parseRange(ref: string): MergedRegion | null {
  const [a, b] = ref.split(':')
  const p = parseA1(a ?? '')
  const q = b === undefined ? p : parseA1(b)
  if (p === null || q === null) return null
  return {
    top: Math.min(p.row, q.row),
    left: Math.min(p.col, q.col),
    bottom: Math.max(p.row, q.row),
    right: Math.max(p.col, q.col)
  }
}

/** A typed cell for `SheetBuilder.set`: its kind and, for kinds that carry one, its number (see GridValues). */
export type TypedValue = { kind: ValueKind; value?: number }

const PLAIN_DECIMAL = /^-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?$/

/**
 * The kind of a stored number shown as `text`: `number` when the text, read as a decimal without its thousands
 * commas, is exactly the number (the runtime then reads it from the text), else `exactNumber`.
 */
export function numberKind(text: string, value: number): ValueKind {
  return PLAIN_DECIMAL.test(text) && Number(text.replace(/,/g, '')) === value ? VALUE_KIND.number : VALUE_KIND.exactNumber
}

/** The typed value of a number, date, time or duration cell read through its number format. */
export function readingValue(reading: NumberReading): TypedValue {
  switch (reading.kind) {
    case 'number':
      return { kind: numberKind(reading.text, reading.value), value: reading.value }
    case 'date':
      return { kind: VALUE_KIND.date, value: reading.value }
    case 'time':
      return { kind: VALUE_KIND.time, value: reading.value }
    case 'duration':
      return { kind: VALUE_KIND.duration, value: reading.value }
    default:
      return assertNever(reading.kind)
  }
}

/**
 * An ISO 8601 date and time as spreadsheets store it (`2021-03-04T05:06:07`, an XLSX `t="d"` cell, an ODS
 * `office:date-value`), in milliseconds since 1970-01-01 read with no time zone, as the sheet shows it; null when
 * malformed.
 */
export function isoDateTime(raw: string): number | null {
  const m = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?))?/.exec(raw.trim())
  const ms = m === null ? Number.NaN : Date.parse(`${m[1]}T${m[2] ?? '00:00'}Z`)
  return Number.isFinite(ms) ? ms : null
}

/** Cells set on one row, in the order they were set (a later one for the same column wins). */
type RowCells = { cols: number[]; texts: string[]; kinds: number[]; numbers: number[] }

/**
 * Collects cells of a sheet sparsely (sheets often declare a million empty rows) and builds the dense
 * grid over the bounding box of the non-empty cells, within the limits, with the typed values of the cells
 * that have them.
 */
export class SheetBuilder {
  private readonly rows = new Map<number, RowCells>()
  private readonly styles = new Map<string, CellStyle>()
  readonly merges: MergedRegion[] = []
  readonly warnings: string[] = []
  private readonly levels = new Map<number, number>()
  private maxRow = -1
  private maxCol = -1
  private dropped = 0
  private typed = false

  set(row: number, col: number, text: string, style?: CellStyle, value?: TypedValue): void {
    if (row < 0 || col < 0) return
    if (row >= LIMITS.maxRows || col >= LIMITS.maxCols) {
      this.dropped++
      return
    }
    if (text !== '') {
      let r = this.rows.get(row)
      if (r === undefined) {
        r = { cols: [], texts: [], kinds: [], numbers: [] }
        this.rows.set(row, r)
      }
      r.cols.push(col)
      r.texts.push(text)
      r.kinds.push(value === undefined ? 0 : value.kind.charCodeAt(0))
      r.numbers.push(value?.value ?? 0)
      if (value !== undefined) this.typed = true
      if (row > this.maxRow) this.maxRow = row
      if (col > this.maxCol) this.maxCol = col
    }
    if (style !== undefined && (style.bold === true || (style.indent ?? 0) > 0)) this.styles.set(`${row},${col}`, style)
  }

  /** The row's level in the sheet's row outline (grouped rows), when it has one. */
  outline(row: number, level: number): void {
    if (row >= 0 && row < LIMITS.maxRows && Number.isInteger(level) && level > 0) this.levels.set(row, Math.min(level, 7))
  }

  build(name: string, extraWarnings: string[] = []): RawGrid {
    const warnings = [...extraWarnings, ...this.warnings]
    if (this.dropped > 0) {
      warnings.push(`${this.dropped} cells beyond ${LIMITS.maxRows} rows or ${LIMITS.maxCols} columns were left out.`)
    }
    const width = this.maxCol + 1
    let height = this.maxRow + 1
    if (width > 0 && height * width > LIMITS.maxCellsPerGrid) {
      const kept = Math.floor(LIMITS.maxCellsPerGrid / width)
      warnings.push(`Only the first ${kept} of ${height} rows were imported (the sheet is too large).`)
      height = kept
    }
    const values: GridValues | null = this.typed
      ? { width, kinds: new Uint8Array(height * width), numbers: new Float64Array(height * width) }
      : null
    const cells: string[][] = new Array<string[]>(height)
    for (let r = 0; r < height; r++) {
      const row = new Array<string>(width).fill('')
      const src = this.rows.get(r)
      if (src !== undefined) {
        for (let k = 0; k < src.cols.length; k++) {
          const c = src.cols[k] as number
          row[c] = src.texts[k] as string
          if (values !== null) {
            values.kinds[r * width + c] = src.kinds[k] as number
            values.numbers[r * width + c] = src.numbers[k] as number
          }
        }
      }
      cells[r] = row
    }
    const merges: MergedRegion[] = []
    for (const m of this.merges) {
      const clipped = { top: m.top, left: m.left, bottom: Math.min(m.bottom, height - 1), right: Math.min(m.right, width - 1) }
      if (clipped.top >= height || clipped.left >= width) continue
      if (clipped.bottom === clipped.top && clipped.right === clipped.left) continue
      merges.push(clipped)
    }
    const styles: Record<string, CellStyle> = {}
    let anyStyle = false
    for (const [key, style] of this.styles) {
      const [r, c] = key.split(',').map(Number) as [number, number]
      if (r < height && c < width && cells[r]?.[c] !== '') {
        styles[key] = style
        anyStyle = true
      }
    }
    const grid: RawGrid = anyStyle ? { name, cells, merges, styles, warnings } : { name, cells, merges, warnings }
    if (values !== null) grid.values = values
    const outline = new Array<number>(height).fill(0)
    let grouped = false
    for (const [r, level] of this.levels)
      if (r < height) {
        outline[r] = level
        grouped = true
      }
    if (grouped) grid.outline = outline
    return grid
  }
}
