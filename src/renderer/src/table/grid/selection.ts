/**
 * Which cells a header-tree node covers, and which node a clicked cell belongs to. A node is named by its
 * path of texts from the root, the way pandas names it: selecting ('2023', 'Revenue') covers every column
 * whose tuple starts with it. Sibling nodes with the same text are therefore one selection, as they are
 * one key in pandas.
 */
import { trimTuple } from './headers'

export type HeaderAxis = 'top' | 'left'

/** A selected header-tree node. */
export type HeaderSelection = { axis: HeaderAxis; path: string[] }

export function startsWith(tuple: readonly string[] | undefined, path: readonly string[]): boolean {
  if (!tuple || path.length === 0 || tuple.length < path.length) return false
  for (let i = 0; i < path.length; i++) if (tuple[i] !== path[i]) return false
  return true
}

/** Data columns under a top-tree node. */
export function columnsUnder(columns: readonly (readonly string[])[], path: readonly string[]): number[] {
  const out: number[] = []
  columns.forEach((tuple, j) => {
    if (startsWith(tuple, path)) out.push(j)
  })
  return out
}

/** The top-tree node of a data column: its leaf. */
export function columnNode(columns: readonly (readonly string[])[], column: number): HeaderSelection | null {
  const tuple = columns[column]
  if (!tuple) return null
  const path = trimTuple(tuple)
  return { axis: 'top', path: path.length === 0 ? [''] : path }
}

/** The left-tree node of a row's index cell at `level`, or of the row's own label when that cell is padding. */
export function indexNode(tuple: readonly string[] | undefined, level: number): HeaderSelection | null {
  if (!tuple || tuple.length === 0) return null
  const trimmed = trimTuple(tuple.slice(0, level + 1))
  const path = trimmed.length > 0 ? trimmed : trimTuple(tuple)
  return path.length > 0 ? { axis: 'left', path } : null
}

/** Stable key of a node path, for sets and React keys. */
export function pathKey(path: readonly string[]): string {
  return JSON.stringify(path)
}

/** Keys of every proper prefix of a path: the nodes to expand so that the path's node shows. */
export function ancestorKeys(path: readonly string[]): string[] {
  const out: string[] = []
  for (let i = 1; i < path.length; i++) out.push(pathKey(path.slice(0, i)))
  return out
}
