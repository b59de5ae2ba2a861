import { createHash } from 'node:crypto'
import type { RowBlock, TableSource, TableStructure, TableSummary } from '../../shared/api'
import { fail, ok, type Result } from '../../shared/result'
import { readRowMoves } from '../../shared/corrections'
import type { StructureWhy } from '../../shared/structure-why'
import type { HeaderNode, IndexView, ParsedTable, StructureOptions } from '../../shared/table'
import { figureShare } from './tables/figures'
import { parseNumber } from './tables/structure'
import { localReader, type ReadTable, type TableReader } from './tables/table-thread'

/** Largest file the app reads into memory; bigger ones get a clear message instead of an out-of-memory crash. */
export const MAX_FILE_BYTES = 512 * 1024 * 1024

/**
 * One open table: `parsed` is what the grid and Python see, `payload` the same as the JSON the executors
 * take. The imported cells stay with the reader (keyed by `id`) so the header layout can change without
 * reading the file again.
 */
export type OpenTable = {
  id: string
  parsed: ParsedTable
  payload: Uint8Array
  summary: TableSummary
  /** The layout header detection chose when the table was opened. */
  detected: StructureOptions
  /** Opening order, so a reloaded page gets its tabs back in the same order. */
  seq: number
  /** Columns whose cells read as numbers, found on the first row request. */
  numeric: number[] | null
  /** Its place among the tables of its file, and how many that file gave, so opening the file again finds them. */
  fileIndex: number
  fileTables: number
}

/** How much the workspace keeps before closing the least recently used tables. */
export type WorkspaceLimits = { maxTables: number; maxCells: number }

export const DEFAULT_LIMITS: WorkspaceLimits = { maxTables: 64, maxCells: 40_000_000 }

/** Row tuples and left-tree nodes past these counts are left out of `table:structure` answers. */
export const STRUCTURE_LIMITS = { indexTuples: 2_000, treeNodes: 5_000 }

const MAX_HEADER = 1_000
// Rows read to decide which columns are numeric.
const NUMERIC_SAMPLE = 2_000

/**
 * The tables open in this process, parsed and structured. A browser tab that goes away never closes
 * its tables, so the workspace bounds itself: past the limits the least recently used tables close
 * (and `onEvict` lets the executor forget them too).
 */
export class Workspace {
  private readonly tables = new Map<string, OpenTable>()
  private seq = 0

  constructor(
    private readonly limits: WorkspaceLimits = DEFAULT_LIMITS,
    private readonly onEvict: (id: string) => void = () => {},
    /** Reads and structures files; the app passes the threaded reader so big files do not block it. */
    private readonly reader: TableReader = localReader()
  ) {}

  async open(name: string, bytes: Uint8Array): Promise<Result<OpenTable[]>> {
    if (bytes.byteLength > MAX_FILE_BYTES) {
      const mb = Math.round(bytes.byteLength / 1024 / 1024)
      return fail('too-large', `${name} is ${mb} MB; the largest file TableQA opens is ${MAX_FILE_BYTES / 1024 / 1024} MB.`)
    }
    // Before the reader takes the bytes (the threaded one moves them to its thread).
    const source: TableSource = { fileName: name, sha256: createHash('sha256').update(bytes).digest('hex') }
    // The same bytes again: its open tables, not a second copy of each.
    const known = this.list().filter((t) => t.summary.source.sha256 === source.sha256)
    if (known.length > 0 && known.length >= (known[0]?.fileTables ?? 0)) return ok(known.sort((a, b) => a.fileIndex - b.fileIndex))
    let read
    try {
      read = await this.reader.open(name, bytes)
    } catch (error) {
      return fail('internal', `Could not read ${name}.`, error instanceof Error ? (error.stack ?? error.message) : String(error))
    }
    if (!read.ok) return read
    if (read.value.length === 0) return fail('bad-input', `${name} contains no table.`)
    const fileTables = read.value.length
    const opened = read.value.map((prepared, fileIndex) => {
      // Some of the file's tables were closed: those still open stay as they are (with their layout).
      const open = known.find((t) => t.fileIndex === fileIndex)
      if (open) {
        this.reader.forget(prepared.key)
        return open
      }
      const table: OpenTable = {
        id: prepared.key,
        parsed: prepared.parsed,
        payload: prepared.payload,
        summary: summarize(prepared, source),
        detected: prepared.structure,
        seq: this.seq++,
        numeric: null,
        fileIndex,
        fileTables
      }
      this.tables.set(table.id, table)
      return table
    })
    this.evict(new Set(opened.map((t) => t.id)))
    return ok(opened)
  }

