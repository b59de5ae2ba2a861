import type { CellRef, HeaderNode, ParsedTable, RawGrid, StructureOptions } from '../../../../shared/table'
import { detectHeaders } from './detect'
import { blankColumns, normalizeBelow, normalizeGrid, regionAt, type Grid } from './grid'
import { labelOrder, reorderColumns } from './label-order'
import { resolveCorner } from './rules/corner-caption'
import { buildLeftTree, type LeftTree } from './left-tree'
import { parseNumber } from './number'
import { detectTitleRows, noteText, titleText } from './margins'
import { buildTopTree } from './top-tree'
import { repeatedHeaderRows, withoutRepeatedHeaders } from './repeated-headers'
import { withStoredValues } from '../stored'

export { parseNumber } from './number'
export { flattenTable, inView } from './flatten'
export { treePaths } from './paths'
export { splitSideBySide } from './side-by-side'

/** Guess the title block, header rows, header columns and left-header nesting for a grid. Never throws. */
export function detectStructure(grid: RawGrid): StructureOptions {
  const whole = normalizeGrid(grid)
  const { options, body } = detect(grid, whole)
  handOn(grid, whole, options.titleRows ?? 0, body)
  return options
}

/** The grids detection normalised and cut, for the structureGrid call that takes them. */
type Handoff = {
  whole: Grid
  titleRows: number
  body: Grid
  /** What the grids were made from: a grid whose parts were replaced since is normalised again. */
  from: readonly unknown[]
}

// detectStructure's grids, held for the structureGrid of the same grid that usually follows it
// (`structureGrid(grid, detectStructure(grid))`) and taken by it, so that a grid is normalised and cut once.
// Taken means removed: each call pair does the work once, and nothing is kept for a later call. Weak: a grid
// dropped after detection takes its entry with it.
const handoffs = new WeakMap<RawGrid, Handoff>()

const partsOf = (grid: RawGrid): readonly unknown[] => [
  grid.cells,
  grid.cells.length,
  grid.merges,
  grid.styles,
  grid.hints,
  grid.relational,
  grid.warnings,
  grid.warnings.length
]

function handOn(grid: RawGrid, whole: Grid, titleRows: number, body: Grid): void {
  handoffs.set(grid, { whole, titleRows, body, from: partsOf(grid) })
}

function takeHandoff(grid: RawGrid): Handoff | undefined {
  const kept = handoffs.get(grid)
  if (kept === undefined) return undefined
  handoffs.delete(grid)
  const now = partsOf(grid)
  return kept.from.every((part, k) => part === now[k]) ? kept : undefined
}

/** The detected layout, and the grid below the title block it was detected on. */
function detect(grid: RawGrid, whole: Grid): { options: StructureOptions; body: Grid } {
  const titleRows = grid.relational === undefined ? detectTitleRows(whole) : 0
  const body = belowTitle(grid, whole, titleRows)
  const headers = detectHeaders(body)
  return { options: titleRows === 0 ? headers : { titleRows, ...headers }, body }
}

/**
 * The grid without its title rows (the whole grid when there are none). A source that marks header cells
 * (HTML `<th>`) still does so below a title row that held its only marks: its unmarked rows are body rows.
 */
function belowTitle(grid: RawGrid, whole: Grid, titleRows: number): Grid {
  if (titleRows === 0) return whole
  return normalizeBelow(grid, titleRows, whole)
}

/**
 * Build the bi-dimensional header tree of a grid and its MultiIndex tuples. O(cells); never throws.
 *
 * Tuples are root-to-node paths of cell text, padded on the right with '' to the deepest path of their
 * axis, so that pandas sees equal-length tuples and `df['A']` on a column ('A', '') returns a Series.
 * Column tuples keep each header row at its own level: a column with nothing in the first header row reads
 * ('', 'per ASM', 'change') beside ('year ended', '2018', ''); header rows empty over every column are left out.
 * Section rows and unit rows are nodes of the left tree but not data rows (their data cells are empty);
 * fully empty body rows are dropped, and so are data columns empty from top to bottom (spacer columns).
 * Duplicate paths are kept as they are: pandas accepts a MultiIndex with repeated entries, and selecting one
 * returns all of them.
 */
