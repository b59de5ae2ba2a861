/**
 * Stored values through the structure pass: the typed cells of a sheet (RawGrid.values) mapped onto the data
 * region of its structured table (ParsedTable.stored), and the numeric reading of a table that uses them.
 */
import { VALUE_KIND, type GridValues, type ParsedTable, type RawGrid, type StoredColumn } from '../../../shared/table'
import { parseNumber } from './structure/number'

const code = (kind: string): number => kind.charCodeAt(0)
const UNTYPED = code(VALUE_KIND.untyped)
const NUMBER = code(VALUE_KIND.number)
const EXACT = code(VALUE_KIND.exactNumber)
/** Kinds whose value is an entry of `StoredColumn.numbers` (1 by kind code, read for every typed cell). */
const CARRIES_NUMBER = new Uint8Array(256)
for (const kind of [EXACT, code(VALUE_KIND.date), code(VALUE_KIND.time), code(VALUE_KIND.duration)]) CARRIES_NUMBER[kind] = 1
const LATIN1 = new TextDecoder('latin1')

/**
 * The table with the stored values of its data cells, read at their source cells (`rowSource`, `colSource`: the
 * sheet's rows and columns, where `grid.values` is indexed). A data cell the structure pass filled from a value
 * merged over it takes that value's stored value too. A table whose grid has no typed cells is returned as it is.
 */
export function withStoredValues(parsed: ParsedTable, grid: RawGrid): ParsedTable {
  const values = grid.values
  if (values === undefined || values.width === 0) return parsed
  const anchors = mergeAnchors(grid)
  let any = false
  const stored = parsed.colSource.map((c, j) => {
    const column = c < 0 || c >= values.width ? null : storedColumn(parsed, grid, values, anchors, j, c)
    if (column !== null) any = true
    return column
  })
  if (!any) return parsed
  const table: ParsedTable = { ...parsed, stored }
  table.numbers = lazyNumbers(table)
  return table
}

function storedColumn(
  parsed: ParsedTable,
  grid: RawGrid,
  values: GridValues,
  anchors: MergeAnchors,
  j: number,
  c: number
): StoredColumn | null {
  const { width, kinds, numbers } = values
  const sheetColumn = grid.sheetColumn ?? 0
  const rows = parsed.rowSource.length
  const out = new Uint8Array(rows)
  const carried: number[] = []
  let typed = false
  for (let i = 0; i < rows; i++) {
    const r = parsed.rowSource[i] ?? -1
    let at = r >= 0 ? r * width + c : -1
    let kind = at >= 0 && at < kinds.length ? (kinds[at] ?? 0) : 0
    // An untyped empty cell takes nothing from a merge: nothing more to read.
    const text = parsed.values[i]?.[j] ?? ''
    if (kind === 0 && text === '') {
      out[i] = UNTYPED
      continue
    }
    const own = grid.cells[r]?.[c - sheetColumn] ?? ''
    if (kind === 0 && own === '') {
      // Filled from a merged value: the value of the merge's own cell.
      const anchor = anchors(r, c - sheetColumn, text)
      if (anchor !== null) {
        at = anchor.row * width + anchor.col + sheetColumn
        kind = at < kinds.length ? (kinds[at] ?? 0) : 0
      }
    } else if (kind === NUMBER && text !== own) kind = EXACT
    if (kind === 0) {
      out[i] = UNTYPED
      continue
    }
    typed = true
    out[i] = kind
    if (CARRIES_NUMBER[kind] === 1) carried.push(numbers[at] ?? 0)
  }
  return typed ? { kinds: LATIN1.decode(out), numbers: carried } : null
}

type MergeAnchors = (row: number, col: number, text: string) => { row: number; col: number } | null

/** The own cell of the merged region over a grid cell whose anchor shows `text`; regions indexed on first use. */
function mergeAnchors(grid: RawGrid): MergeAnchors {
  let byRow: Map<number, RawGrid['merges']> | null = null
  return (row, col, text) => {
    if (byRow === null) {
      byRow = new Map()
      for (const m of grid.merges) {
        // Bounded by the grid: a merge of a million rows is not indexed row by row.
        const bottom = Math.min(Math.max(m.top, m.bottom), grid.cells.length - 1)
        for (let r = Math.min(m.top, m.bottom); r <= bottom; r++) {
          const list = byRow.get(r)
          if (list === undefined) byRow.set(r, [m])
          else list.push(m)
        }
      }
    }
    for (const m of byRow.get(row) ?? []) {
      if (col < Math.min(m.left, m.right) || col > Math.max(m.left, m.right)) continue
      const top = Math.min(m.top, m.bottom)
      const left = Math.min(m.left, m.right)
      if ((grid.cells[top]?.[left] ?? '').trim() === text) return { row: top, col: left }
    }
    return null
  }
}

/**
 * The number of each cell of a stored column, null where it is not one (text, a truth value, a date, a missing
 * value); an untyped cell is read from its text.
 */
export function storedNumbers(column: StoredColumn, texts: (i: number) => string): (number | null)[] {
  const out = new Array<number | null>(column.kinds.length)
  let next = 0
  for (let i = 0; i < column.kinds.length; i++) {
    const kind = column.kinds.charCodeAt(i)
    if (kind === UNTYPED) out[i] = parseNumber(texts(i))
    else if (kind === NUMBER) out[i] = Number(texts(i).replace(/,/g, ''))
    else if (CARRIES_NUMBER[kind] === 1) {
      const v = column.numbers[next++] ?? null
      out[i] = kind === EXACT ? v : null
    } else out[i] = null
  }
  return out
}

/**
 * `ParsedTable.numbers` for a table with stored values: the stored number of each cell (so a population stored as
 * 15.141 and shown as "15" reads 15.141), the text's reading where a column has none; columns that come from the
 * index (`colSource` -1) read as null. Computed on the first call and kept.
 */
export function lazyNumbers(table: Pick<ParsedTable, 'values' | 'colSource' | 'stored'>): () => (number | null)[][] {
  let numbers: (number | null)[][] | null = null
  return () => {
    if (numbers !== null) return numbers
    const { values, colSource, stored } = table
    const out = values.map((row) => row.map((text, j) => (colSource[j] === -1 ? null : parseNumber(text))))
    stored?.forEach((column, j) => {
      if (column === null) return
      storedNumbers(column, (i) => values[i]?.[j] ?? '').forEach((v, i) => {
        const row = out[i]
        if (row !== undefined && j < row.length) row[j] = v
      })
    })
    numbers = out
    return out
  }
}