  get(id: string): OpenTable | undefined {
    const table = this.tables.get(id)
    if (table) {
      // Map order is insertion order: re-inserting marks the table as recently used.
      this.tables.delete(id)
      this.tables.set(id, table)
    }
    return table
  }

  /** Every open table in opening order. */
  list(): OpenTable[] {
    return [...this.tables.values()].sort((a, b) => a.seq - b.seq)
  }

  /** Structure a table again from its kept cells; the id stays, the cells and tuples change. */
  async restructure(id: string, options: StructureOptions, view: IndexView = 'multiindex'): Promise<Result<OpenTable>> {
    if (!this.get(id)) return fail('not-found', 'That table is no longer open.')
    const checked = checkOptions(options)
    if (!checked.ok) return checked
    if (view !== 'multiindex' && view !== 'flatten') return fail('bad-input', 'The view is either "multiindex" or "flatten".')
    const prepared = await this.reader.restructure(id, checked.value, view)
    if (!prepared.ok) return prepared
    // Closed while it was being structured: stays closed.
    const table = this.tables.get(id)
    if (!table) return fail('not-found', 'That table is no longer open.')
    const next: OpenTable = {
      ...table,
      parsed: prepared.value.parsed,
      payload: prepared.value.payload,
      summary: summarize(prepared.value, table.summary.source),
      numeric: null
    }
    this.tables.set(id, next)
    return ok(next)
  }

  /** Why the table has its layout in use, rule by rule (asked for when the inspector shows it). */
  async explain(id: string): Promise<Result<StructureWhy>> {
    const table = this.get(id)
    if (!table) return fail('not-found', 'That table is no longer open.')
    return this.reader.explain(id, table.summary.structure)
  }

  structure(id: string): Result<TableStructure> {
    const table = this.get(id)
    if (!table) return fail('not-found', 'That table is no longer open.')
    const { parsed, summary } = table
    const top = capTree(parsed.topTree, Number.MAX_SAFE_INTEGER)
    const left = capTree(parsed.leftTree, STRUCTURE_LIMITS.treeNodes)
    return ok({
      options: summary.structure,
      detected: table.detected,
      view: summary.view,
      topTree: top.root,
      leftTree: left.root,
      columns: parsed.columns,
      index: parsed.index.slice(0, STRUCTURE_LIMITS.indexTuples),
      indexCount: parsed.index.length,
      treeTruncated: left.truncated,
      warnings: parsed.warnings ?? [],
      title: parsed.title ?? '',
      notes: parsed.notes ?? ''
    })
  }

  private evict(keep: Set<string>): void {
    let cells = 0
    for (const table of this.tables.values()) cells += table.parsed.values.length * table.parsed.columns.length
    for (const [id, table] of this.tables) {
      if (this.tables.size <= this.limits.maxTables && cells <= this.limits.maxCells) return
      if (keep.has(id)) continue
      cells -= table.parsed.values.length * table.parsed.columns.length
      this.tables.delete(id)
      this.reader.forget(id)
      this.onEvict(id)
    }
  }

  rows(id: string, start: number, count: number): Result<RowBlock> {
    const table = this.get(id)
    if (!table) return fail('not-found', 'That table is no longer open.')
    if (!Number.isInteger(start) || !Number.isInteger(count) || start < 0 || count < 0)
      return fail('bad-input', 'Row range must be non-negative integers.')
    const end = start + Math.min(count, 100_000)
    const rows = table.parsed.values.slice(start, end)
    table.numeric ??= numericColumns(table.parsed.values, table.parsed.columns.length)
    const numbers = table.numeric.map((c) => rows.map((row) => parseNumber(row[c] ?? '')))
    return ok({
      start,
      rows,
      index: table.parsed.index.slice(start, end),
      numbers: { columns: table.numeric, values: numbers },
      rowSource: table.parsed.rowSource.slice(start, end),
      colSource: table.parsed.colSource
    })
  }

  close(id: string): boolean {
    this.reader.forget(id)
    return this.tables.delete(id)
  }
}

