import type { CellStyle, MergedRegion, RawGrid } from '../../../../shared/table'

/**
 * A rectangular view of a RawGrid: ragged rows read as padded with '', merged regions clipped to the
 * grid and made disjoint (a region overlapping an earlier one is dropped with a warning).
 */
export type Grid = {
  rows: number
  cols: number
  cells: string[][]
  merges: MergedRegion[]
  /** One more than the index into `merges` of the region covering each cell (row * cols + col), 0 for none; null when no merges. */
  owner: Int32Array | null
  /** The source's style of a cell, if it has one. */
  style: (row: number, col: number) => CellStyle | undefined
  indent: (row: number, col: number) => number
  /** Each row's level in the sheet's row outline (RawGrid.outline; 0: none), or null when no row is grouped. */
  outline: ((row: number) => number) | null
  /** The source marks header cells (an HTML `<th>`); `headerCell` is false throughout when it does not. */
  marksHeaders: boolean
  /** Some cell's style indents it: without, `indent` reads only leading spaces. */
  stylesIndent: boolean
  headerCell: (row: number, col: number) => boolean
  warnings: string[]
  /** From RawGrid.hints.records: a table of records rather than a report. */
  records: boolean
}

export function normalizeGrid(raw: RawGrid): Grid {
  return normalize(raw, 0, null)
}

/**
 * The grid below the first `top` rows (a title block) of `whole`, the normalised `raw`: as
 * `normalizeGrid(cropGrid(raw, { top }))` gives it, but reading the styles of `whole` `top` rows down instead of
 * copying every styled cell to a new key. Whether the source marks header cells is the whole grid's.
 */
export function normalizeBelow(raw: RawGrid, top: number, whole: Grid): Grid {
  return normalize(raw, Math.max(0, top), whole)
}

function normalize(raw: RawGrid, top: number, whole: Grid | null): Grid {
  const warnings: string[] = []
  const source = top === 0 ? raw.cells : raw.cells.slice(top)
  const rows = source.length
  let cols = 0
  for (const row of source) if (row.length > cols) cols = row.length
  let ragged = 0
  const cells = source.map((row) => {
    if (row.length === cols) return row
    ragged++
    const padded = row.slice()
    while (padded.length < cols) padded.push('')
    return padded
  })
  if (ragged > 0) warnings.push(`${ragged} short row(s) were padded with empty cells.`)

  const merges: MergedRegion[] = []
  let owner: Int32Array | null = null
  let clipped = 0
  let dropped = 0
  const sourceMerges = top === 0 ? raw.merges : cropMerges(raw.merges, top, 0, Infinity)
  if (sourceMerges.length > 0 && rows > 0 && cols > 0) {
    owner = new Int32Array(rows * cols)
    for (const m of sourceMerges) {
      if (![m.top, m.left, m.bottom, m.right].every(Number.isInteger)) {
        dropped++
        continue
      }
      const top = Math.max(0, Math.min(m.top, m.bottom))
      const bottom = Math.min(rows - 1, Math.max(m.top, m.bottom))
      const left = Math.max(0, Math.min(m.left, m.right))
      const right = Math.min(cols - 1, Math.max(m.left, m.right))
      if (top > bottom || left > right) {
        dropped++
        continue
      }
      if (top !== m.top || bottom !== m.bottom || left !== m.left || right !== m.right) clipped++
      if (top === bottom && left === right) continue
      let overlaps = false
      for (let r = top; r <= bottom && !overlaps; r++) {
        for (let c = left; c <= right; c++) {
          if (owner[r * cols + c] !== 0) {
            overlaps = true
            break
          }
        }
      }
      if (overlaps) {
        dropped++
        continue
      }
      merges.push({ top, left, bottom, right })
      const id = merges.length
      for (let r = top; r <= bottom; r++) for (let c = left; c <= right; c++) owner[r * cols + c] = id
    }
  }
  if (clipped > 0) warnings.push(`${clipped} merged region(s) reached outside the table and were clipped.`)
  if (dropped > 0) warnings.push(`${dropped} merged region(s) were outside the table or overlapped another and were ignored.`)

  const { style, marksHeaders, stylesIndent } =
    whole === null
      ? stylesOf(raw.styles)
      : {
          style: (row: number, col: number) => whole.style(row + top, col),
          marksHeaders: whole.marksHeaders,
          stylesIndent: whole.stylesIndent
        }
  const indent = (row: number, col: number): number => {
    const styled = style(row, col)?.indent
    if (styled !== undefined && styled > 0) return styled
    const text = cells[row]?.[col] ?? ''
    let spaces = 0
    while (spaces < text.length && (text[spaces] === ' ' || text[spaces] === '\u00a0')) spaces++
    // Two leading spaces make one level: the usual plain-text rendering of an indent.
    return spaces === text.length ? 0 : Math.floor(spaces / 2)
  }
  const headerCell = (row: number, col: number): boolean => style(row, col)?.header === true
  const levels = raw.outline
  const outline = levels === undefined ? null : (row: number): number => levels[row + top] ?? 0
  return {
    rows,
    cols,
    cells,
    merges,
    owner: merges.length > 0 ? owner : null,
    style,
    indent,
    outline,
    marksHeaders,
    stylesIndent,
    headerCell,
    warnings: [...raw.warnings, ...warnings],
    records: raw.hints?.records === true || raw.relational !== undefined
  }
}

