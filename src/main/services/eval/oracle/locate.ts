/**
 * Where a cell of the source grid sits in the multi-index table: a data cell by its (row header path,
 * column header path), a header cell by the header path of a line it labels and its level in that path.
 * Programs address cells only this way, never by grid position.
 */
import type { HeaderNode, ParsedTable } from '../../../../shared/table'

export type CellLocation =
  | { kind: 'data'; rowKey: string[]; colKey: string[]; rowDup: number; colDup: number; rowUnique: boolean; colUnique: boolean }
  | { kind: 'row-header'; rowKey: string[]; level: number; unique: boolean }
  | { kind: 'column-header'; colKey: string[]; level: number; unique: boolean }
  /** A table without row headers: the row is named by its value in a key column (a column of distinct values). */
  | { kind: 'keyed'; keyColKey: string[]; key: string; colKey: string[] }

export type Locator = (row: number, col: number) => CellLocation | null

function keyOf(t: string[]): string {
  return JSON.stringify(t)
}

/** Occurrence number of each tuple among equal tuples, and whether it is the only one. */
function occurrences(tuples: string[][]): { dup: number[]; unique: boolean[] } {
  const count = new Map<string, number>()
  const dup = tuples.map((t) => {
    const k = keyOf(t)
    const n = count.get(k) ?? 0
    count.set(k, n + 1)
    return n
  })
  return { dup, unique: tuples.map((t) => count.get(keyOf(t)) === 1) }
}

function findNode(root: HeaderNode, row: number, col: number): { node: HeaderNode; depth: number } | null {
  const stack: { node: HeaderNode; depth: number }[] = root.children.map((node) => ({ node, depth: 0 }))
  while (stack.length > 0) {
    const item = stack.pop() as { node: HeaderNode; depth: number }
    if (item.node.cell?.row === row && item.node.cell.col === col) return item
    for (const child of item.node.children) stack.push({ node: child, depth: item.depth + 1 })
  }
  return null
}

/** The first column whose cells are all filled and distinct (ignoring case and spacing), if any. */
function keyColumn(table: ParsedTable): number {
  const width = table.columns.length
  for (let j = 0; j < width; j++) {
    const seen = new Set<string>()
    let good = table.values.length > 0
    for (const r of table.values) {
      const k = (r[j] ?? '').trim().toLowerCase().replace(/\s+/g, ' ')
      if (k === '' || seen.has(k)) {
        good = false
        break
      }
      seen.add(k)
    }
    if (good) return j
  }
  return -1
}

export function makeLocator(table: ParsedTable): Locator {
  const rows = occurrences(table.index)
  const cols = occurrences(table.columns)
  const noRowHeaders = table.index.every((t) => t.length === 0)
  const keyCol = noRowHeaders ? keyColumn(table) : -1
  return (row, col) => {
    const i = table.rowSource.indexOf(row)
    const j = table.colSource.indexOf(col)
    if (i >= 0 && j >= 0) {
      const rowKey = table.index[i] ?? []
      const colKey = table.columns[j] ?? []
      if (rowKey.length === 0) {
        if (keyCol < 0) return null
        return { kind: 'keyed', keyColKey: table.columns[keyCol] ?? [], key: table.values[i]?.[keyCol] ?? '', colKey }
      }
      return {
        kind: 'data',
        rowKey,
        colKey,
        rowDup: rows.dup[i] ?? 0,
        colDup: cols.dup[j] ?? 0,
        rowUnique: rows.unique[i] ?? false,
        colUnique: cols.unique[j] ?? false
      }
    }
    const left = findNode(table.leftTree, row, col)
    if (left !== null) {
      // The first data row at or below the header cell whose path holds this label at its level.
      let best = -1
      table.index.forEach((t, k) => {
        const src = table.rowSource[k] ?? -1
        if (src >= row && t[left.depth] === left.node.text && (best < 0 || src < (table.rowSource[best] ?? 0))) best = k
      })
      if (best >= 0) return { kind: 'row-header', rowKey: table.index[best] ?? [], level: left.depth, unique: rows.unique[best] ?? false }
    }
    const top = findNode(table.topTree, row, col)
    if (top !== null) {
      let best = -1
      table.columns.forEach((t, k) => {
        const src = table.colSource[k] ?? -1
        if (src >= col && t[top.depth] === top.node.text && (best < 0 || src < (table.colSource[best] ?? 0))) best = k
      })
      if (best >= 0)
        return { kind: 'column-header', colKey: table.columns[best] ?? [], level: top.depth, unique: cols.unique[best] ?? false }
    }
    return null
  }
}