function summarize(table: ReadTable, source: TableSource): TableSummary {
  return {
    id: table.key,
    name: table.gridName,
    columns: table.parsed.columns,
    indexColumns: table.indexColumns,
    rowCount: table.parsed.values.length,
    // The layout the user asked for, as the structure pass fitted it, even when the flat view replaces it.
    structure: table.structure,
    view: table.view,
    warnings: table.gridWarnings,
    source,
    figureShare: figureShare(table.parsed.values)
  }
}

// A short cell without a digit in a column of numbers marks a missing value ("N/A", "..", "x", "-", "[c]").
const MISSING_MARK = /^[^\d]{1,4}$/u

/**
 * Columns whose non-blank cells in the first rows are numbers, or marks of a missing value among numbers,
 * allowing one stray cell in fifty.
 */
export function numericColumns(values: string[][], width: number): number[] {
  const filled = new Array<number>(width).fill(0)
  const numbers = new Array<number>(width).fill(0)
  const marks = new Array<number>(width).fill(0)
  const limit = Math.min(values.length, NUMERIC_SAMPLE)
  for (let r = 0; r < limit; r++) {
    const row = values[r] ?? []
    for (let c = 0; c < width; c++) {
      const text = (row[c] ?? '').trim()
      if (text === '') continue
      filled[c] = (filled[c] ?? 0) + 1
      if (parseNumber(text) !== null) numbers[c] = (numbers[c] ?? 0) + 1
      else if (MISSING_MARK.test(text)) marks[c] = (marks[c] ?? 0) + 1
    }
  }
  const out: number[] = []
  for (let c = 0; c < width; c++) {
    const n = numbers[c] ?? 0
    if (n > 0 && n + (marks[c] ?? 0) >= (filled[c] ?? 0) * 0.98) out.push(c)
  }
  return out
}

function checkOptions(options: StructureOptions): Result<StructureOptions> {
  const count = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= MAX_HEADER
  if (typeof options !== 'object' || options === null || !count(options.headerRows) || !count(options.headerCols))
    return fail('bad-input', `Header rows and header columns must be whole numbers from 0 to ${MAX_HEADER}.`)
  const titleRows = options.titleRows ?? 0
  if (!count(titleRows)) return fail('bad-input', `Title rows must be a whole number from 0 to ${MAX_HEADER}.`)
  const hierarchy = options.leftHierarchy ?? 'auto'
  if (hierarchy !== 'auto' && hierarchy !== 'none') return fail('bad-input', 'Left hierarchy is either "auto" or "none".')
  const moves = readRowMoves(options.rowMoves)
  if (moves.problems.length > 0) return fail('bad-input', `The moved rows are not valid: ${moves.problems.join('; ')}.`)
  return ok({
    ...(titleRows > 0 ? { titleRows } : {}),
    headerRows: options.headerRows,
    headerCols: options.headerCols,
    leftHierarchy: hierarchy,
    ...(moves.moves.length > 0 ? { rowMoves: moves.moves } : {})
  })
}

/**
 * A copy of a tree for display holding at most `maxNodes` nodes, taken level by level so that every top-level
 * node survives before any deeper one; children keep their order. Consecutive siblings with the same text
 * become one node holding all their children: a CSV repeats "North" on every row where a report would merge
 * it, and pandas names those rows by the one label either way. Iterative: left trees can be deep.
 */
export function capTree(root: HeaderNode, maxNodes: number): { root: HeaderNode; truncated: boolean } {
  const out: HeaderNode = { text: root.text, cell: root.cell, children: [] }
  let level: { node: HeaderNode; copy: HeaderNode }[] = [{ node: root, copy: out }]
  let count = 0
  while (level.length > 0) {
    const next: { node: HeaderNode; copy: HeaderNode }[] = []
    for (const { node, copy } of level) {
      for (const child of node.children) {
        const last = copy.children[copy.children.length - 1]
        if (last !== undefined && last.text === child.text && child.text !== '') {
          next.push({ node: child, copy: last })
          continue
        }
        if (count >= maxNodes) return { root: out, truncated: true }
        const childCopy: HeaderNode = { text: child.text, cell: child.cell, children: [] }
        copy.children.push(childCopy)
        count++
        next.push({ node: child, copy: childCopy })
      }
    }
    level = next
  }
  return { root: out, truncated: false }
}
