import type { HeaderNode } from '../../../../shared/table'
import { rawText, regionAt, type Grid } from './grid'
import { cleanLabel } from './labels'

export function newRoot(): HeaderNode {
  return { text: '', cell: null, children: [] }
}

/**
 * The top tree over header rows 0..headerRows-1 and data columns headerCols..cols-1, with each data
 * column's root-to-node path.
 *
 * A merged cell is one node shared by every column and row it covers. In an unmerged grid (CSV), an empty
 * header cell right of a filled one in a row that is not the last header row continues that cell: "2018,,"
 * over "men,women" makes 2018 the parent of both. Columns whose header cells are all empty get a leaf with
 * text '' so that every data column has a path; columns marked in `dropped` (empty throughout) get none.
 */
export function buildTopTree(
  g: Grid,
  headerRows: number,
  headerCols: number,
  dropped?: Uint8Array
): { root: HeaderNode; paths: HeaderNode[][] } {
  const root = newRoot()
  const paths: HeaderNode[][] = []
  // Node per source cell key (row * cols + col), shared between the columns a cell covers.
  const nodes = new Map<number, HeaderNode>()
  const firstColumn = new Map<HeaderNode, number>()
  // The cell a forward-filled header cell continues, per row: key of the last filled cell.
  const lastFilled: number[] = new Array<number>(headerRows).fill(-1)
  // The grid column of each path.
  const kept: number[] = []
  for (let c = headerCols; c < g.cols; c++) {
    const path: HeaderNode[] = []
    let parent = root
    for (let r = 0; r < headerRows; r++) {
      const m = regionAt(g, r, c)
      let key: number
      let text: string
      let cell: { row: number; col: number }
      if (m !== null) {
        if (r > m.top) continue
        key = m.top * g.cols + m.left
        cell = { row: m.top, col: m.left }
        text = rawText(g, m.top, m.left)
        lastFilled[r] = key
      } else {
        text = rawText(g, r, c)
        if (text.length > 0) {
          key = r * g.cols + c
          cell = { row: r, col: c }
          lastFilled[r] = key
        } else {
          const prev = lastFilled[r] ?? -1
          const continues = g.owner === null && r < headerRows - 1 && prev >= 0 && rowBelowFilled(g, r, c, headerRows)
          if (!continues) {
            lastFilled[r] = -1
            continue
          }
          key = prev
          cell = { row: Math.floor(prev / g.cols), col: prev % g.cols }
          text = rawText(g, cell.row, cell.col)
        }
      }
      if (text.length === 0) continue
      let node = nodes.get(key)
      if (node === undefined) {
        node = { text: cleanLabel(text), cell, children: [] }
        nodes.set(key, node)
        firstColumn.set(node, c)
        parent.children.push(node)
      }
      path.push(node)
      parent = node
    }
    // A column empty from top to bottom (a spacer between groups of columns) has no path and no leaf.
    if (dropped?.[c] === 1) continue
    if (path.length === 0) {
      const leaf: HeaderNode = { text: '', cell: null, children: [] }
      root.children.push(leaf)
      path.push(leaf)
    }
    paths.push(path)
    kept.push(c)
  }
  addBlankLeaves(paths, kept, firstColumn)
  return { root, paths }
}

/**
 * A column whose path ends at a node that other columns go below ("annual % change" over its own column and
 * over "95% confidence interval | from | to") gets a blank leaf under that node, so that every data column
 * is a leaf of the tree, placed among the node's children in column order.
 */
function addBlankLeaves(paths: HeaderNode[][], columns: readonly number[], firstColumn: Map<HeaderNode, number>): void {
  paths.forEach((path, j) => {
    const last = path[path.length - 1]
    if (last === undefined || last.children.length === 0) return
    const col = columns[j] ?? j
    let at = 0
    while (at < last.children.length && (firstColumn.get(last.children[at] as HeaderNode) ?? Infinity) < col) at++
    const blank: HeaderNode = { text: '', cell: null, children: [] }
    firstColumn.set(blank, col)
    last.children.splice(at, 0, blank)
    path.push(blank)
  })
}

function rowBelowFilled(g: Grid, r: number, c: number, headerRows: number): boolean {
  for (let below = r + 1; below < headerRows; below++) if (rawText(g, below, c).length > 0) return true
  return false
}