export function structureGrid(grid: RawGrid, options?: StructureOptions): ParsedTable {
  const kept = takeHandoff(grid)
  const whole = kept?.whole ?? normalizeGrid(grid)
  const { options: chosen, body } = options === undefined ? detect(grid, whole) : { options, body: null }
  const titleRows = clampCount(chosen.titleRows ?? 0, Math.max(0, whole.rows - 1))
  // Detection already cut the title block off (here or in detectStructure); an override is cut here.
  const g = body ?? (kept !== undefined && kept.titleRows === titleRows ? kept.body : belowTitle(grid, whole, titleRows))
  const headerRows = clampCount(chosen.headerRows, g.rows)
  const headerCols = clampCount(chosen.headerCols, g.cols)
  const warnings = [...g.warnings]
  if (titleRows !== (chosen.titleRows ?? 0))
    warnings.push(`A title block of ${chosen.titleRows ?? 0} rows does not fit a ${whole.rows}-row table; using ${titleRows}.`)
  if (headerRows !== chosen.headerRows || headerCols !== chosen.headerCols)
    warnings.push(
      `Header size ${chosen.headerRows}×${chosen.headerCols} does not fit a ${g.rows}×${g.cols} table; using ${headerRows}×${headerCols}.`
    )
  const labelsFrom = clampCount(chosen.labelsFrom ?? 0, Math.max(0, g.cols - headerCols))
  if (labelsFrom !== (chosen.labelsFrom ?? 0))
    warnings.push(`Label columns from column ${(chosen.labelsFrom ?? 0) + 1} do not fit a ${g.cols}-column table; using ${labelsFrom + 1}.`)
  const usedOptions: StructureOptions = { ...chosen, headerRows, headerCols }
  if (titleRows > 0) usedOptions.titleRows = titleRows
  else delete usedOptions.titleRows
  if (labelsFrom > 0 && headerCols > 0) usedOptions.labelsFrom = labelsFrom
  else delete usedOptions.labelsFrom
  // Label columns behind index columns are read at the front of a view of the grid; the index columns stay data.
  const order = usedOptions.labelsFrom === undefined ? null : labelOrder(g.cols, labelsFrom, headerCols)
  const view = order === null ? g : reorderColumns(g, order)
  // A database table's header is its schema: a row equal to its column names is data.
  const parsed = assemble(grid.name, view, usedOptions, warnings, titleRows, grid.relational === undefined)
  // A statement's name and unit in the corner of its header are part of its title (rules/corner-caption.ts).
  const caption = grid.relational === undefined ? (resolveCorner(view, headerRows, headerCols)?.claim.caption ?? '') : ''
  // The source's own title (an HTML caption, HiTab's title, a sheet's title over tables side by side) when the
  // grid's title rows hold none.
  const given = grid.hints?.title?.trim() ?? ''
  // Stored values are read at the sheet cells the shifted references name.
  const shifted = withStoredValues(shiftCells(parsed, titleRows, grid.sheetColumn ?? 0, order), grid)
  const own = titleRows === 0 ? '' : titleText(whole, titleRows)
  const title = [own === '' ? given : own, caption].filter((line) => line !== '').join('\n')
  return title === '' ? shifted : { ...shifted, title }
}

/**
 * Source references of a table structured without its first `rows` rows, or cut from a sheet at column
 * `cols`, or read through a view whose column k is the grid's column `order[k]`, moved back to the sheet's rows
 * and columns: header cells, data rows and columns and tree nodes name the cells the user sees.
 */
function shiftCells(parsed: ParsedTable, rows: number, cols: number, order: readonly number[] | null): ParsedTable {
  if (rows === 0 && cols === 0 && order === null) return parsed
  const column = (c: number): number => (order === null ? c : (order[c] ?? c)) + cols
  const move = (cell: CellRef | null): CellRef | null => (cell === null ? null : { row: cell.row + rows, col: column(cell.col) })
  const moveTree = (node: HeaderNode): HeaderNode => {
    // Iterative: left trees can be thousands of levels deep.
    const copy: HeaderNode = { text: node.text, cell: move(node.cell), children: [] }
    const stack: [HeaderNode, HeaderNode][] = [[node, copy]]
    while (stack.length > 0) {
      const [from, to] = stack.pop() ?? [node, copy]
      for (const child of from.children) {
        const moved: HeaderNode = { text: child.text, cell: move(child.cell), children: [] }
        to.children.push(moved)
        stack.push([child, moved])
      }
    }
    return copy
  }
  return {
    ...parsed,
    columnCells: parsed.columnCells.map(move),
    indexCells: parsed.indexCells.map(move),
    rowSource: parsed.rowSource.map((r) => r + rows),
    colSource: parsed.colSource.map(column),
    topTree: moveTree(parsed.topTree),
    leftTree: moveTree(parsed.leftTree)
  }
}

