import { VALUE_KIND, type HeaderNode, type IndexView, type ParsedTable, type RawGrid, type StructureOptions } from '../../../shared/table'
import { applyRowMoves, withoutCorrections } from './corrections'
import { lazyNumbers } from './stored'
import { inView, structureGrid } from './structure'

/**
 * A grid made ready for the app: structured (and flattened if asked), with what the table summary needs
 * from the grid, and the JSON the Python runtime loads. Built where the grid lives (the table thread).
 */
export type PreparedTable = {
  parsed: ParsedTable
  /** The layout the structure pass fitted, even when the flat view replaces it in `parsed`. */
  structure: StructureOptions
  view: IndexView
  /** A name per index level (see `indexColumnNames`). */
  indexColumns: string[]
  gridName: string
  gridWarnings: string[]
  /** `parsed` as UTF-8 JSON, the form every executor takes. */
  payload: Uint8Array
}

export function prepareTable(grid: RawGrid, options?: StructureOptions, view: IndexView = 'multiindex'): PreparedTable {
  // Rows moved by hand are applied to what the structure pass found, never read by its rules.
  const structured = applyRowMoves(
    structureGrid(grid, options === undefined ? undefined : withoutCorrections(options)),
    options?.rowMoves ?? []
  ).parsed
  const parsed = inView(structured, view)
  return {
    parsed,
    structure: structured.options,
    view,
    indexColumns: indexColumnNames(grid, parsed),
    gridName: grid.name,
    gridWarnings: grid.warnings,
    payload: tablePayload(parsed)
  }
}

/** A ParsedTable as the executors take it: UTF-8 JSON (`numbers` is a function and is left out). */
export function tablePayload(parsed: ParsedTable): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(parsed))
}

/**
 * A name per index level: the corner text above each header column. Section and unit rows add outer
 * levels, so the corner names the innermost levels and the outer ones stay "". A corner column that
 * names three header rows or more with texts of their own ("Unit", "Series Type", …, "Series ID" above a time
 * series), names those rows, not the index: its level stays "".
 */
export function indexColumnNames(grid: RawGrid, parsed: ParsedTable): string[] {
  const depth = parsed.index.reduce((d, t) => Math.max(d, t.length), 0)
  const { headerRows, headerCols } = parsed.options
  const titleRows = parsed.options.titleRows ?? 0
  const names = new Array<string>(depth).fill('')
  const offset = Math.max(0, depth - headerCols)
  // Label columns behind index columns start at `labelsFrom`.
  const from = parsed.options.labelsFrom ?? 0
  const caption = new Set((parsed.title ?? '').split('\n').map((line) => line.trim()))
  const text = (r: number, c: number): string => (grid.cells[r]?.[c + from] ?? '').trim()
  for (let c = 0; c < headerCols && offset + c < depth; c++) {
    const named = new Set<string>()
    for (let r = titleRows; r < titleRows + headerRows; r++) if (text(r, c) !== '') named.add(text(r, c))
    if (named.size >= 3) continue
    let name = ''
    for (let r = titleRows + headerRows - 1; r >= titleRows && name === ''; r--) name = text(r, c)
    // A corner the structure pass read as the table's caption is its title, not a level's name.
    names[offset + c] = caption.has(name) ? '' : name
  }
  return names
}

/*
 * Moving a prepared table between threads. Cloning millions of cells in one message blocks the receiving
 * thread for seconds, so a table travels as a head (everything of constant or header size, plus the
 * payload bytes, which transfer without a copy) and parts of at most `rows` data rows and left-tree
 * branches each, which the receiver takes one at a time.
 */

type Rowwise = Pick<ParsedTable, 'values' | 'index' | 'indexCells' | 'rowSource' | 'stored'>

export type PreparedHead = Omit<PreparedTable, 'parsed'> & {
  parsed: Omit<ParsedTable, keyof Rowwise | 'numbers' | 'leftTree'> & { leftTree: Omit<HeaderNode, 'children'> }
  rowCount: number
  branchCount: number
  /** Which data columns have stored values (a part carries those columns' values for its rows); absent: none. */
  storedColumns?: boolean[]
}

export type PreparedPart = Rowwise & { branches: HeaderNode[] }

