/**
 * The real-sheet benchmark: the structure of the main table of every workbook in datasets/spreadsheets, and of
 * five workbooks built from public layouts (test/fixtures/sheets), against hand labels (test/fixtures/sheet-structure.json): the title
 * rows, the header rows, the columns that name the rows, the notes under the table and each body row's parent.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { detectStructure, structureGrid } from '../../src/main/services/tables/structure'
import { datasetsDir } from '../../src/main/services/paths'
import type { HeaderNode, ParsedTable, RawGrid } from '../../src/shared/table'
import { BUILT_WORKBOOKS } from '../../test/fixtures/sheets/built'
import { columnLetter, openBytes } from './parse-cells'

export type SheetStructureLabel = {
  file: string
  sheet: string
  title: string
  header: string
  labels: string
  notes: string
  parents: string[]
}

export type SheetStructureMiss = { table: string; what: 'header' | 'labels' | 'title-notes' | 'parents'; detail: unknown }

export type SheetStructureResult = {
  tables: number
  headerExact: number
  labelColumnsExact: number
  titleNotesExact: number
  rows: number
  rowParentsExact: number
  perTable: { table: string; rows: number; exact: number }[]
  misses: SheetStructureMiss[]
}

export function readSheetLabels(): SheetStructureLabel[] {
  const fixture = fileURLToPath(new URL('../../test/fixtures/sheet-structure.json', import.meta.url))
  return (JSON.parse(readFileSync(fixture, 'utf8')) as { tables: SheetStructureLabel[] }).tables
}

/** The grids of a built workbook named "built:NAME" as the app opens them; undefined for other names. */
export function builtWorkbook(file: string): RawGrid[] | string | undefined {
  if (!file.startsWith('built:')) return undefined
  const name = file.slice('built:'.length)
  const make = BUILT_WORKBOOKS[name]
  return make === undefined ? `no built workbook ${name}: ${Object.keys(BUILT_WORKBOOKS).join(', ')}` : openBytes(name, make())
}

/** The grid of a labelled table as the app opens it, or undefined when its file is absent. */
export function labelledGrid(label: SheetStructureLabel): RawGrid | undefined {
  let grids: RawGrid[] | string | undefined
  if (label.file.startsWith('built:')) {
    grids = builtWorkbook(label.file)
    if (grids === undefined) return undefined
  } else {
    const path = join(datasetsDir(), 'spreadsheets', label.file)
    if (!existsSync(path)) return undefined
    grids = openBytes(path, new Uint8Array(readFileSync(path)))
  }
  return typeof grids === 'string' ? undefined : grids.find((g) => g.name.endsWith(` › ${label.sheet}`))
}

/** "3-5" → [3, 4, 5]; "3" → [3]; "" → []; "188-190,195" → [188, 189, 190, 195]. */
export function rowRange(text: string): number[] {
  const out: number[] = []
  for (const part of text.split(',').map((p) => p.trim())) {
    if (part === '') continue
    const [a, b] = part.split('-')
    for (let r = Number(a); r <= Number(b ?? a); r++) out.push(r)
  }
  return out
}

/** "A-C" → [0, 1, 2]; "B" → [1]. */
export function columnRange(text: string): number[] {
  const index = (l: string): number => [...l].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1
  return text === '' ? [] : rowRange(text.replace(/[A-Z]+/g, (l) => String(index(l))))
}

/** Each labelled body row (1-based) and its parent row (null: top level); an entry not written "rows:parent" is an error. */
export function labelledParents(parents: string[]): Map<number, number | null> {
  const out = new Map<number, number | null>()
  for (const entry of parents) {
    if (!/^\d+(?:-\d+)?:\d*$/.test(entry))
      throw new Error(`sheet label "${entry}" is not "rows:parent" (test/fixtures/sheet-structure.json)`)
    const [rows = '', parent = ''] = entry.split(':')
    for (const r of rowRange(rows)) out.set(r, parent === '' ? null : Number(parent))
  }
  return out
}

function nonEmptyRows(grid: RawGrid, rows: number[]): number[] {
  return rows.filter((r) => (grid.cells[r - 1] ?? []).some((t) => t.trim() !== ''))
}

/**
 * Each body row's parent row as the structured table places it (1-based sheet rows; null: top level): the
 * nearest node above the row's own first node that sits in another row. Rows of a table without label
 * columns are all at the top level.
 */