// Cell numbers of the style index: row * STYLE_COLS + col (a sheet has 16,384 columns at most).
const STYLE_COLS = 1 << 20

/**
 * The styles keyed "row,col", looked up by cell number (the rules ask about the label cells of every row, and a
 * key written as text costs more to make and find than the number), and whether any marks a header cell. A
 * key not written as a cell's key is (digits, a comma, digits) is left out.
 */
function stylesOf(styles: Record<string, CellStyle> | undefined): {
  style: (row: number, col: number) => CellStyle | undefined
  marksHeaders: boolean
  stylesIndent: boolean
} {
  if (styles === undefined) return { style: () => undefined, marksHeaders: false, stylesIndent: false }
  const at = new Map<number, CellStyle>()
  let marksHeaders = false
  let stylesIndent = false
  for (const key in styles) {
    const style = styles[key]
    if (style === undefined) continue
    if (style.header === true) marksHeaders = true
    if ((style.indent ?? 0) > 0) stylesIndent = true
    const comma = key.indexOf(',')
    const r = key.slice(0, comma)
    const c = key.slice(comma + 1)
    const row = Number(r)
    const col = Number(c)
    if (comma > 0 && String(row) === r && String(col) === c && row >= 0 && col >= 0 && col < STYLE_COLS)
      at.set(row * STYLE_COLS + col, style)
  }
  return { style: (row, col) => at.get(row * STYLE_COLS + col), marksHeaders, stylesIndent }
}

/** The merged region covering a cell, if any. */
export function regionAt(g: Grid, row: number, col: number): MergedRegion | null {
  if (g.owner === null) return null
  const id = g.owner[row * g.cols + col] ?? 0
  return id === 0 ? null : (g.merges[id - 1] ?? null)
}

/** Text of a cell as written: a cell covered by a merge but not its top-left corner reads as ''. */
export function rawText(g: Grid, row: number, col: number): string {
  if (g.owner !== null) {
    const m = regionAt(g, row, col)
    if (m !== null && (m.top !== row || m.left !== col)) return ''
  }
  return trimmed(g.cells[row]?.[col] ?? '')
}

/**
 * `text.trim()`, without the call for the common text that starts and ends with a printable ASCII character
 * (none of which trim removes): the rules read cells millions of times per corpus.
 */
export function trimmed(text: string): string {
  const n = text.length
  if (n === 0) return text
  const a = text.charCodeAt(0)
  const b = text.charCodeAt(n - 1)
  return a > 32 && a < 127 && b > 32 && b < 127 ? text : text.trim()
}

