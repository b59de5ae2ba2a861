import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { MergedRegion, RawGrid } from '../../../../shared/table'
import { datasetsDir } from '../../paths'

/**
 * Readers of the HiTab and AIT-QA table files into RawGrids, with each table's own header annotation as
 * the gold standard for the structure tests and benchmark. Detection never sees the gold part.
 */

/** Every workbook (XLSX, XLSM, XLS, ODS) under datasets/spreadsheets, sorted by path; none when it is absent. */
export function spreadsheetPaths(): string[] {
  const files: string[] = []
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) walk(path)
      else if (/\.(xlsx|xlsm|xls|ods)$/i.test(name)) files.push(path)
    }
  }
  const root = join(datasetsDir(), 'spreadsheets')
  if (existsSync(root)) walk(root)
  return files
}

type HitabNode = { row_index: number; column_index: number; children: HitabNode[] }
type HitabRegion = { first_row: number; last_row: number; first_column: number; last_column: number }
export type HitabTable = {
  title: string
  texts: string[][]
  merged_regions: HitabRegion[]
  top_root: HitabNode
  left_root: HitabNode
  top_header_rows_num: number
  left_header_columns_num: number
}

/**
 * Gold structure: root-to-leaf paths of cell text and header counts, both as HiTab declares them
 * (`headerRows`, `headerCols`) and as its own trees place them (`treeHeaderRows`, `treeHeaderCols`).
 */
export type GoldStructure = {
  topPaths: string[][]
  leftPaths: string[][]
  headerRows: number
  headerCols: number
  treeHeaderRows: number
  treeHeaderCols: number
}

export function hitabTableIds(dir = join(datasetsDir(), 'hitab', 'data', 'tables', 'raw')): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5))
    .sort()
}

export function readHitabTable(id: string, dir = join(datasetsDir(), 'hitab', 'data', 'tables', 'raw')): HitabTable {
  return JSON.parse(readFileSync(join(dir, `${id}.json`), 'utf8')) as HitabTable
}

export function hitabToGrid(id: string, table: HitabTable): RawGrid {
  const merges: MergedRegion[] = table.merged_regions.map((m) => ({
    top: m.first_row,
    left: m.first_column,
    bottom: m.last_row,
    right: m.last_column
  }))
  return { name: `hitab ${id}`, cells: table.texts.map((r) => r.slice()), merges, warnings: [] }
}

/**
 * HiTab's annotation. `top_header_rows_num` counts one row more than the rows holding top-tree nodes
 * (HiTab's own code tests `row < top_header_rows_num - 1`), so the gold header-row count is that minus one.
 */
export function hitabGold(table: HitabTable): GoldStructure {
  const text = (n: HitabNode): string => (table.texts[n.row_index]?.[n.column_index] ?? '').trim()
  return {
    topPaths: goldPaths(table.top_root, text),
    leftPaths: goldPaths(table.left_root, text),
    headerRows: table.top_header_rows_num - 1,
    headerCols: table.left_header_columns_num,
    treeHeaderRows: treeRows(table.top_root),
    treeHeaderCols: treeCols(table)
  }
}

/** Rows holding top-tree nodes: one more than the deepest node's row. */
function treeRows(root: HitabNode): number {
  let rows = 0
  const walk = (n: HitabNode): void => {
    for (const c of n.children) {
      rows = Math.max(rows, c.row_index + 1)
      walk(c)
    }
  }
  walk(root)
  return rows
}

/**
 * Columns holding row labels: one more than the rightmost left-tree node that has a cell with text to its
 * right in its row. A unit row ("percent" written once over the data columns, nothing right of it) is a node
 * of the left tree but does not make its column a label column.
 */
function treeCols(table: HitabTable): number {
  let cols = 0
  const walk = (n: HitabNode): void => {
    for (const c of n.children) {
      const region = table.merged_regions.find(
        (m) =>
          m.first_row <= c.row_index && c.row_index <= m.last_row && m.first_column <= c.column_index && c.column_index <= m.last_column
      )
      const right = region?.last_column ?? c.column_index
      const row = table.texts[c.row_index] ?? []
      if (row.slice(right + 1).some((t) => t.trim().length > 0)) cols = Math.max(cols, c.column_index + 1)
      walk(c)
    }
  }
  walk(table.left_root)
  return cols
}