export function detectedParents(parsed: ParsedTable): Map<number, number | null> {
  const out = new Map<number, number | null>()
  const fromTree = new Set<number>()
  // The nearest row above a node that is not its own: its parent row. A row's outermost node comes first.
  const stack: { node: HeaderNode; above: number | null }[] = parsed.leftTree.children.map((node) => ({ node, above: null }))
  while (stack.length > 0) {
    const { node, above } = stack.pop() ?? { node: parsed.leftTree, above: null }
    const row = node.cell === null ? null : node.cell.row + 1
    if (row !== null && row !== above && !fromTree.has(row)) {
      fromTree.add(row)
      out.set(row, above)
    }
    for (const child of node.children) stack.push({ node: child, above: row ?? above })
  }
  for (const r of parsed.rowSource) if (!out.has(r + 1)) out.set(r + 1, null)
  return out
}

/** The note rows the structured table sets aside: the last non-empty rows, one per line of its notes. */
export function detectedNoteRows(grid: RawGrid, parsed: ParsedTable): number[] {
  const lines = (parsed.notes ?? '').split('\n').filter((l) => l.trim() !== '').length
  const rows = nonEmptyRows(
    grid,
    grid.cells.map((_, i) => i + 1)
  )
  return lines === 0 ? [] : rows.slice(-lines)
}

export function evaluateSheetStructure(labels = readSheetLabels(), open = labelledGrid): SheetStructureResult {
  const result: SheetStructureResult = {
    tables: 0,
    headerExact: 0,
    labelColumnsExact: 0,
    titleNotesExact: 0,
    rows: 0,
    rowParentsExact: 0,
    perTable: [],
    misses: []
  }
  for (const label of labels) {
    const name = `${label.file} › ${label.sheet}`
    const grid = open(label)
    const parents = labelledParents(label.parents)
    result.tables++
    result.rows += parents.size
    if (grid === undefined) {
      result.misses.push({ table: name, what: 'header', detail: 'not read' })
      continue
    }
    const options = detectStructure(grid)
    const parsed = structureGrid(grid, options)
    const titleRows = options.titleRows ?? 0
    const header = rowRange(label.header)
    const gotHeader = { from: titleRows + 1, to: titleRows + options.headerRows }
    if (gotHeader.from === header[0] && gotHeader.to === header[header.length - 1]) result.headerExact++
    else result.misses.push({ table: name, what: 'header', detail: { got: gotHeader, want: label.header } })
    // The label columns that hold a label in some body row (behind index columns from `labelsFrom` on).
    const offset = grid.sheetColumn ?? 0
    const from = options.labelsFrom ?? 0
    const holding = new Set<number>()
    for (const r of parents.keys())
      for (let c = from; c < from + options.headerCols; c++) if ((grid.cells[r - 1]?.[c] ?? '').trim() !== '') holding.add(c + offset)
    const want = columnRange(label.labels)
    const got = [...holding].sort((a, b) => a - b)
    if (JSON.stringify(got) === JSON.stringify(want)) result.labelColumnsExact++
    else result.misses.push({ table: name, what: 'labels', detail: { got: got.map(columnLetter).join(','), want: label.labels } })
    const wantTitle = nonEmptyRows(grid, rowRange(label.title)).length > 0 ? (header[0] ?? 1) - 1 : 0
    const wantNotes = nonEmptyRows(grid, rowRange(label.notes))
    const gotNotes = detectedNoteRows(grid, parsed)
    if (titleRows === wantTitle && JSON.stringify(gotNotes) === JSON.stringify(wantNotes)) result.titleNotesExact++
    else
      result.misses.push({
        table: name,
        what: 'title-notes',
        detail: { title: { got: titleRows, want: wantTitle }, notes: { got: gotNotes.join(','), want: wantNotes.join(',') } }
      })
    const placed = detectedParents(parsed)
    let exact = 0
    const wrong: string[] = []
    for (const [row, parent] of parents) {
      const got = placed.has(row) ? placed.get(row) : undefined
      if (got === parent) exact++
      else if (wrong.length < 12) wrong.push(`${row}: got ${got === undefined ? 'none' : (got ?? 'top')}, want ${parent ?? 'top'}`)
    }
    result.rowParentsExact += exact
    result.perTable.push({ table: name, rows: parents.size, exact })
    if (exact < parents.size) result.misses.push({ table: name, what: 'parents', detail: { wrong: parents.size - exact, first: wrong } })
  }
  return result
}