/** The anchor (top-left cell) of the region covering a cell, or the cell itself. */
export function anchorOf(g: Grid, row: number, col: number): { row: number; col: number } {
  const m = regionAt(g, row, col)
  return m === null ? { row, col } : { row: m.top, col: m.left }
}

/** Text shown in a cell: its merge anchor's text. */
export function shownText(g: Grid, row: number, col: number): string {
  const a = anchorOf(g, row, col)
  return (g.cells[a.row]?.[a.col] ?? '').trim()
}

/**
 * The part of a raw grid from row `top` down, between columns `left` and `right` (inclusive; every column
 * when left out): merges that reach into it are clipped and moved with the cells, and so are styles.
 */
export function cropGrid(raw: RawGrid, area: { top?: number; left?: number; right?: number }): RawGrid {
  const top = Math.max(0, area.top ?? 0)
  const left = Math.max(0, area.left ?? 0)
  const right = area.right ?? Infinity
  const whole = left === 0 && right === Infinity
  if (top === 0 && whole) return raw
  const width = right - left + 1
  const cells = raw.cells.slice(top).map((row) => {
    if (whole) return row
    const part = row.slice(left, right + 1)
    while (part.length < width) part.push('')
    return part
  })
  const out: RawGrid = { ...raw, cells, merges: cropMerges(raw.merges, top, left, right) }
  if (raw.outline !== undefined && top > 0) out.outline = raw.outline.slice(top)
  if (raw.styles !== undefined) {
    const styles: Record<string, CellStyle> = {}
    for (const [key, style] of Object.entries(raw.styles)) {
      const comma = key.indexOf(',')
      const row = Number(key.slice(0, comma))
      const col = Number(key.slice(comma + 1))
      if (row >= top && col >= left && col <= right) styles[`${row - top},${col - left}`] = style
    }
    out.styles = styles
  }
  return out
}

/** Merged regions that reach into the part of a grid from row `top` and between columns `left` and `right`, clipped to it and moved with it. */
function cropMerges(merges: readonly MergedRegion[], top: number, left: number, right: number): MergedRegion[] {
  const out: MergedRegion[] = []
  for (const m of merges) {
    const [t, b] = [Math.min(m.top, m.bottom), Math.max(m.top, m.bottom)]
    const [l, r] = [Math.min(m.left, m.right), Math.max(m.left, m.right)]
    if (b < top || r < left || l > right) continue
    out.push({ top: Math.max(t, top) - top, left: Math.max(l, left) - left, bottom: b - top, right: Math.min(r, right) - left })
  }
  return out
}

/**
 * Columns from `from` on with nothing in any row (blank or whitespace only) and no merge across them, marked
 * 1; null when there are none. Stops reading rows once every column has shown content.
 */
export function blankColumns(
  cells: readonly (readonly string[])[],
  merges: readonly MergedRegion[],
  cols: number,
  from = 0
): Uint8Array | null {
  if (cols <= from) return null
  const blank = new Uint8Array(cols)
  blank.fill(1, from)
  let open = cols - from
  for (let r = 0; r < cells.length && open > 0; r++) {
    const row = cells[r] ?? []
    for (let c = from; c < Math.min(cols, row.length); c++) {
      if (blank[c] === 0 || (row[c] ?? '').trim().length === 0) continue
      blank[c] = 0
      open--
    }
  }
  if (open === 0) return null
  return merges.length === 0 ? blank : uncrossed(blank, merges, from)
}

/** Of the columns marked 1 in `blank`, those that no merge crosses (a copy), or null when none is left. */
export function uncrossed(blank: Uint8Array, merges: readonly MergedRegion[], from = 0): Uint8Array | null {
  const out = blank.slice()
  for (const m of merges)
    for (let c = Math.max(from, Math.min(m.left, m.right)); c <= Math.min(out.length - 1, Math.max(m.left, m.right)); c++) out[c] = 0
  return out.includes(1) ? out : null
}
