import type { HeaderNode, IndexView, ParsedTable, RawGrid, StructureOptions } from '../../../shared/table'
import { inView, parseNumber, structureGrid } from './structure'

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
  const structured = structureGrid(grid, options)
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
  const text = (r: number, c: number): string => (grid.cells[r]?.[c] ?? '').trim()
  for (let c = 0; c < headerCols && offset + c < depth; c++) {
    const named = new Set<string>()
    for (let r = titleRows; r < titleRows + headerRows; r++) if (text(r, c) !== '') named.add(text(r, c))
    if (named.size >= 3) continue
    let name = ''
    for (let r = titleRows + headerRows - 1; r >= titleRows && name === ''; r--) name = text(r, c)
    names[offset + c] = name
  }
  return names
}

/*
 * Moving a prepared table between threads. Cloning millions of cells in one message blocks the receiving
 * thread for seconds, so a table travels as a head (everything of constant or header size, plus the
 * payload bytes, which transfer without a copy) and parts of at most `rows` data rows and left-tree
 * branches each, which the receiver takes one at a time.
 */

type Rowwise = Pick<ParsedTable, 'values' | 'index' | 'indexCells' | 'rowSource'>

export type PreparedHead = Omit<PreparedTable, 'parsed'> & {
  parsed: Omit<ParsedTable, keyof Rowwise | 'numbers' | 'leftTree'> & { leftTree: Omit<HeaderNode, 'children'> }
  rowCount: number
  branchCount: number
}

export type PreparedPart = Rowwise & { branches: HeaderNode[] }

export function splitPrepared(table: PreparedTable, rows: number): { head: PreparedHead; parts: PreparedPart[] } {
  // Everything but the row-wise arrays travels in the head, whatever fields ParsedTable has.
  const { values, index, indexCells, rowSource, leftTree, numbers, ...rest } = table.parsed
  const { children, ...root } = leftTree
  const parsed: PreparedHead['parsed'] = { ...rest, leftTree: root }
  const head: PreparedHead = { ...table, parsed, rowCount: values.length, branchCount: children.length }
  const parts: PreparedPart[] = []
  const size = Math.max(1, rows)
  for (let start = 0; start < Math.max(values.length, children.length); start += size) {
    const end = start + size
    parts.push({
      values: values.slice(start, end),
      index: index.slice(start, end),
      indexCells: indexCells.slice(start, end),
      rowSource: rowSource.slice(start, end),
      branches: children.slice(start, end)
    })
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
        numbers: lazyNumbers(values, parsed.colSource)
      }
      return { parsed: full, structure, view, indexColumns, gridName, gridWarnings, payload }
    }
  }
}

/**
 * The numeric reading of a value matrix, parsed on the first call and kept. Columns that come from the
 * index rather than a source column (`colSource` -1, the flat view's label columns) read as null.
 */
function lazyNumbers(values: string[][], colSource: number[]): () => (number | null)[][] {
  let numbers: (number | null)[][] | null = null
  return () => {
    if (numbers === null) {
      const out = new Array<(number | null)[]>(values.length)
      for (let i = 0; i < values.length; i++) {
        const row = values[i] ?? []
        const parsedRow = new Array<number | null>(row.length)
        for (let j = 0; j < row.length; j++) parsedRow[j] = colSource[j] === -1 ? null : parseNumber(row[j] ?? '')
        out[i] = parsedRow
      }
      numbers = out
    }
    return numbers
  }
}