/**
 * The table of grid `g`, whose row 0 is row `firstRow` of the source (for messages); `headersRepeat`: the body
 * may write header rows again.
 */
function assemble(
  name: string,
  g: Grid,
  options: StructureOptions,
  warnings: string[],
  firstRow: number,
  headersRepeat: boolean
): ParsedTable {
  const { headerRows, headerCols } = options
  const dropped = emptyColumns(g, headerCols)
  const top = buildTopTree(g, headerRows, headerCols, dropped ?? undefined)
  // Header rows written again in the body are header, not data; the left tree reads them without their data cells.
  const repeats = headersRepeat ? repeatedHeaderRows(g, headerRows, headerCols) : []
  const left = buildLeftTree(
    withoutRepeatedHeaders(g, repeats, headerRows, headerCols),
    headerRows,
    headerCols,
    options.leftHierarchy !== 'none'
  )
  if (repeats.length > 0)
    warnings.push(
      `${rowList(repeats.map((r) => r + firstRow))} ${repeats.length === 1 ? 'repeats' : 'repeat'} the column headers and ${repeats.length === 1 ? 'is' : 'are'} not read as data.`
    )
  const colSource: number[] = []
  for (let c = headerCols; c < g.cols; c++) if (dropped?.[c] !== 1) colSource.push(c)

  const columns = rowAlignedTuples(top.paths, headerRows)
  const index = headerCols === 0 ? left.paths.map(() => []) : indexTuples(left.paths)
  const values: string[][] = new Array<string[]>(left.dataRows.length)
  for (let i = 0; i < left.dataRows.length; i++) {
    const row = g.cells[left.dataRows[i] ?? 0] ?? []
    if (dropped !== null) values[i] = colSource.map((c) => row[c] ?? '')
    else values[i] = headerCols === 0 && row.length === g.cols ? row : row.slice(headerCols)
  }
  if (g.owner !== null) fillMergedValues(g, values, left, colSource, headerRows, headerCols)
  if (left.dataRows.length === 0 && g.rows > 0) warnings.push('The table has header rows but no data rows.')
  const notes = noteText(g, left.notesFrom)
  // One literal and the notes after it: a literal that starts with a spread is built property by property.
  const table: ParsedTable = {
    name,
    options,
    columns,
    index,
    values,
    columnCells: top.paths.map(deepestCell),
    indexCells: headerCols === 0 ? left.paths.map(() => null) : left.paths.map(leafCell),
    rowSource: left.dataRows,
    colSource,
    topTree: top.root,
    leftTree: left.root,
    numbers: lazyNumbers(values),
    warnings
  }
  if (notes !== '') table.notes = notes
  return table
}

/**
 * Data columns with nothing in them, header or body, and no merge across them: spacer columns between groups
 * of columns ("NSA | | SA"), which would be columns named '' without a value. Marked 1; null when there are
 * none (the common case, which then keeps every column without a copy).
 */
function emptyColumns(g: Grid, headerCols: number): Uint8Array | null {
  const dropped = blankColumns(g.cells, g.merges, g.cols, headerCols)
  // A table whose data columns are all empty keeps them: there is nothing else to show.
  if (dropped === null || dropped.indexOf(0, headerCols) < 0) return null
  return dropped
}

/**
 * A value merged over several cells of the body (an HTML rowspan or colspan, a merged range of a sheet:
 * "Swedish football division 2" over two seasons, "-" across four columns) is the value of every cell it
 * covers, as a reader of the table takes it: copied into the data rows below and the columns beside its own
 * cell. Only merges anchored in a data row are read so, and not a line written across the whole table; the
 * grid's own cells are not changed.
 */