function goldPaths(root: HitabNode, text: (n: HitabNode) => string): string[][] {
  const out: string[][] = []
  const walk = (node: HitabNode, path: string[]): void => {
    if (node.children.length === 0) {
      if (path.length > 0) out.push(path)
      return
    }
    for (const child of node.children) walk(child, [...path, text(child)])
  }
  walk(root, [])
  return out
}

export type AitqaTable = { id: string; column_header: string[][]; row_header: string[][]; data: string[][] }

export function readAitqaTables(file = join(datasetsDir(), 'aitqa', 'raw_data', 'aitqa_tables.jsonl')): AitqaTable[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim().length > 0)
    .map((l) => JSON.parse(l) as AitqaTable)
}

/**
 * Lay an AIT-QA table out as the filing prints it: column labels on header rows (a label shared by
 * neighbouring columns merged across them, a short path's last label merged down to the last header row),
 * row labels in leading columns (a label shared by consecutive rows merged down, a short path's last label
 * merged across the remaining label columns), an empty corner. Flat tables have no label columns.
 */
export function aitqaToGrid(t: AitqaTable): RawGrid {
  const H = Math.max(0, ...t.column_header.map((p) => p.length))
  const K = Math.max(0, ...t.row_header.map((p) => p.length))
  const dataWidth = Math.max(t.column_header.length, ...t.data.map((r) => r.length))
  const bodyRows = Math.max(t.row_header.length, t.data.length)
  const width = K + dataWidth
  const cells: string[][] = Array.from({ length: H + bodyRows }, () => new Array<string>(width).fill(''))
  const merges: MergedRegion[] = []
  const put = (r: number, c: number, v: string): void => {
    const row = cells[r]
    if (row !== undefined) row[c] = v
  }

  layoutPaths(t.column_header, H, (level, first, last, label, short) => {
    put(level, K + first, label)
    const bottom = short ? H - 1 : level
    if (last > first || bottom > level) merges.push({ top: level, left: K + first, bottom, right: K + last })
  })
  layoutPaths(t.row_header, K, (level, first, last, label, short) => {
    put(H + first, level, label)
    const right = short ? K - 1 : level
    if (last > first || right > level) merges.push({ top: H + first, left: level, bottom: H + last, right })
  })
  t.data.forEach((row, i) => row.forEach((v, j) => put(H + i, K + j, v)))
  return { name: `aitqa ${t.id}`, cells, merges, warnings: [] }
}

/**
 * For each level, runs of consecutive paths sharing the prefix up to that level. `short` is set when every
 * path of the run ends at that level (its label then reaches to the last level).
 */
function layoutPaths(
  paths: string[][],
  depth: number,
  emit: (level: number, first: number, last: number, label: string, short: boolean) => void
): void {
  for (let level = 0; level < depth; level++) {
    let i = 0
    while (i < paths.length) {
      const p = paths[i] ?? []
      if (p.length <= level) {
        i++
        continue
      }
      let j = i
      while (j + 1 < paths.length && samePrefix(paths[j + 1] ?? [], p, level)) j++
      let short = true
      for (let k = i; k <= j; k++) if ((paths[k]?.length ?? 0) !== level + 1) short = false
      emit(level, i, j, p[level] ?? '', short)
      i = j + 1
    }
  }
}

function samePrefix(a: string[], b: string[], level: number): boolean {
  if (a.length <= level || b.length <= level) return false
  for (let k = 0; k <= level; k++) if (a[k] !== b[k]) return false
  return true
}

/** AIT-QA's own tuples, for comparison with the structure pass's index and columns. */
export function aitqaGold(t: AitqaTable): { columns: string[][]; index: string[][] } {
  return { columns: t.column_header, index: t.row_header }
}
