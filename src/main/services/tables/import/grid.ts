import type { CellStyle, MergedRegion, RawGrid } from '../../../../shared/table'

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

/**
 * Collects cells of a sheet sparsely (sheets often declare a million empty rows) and builds the dense
 * grid over the bounding box of the non-empty cells, within the limits.
 */
export class SheetBuilder {
  private readonly rows = new Map<number, Map<number, string>>()
  private readonly styles = new Map<string, CellStyle>()
  readonly merges: MergedRegion[] = []
  readonly warnings: string[] = []
  private maxRow = -1
  private maxCol = -1
  private dropped = 0

  set(row: number, col: number, text: string, style?: CellStyle): void {
    if (row < 0 || col < 0) return
    if (row >= LIMITS.maxRows || col >= LIMITS.maxCols) {
      this.dropped++
      return
    }
    if (text !== '') {
      let r = this.rows.get(row)
      if (r === undefined) {
        r = new Map()
        this.rows.set(row, r)
      }
      r.set(col, text)
      if (row > this.maxRow) this.maxRow = row
      if (col > this.maxCol) this.maxCol = col
    }
    if (style !== undefined && (style.bold === true || (style.indent ?? 0) > 0)) this.styles.set(`${row},${col}`, style)
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
    const cells: string[][] = new Array<string[]>(height)
    for (let r = 0; r < height; r++) {
      const row = new Array<string>(width).fill('')
      const src = this.rows.get(r)
      if (src !== undefined) for (const [c, t] of src) row[c] = t
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
    return anyStyle ? { name, cells, merges, styles, warnings } : { name, cells, merges, warnings }
  }
}