export function splitPrepared(table: PreparedTable, rows: number): { head: PreparedHead; parts: PreparedPart[] } {
  // Everything but the row-wise arrays travels in the head, whatever fields ParsedTable has.
  const { values, index, indexCells, rowSource, stored, leftTree, numbers, ...rest } = table.parsed
  const { children, ...root } = leftTree
  const parsed: PreparedHead['parsed'] = { ...rest, leftTree: root }
  const head: PreparedHead = { ...table, parsed, rowCount: values.length, branchCount: children.length }
  if (stored !== undefined) head.storedColumns = stored.map((c) => c !== null)
  const parts: PreparedPart[] = []
  const size = Math.max(1, rows)
  // Where each stored column's numbers for the next part start.
  const cursors = (stored ?? []).map(() => 0)
  for (let start = 0; start < Math.max(values.length, children.length); start += size) {
    const end = start + size
    const part: PreparedPart = {
      values: values.slice(start, end),
      index: index.slice(start, end),
      indexCells: indexCells.slice(start, end),
      rowSource: rowSource.slice(start, end),
      branches: children.slice(start, end)
    }
    if (stored !== undefined)
      part.stored = stored.map((column, j) => {
        if (column === null) return null
        const kinds = column.kinds.slice(start, end)
        const from = cursors[j] ?? 0
        cursors[j] = from + carriedNumbers(kinds)
        return { kinds, numbers: column.numbers.slice(from, cursors[j]) }
      })
    parts.push(part)
  }
  return { head, parts }
}

/** Reassembles what `splitPrepared` cut; takes parts in order. */
export function joinPrepared(head: PreparedHead): { add(part: PreparedPart): void; finish(): PreparedTable } {
  // Sized up front: growing arrays of millions of entries copies them again and again.
  const values = new Array<string[]>(head.rowCount)
  const index = new Array<string[]>(head.rowCount)
  const indexCells = new Array<ParsedTable['indexCells'][number]>(head.rowCount)
  const rowSource = new Array<number>(head.rowCount)
  const children = new Array<HeaderNode>(head.branchCount)
  const stored = head.storedColumns?.map((has) => (has ? { kinds: [] as string[], numbers: [] as number[][] } : null))
  let rows = 0
  let branches = 0
  // A table without a left header has an empty tuple per row; one shared array instead of millions.
  const none: string[] = []
  return {
    add(part) {
      if (rows + part.values.length > head.rowCount || branches + part.branches.length > head.branchCount)
        throw new Error('Table arrived with more parts than announced.')
      for (let i = 0; i < part.values.length; i++, rows++) {
        const tuple = part.index[i] ?? none
        values[rows] = part.values[i] ?? []
        index[rows] = tuple.length === 0 ? none : tuple
        indexCells[rows] = part.indexCells[i] ?? null
        rowSource[rows] = part.rowSource[i] ?? -1
      }
      stored?.forEach((column, j) => {
        const piece = part.stored?.[j]
        if (column === null || piece === null || piece === undefined) return
        column.kinds.push(piece.kinds)
        column.numbers.push(piece.numbers)
      })
      for (const branch of part.branches) children[branches++] = branch
    },
    finish() {
      if (rows !== head.rowCount || branches !== head.branchCount)
        throw new Error(`Table arrived incomplete: ${rows} of ${head.rowCount} rows, ${branches} of ${head.branchCount} branches.`)
      const { parsed, structure, view, indexColumns, gridName, gridWarnings, payload } = head
      const full: ParsedTable = {
        ...parsed,
        values,
        index,
        indexCells,
        rowSource,
        leftTree: { ...parsed.leftTree, children },
        numbers: () => []
      }
      if (stored !== undefined)
        full.stored = stored.map((c) => (c === null ? null : { kinds: c.kinds.join(''), numbers: c.numbers.flat() }))
      full.numbers = lazyNumbers(full)
      return { parsed: full, structure, view, indexColumns, gridName, gridWarnings, payload }
    }
  }
}

/** How many entries of `StoredColumn.numbers` these kinds take. */
function carriedNumbers(kinds: string): number {
  let n = 0
  for (let i = 0; i < kinds.length; i++) if (NUMBER_KINDS.has(kinds[i] as string)) n++
  return n
}

const NUMBER_KINDS = new Set<string>([VALUE_KIND.exactNumber, VALUE_KIND.date, VALUE_KIND.time, VALUE_KIND.duration])