function fillMergedValues(g: Grid, values: string[][], left: LeftTree, colSource: number[], headerRows: number, headerCols: number): void {
  const { dataRows, roles } = left
  for (let i = 0; i < dataRows.length; i++) {
    const r = dataRows[i] ?? 0
    let row = values[i] ?? []
    let copied = false
    for (let k = 0; k < colSource.length; k++) {
      if ((row[k] ?? '') !== '') continue
      const c = colSource[k] ?? 0
      const m = regionAt(g, r, c)
      if (m === null || (m.top === r && m.left === c) || m.top < headerRows || m.left < headerCols || roles[m.top - headerRows] !== 'data')
        continue
      // A line across the whole table is a banner, not a value of each column.
      if (m.left === 0 && m.right === g.cols - 1) continue
      const text = (g.cells[m.top]?.[m.left] ?? '').trim()
      if (text === '') continue
      if (!copied) {
        // A row of a grid without label columns is the grid's own row: copy it before writing.
        row = row.slice()
        values[i] = row
        copied = true
      }
      row[k] = text
    }
  }
}

/** The numeric reading of a value matrix, parsed on the first call and kept. */
function lazyNumbers(values: string[][]): () => (number | null)[][] {
  let numbers: (number | null)[][] | null = null
  return () => {
    if (numbers === null) {
      const out: (number | null)[][] = new Array<(number | null)[]>(values.length)
      for (let i = 0; i < values.length; i++) {
        const v = values[i] ?? []
        const n = new Array<number | null>(v.length)
        for (let j = 0; j < v.length; j++) n[j] = parseNumber(v[j] ?? '')
        out[i] = n
      }
      numbers = out
    }
    return numbers
  }
}

/** "Row 5", "Rows 5 and 9", "Rows 5, 9 and 14" (1-based, as the sheet shows them), then "… and 3 more". */
function rowList(rows: readonly number[]): string {
  const shown = rows.slice(0, 5).map((r) => String(r + 1))
  if (rows.length > shown.length) shown.push(`${rows.length - shown.length} more`)
  if (shown.length === 1) return `Row ${shown[0]}`
  return `Rows ${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`
}

function clampCount(n: number, max: number): number {
  if (!Number.isFinite(n) || n < 0) return 0
  return Math.min(Math.floor(n), max)
}

/** The cell of a column's deepest named header (a blank leaf under a shared parent has none). */
function deepestCell(path: HeaderNode[]): CellRef | null {
  for (let i = path.length - 1; i >= 0; i--) {
    const cell = path[i]?.cell
    if (cell !== undefined && cell !== null) return cell
  }
  return null
}

function leafCell(path: HeaderNode[]): CellRef | null {
  return path[path.length - 1]?.cell ?? null
}

function rowAlignedTuples(paths: HeaderNode[][], headerRows: number): string[][] {
  const used = new Array<boolean>(headerRows).fill(false)
  for (const p of paths) for (const n of p) if (n.cell !== null && n.cell.row < headerRows) used[n.cell.row] = true
  // Level of each used header row; nodes without a cell (a column with no header) stay at level 0.
  const level = new Array<number>(headerRows).fill(0)
  let depth = 0
  for (let r = 0; r < headerRows; r++) if (used[r]) level[r] = depth++
  if (depth === 0) return toTuples(paths)
  const tuples = paths.map((p) => {
    const t = new Array<string>(depth).fill('')
    let next = 0
    for (const n of p) {
      const at = n.cell === null ? next : Math.max(next, level[n.cell.row] ?? next)
      t[at] = n.text
      next = at + 1
    }
    return t
  })
  const width = tuples.reduce((w, t) => Math.max(w, t.length), 0)
  for (const t of tuples) while (t.length < width) t.push('')
  return tuples
}

/**
 * The row tuples of the left tree's paths, padded to the deepest label: a level that would hold no label in any
 * row (a blank leaf of a row without a label of its own, deeper than every label) is not made. Blank nodes are
 * leaves, so such levels are always the last ones.
 */
function indexTuples(paths: HeaderNode[][]): string[][] {
  let depth = paths.length > 0 ? 1 : 0
  for (const p of paths) {
    let end = p.length
    while (end > depth && (p[end - 1]?.text ?? '') === '') end--
    if (end > depth) depth = end
  }
  return paths.map((p) => {
    const t = new Array<string>(depth)
    for (let k = 0; k < depth; k++) t[k] = p[k]?.text ?? ''
    return t
  })
}

function toTuples(paths: HeaderNode[][]): string[][] {
  let depth = 0
  for (const p of paths) if (p.length > depth) depth = p.length
  return paths.map((p) => {
    const t = p.map((n) => n.text)
    while (t.length < depth) t.push('')
    return t
  })
}
