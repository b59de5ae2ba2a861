import { rowName, type RowMove } from '../../../shared/corrections'
import type { StructureWhy } from '../../../shared/structure-why'
import type { CellRef, HeaderNode, ParsedTable, StructureOptions } from '../../../shared/table'

/**
 * Corrections made by hand, applied to a structured table after the structure pass: rows moved under another
 * row or to the top level. The pass's rules never see them; this module takes its result and the moves.
 */

export type DroppedMove = { move: RowMove; reason: string }

export type CorrectedTable = {
  parsed: ParsedTable
  /** The moves that were applied, in order; `parsed.options.rowMoves` holds the same. */
  applied: RowMove[]
  /** The moves that do not fit this table, and why; each is also a warning of `parsed`. */
  dropped: DroppedMove[]
}

/** The layout without its corrections: what the structure pass reads. */
export function withoutCorrections(options: StructureOptions): StructureOptions {
  const { rowMoves: _moves, ...layout } = options
  return layout
}

function cellKey(cell: CellRef): string {
  return `${cell.row},${cell.col}`
}

/** A copy of the left tree with what moving rows needs: each node's parent, and the nodes of each sheet row in preorder. */
type Tree = {
  root: HeaderNode
  parent: Map<HeaderNode, HeaderNode>
  byRow: Map<number, HeaderNode[]>
  /** Per leaf cell of a data row, the copied nodes with that cell and their texts before any move. */
  byCell: Map<string, { node: HeaderNode; texts: string[] }[]>
}

function copyTree(root: HeaderNode): Tree {
  const copy: HeaderNode = { text: root.text, cell: root.cell, children: [] }
  const tree: Tree = { root: copy, parent: new Map(), byRow: new Map(), byCell: new Map() }
  // Iterative preorder: left trees can be thousands of levels deep.
  const stack: { from: HeaderNode; to: HeaderNode; texts: string[] }[] = [{ from: root, to: copy, texts: [] }]
  while (stack.length > 0) {
    const { from, to, texts } = stack.pop() ?? { from: root, to: copy, texts: [] }
    const pushed: typeof stack = []
    for (const child of from.children) {
      const node: HeaderNode = { text: child.text, cell: child.cell, children: [] }
      to.children.push(node)
      tree.parent.set(node, to)
      const path = [...texts, child.text]
      if (child.cell !== null) {
        const row = tree.byRow.get(child.cell.row)
        if (row) row.push(node)
        else tree.byRow.set(child.cell.row, [node])
        const key = cellKey(child.cell)
        const same = tree.byCell.get(key)
        if (same) same.push({ node, texts: path })
        else tree.byCell.set(key, [{ node, texts: path }])
      }
      pushed.push({ from: child, to: node, texts: path })
    }
    for (let i = pushed.length - 1; i >= 0; i--) stack.push(pushed[i] ?? { from: root, to: copy, texts: [] })
  }
  return tree
}

/** The outermost node of a sheet row: the first of its nodes whose parent is not of the same row. */
function outermost(tree: Tree, row: number): HeaderNode | null {
  for (const node of tree.byRow.get(row) ?? []) if (tree.parent.get(node)?.cell?.row !== row) return node
  return null
}

/** Where rows nested under `row` hang: the deepest of its own nodes (a row with several label cells is a chain of them). */
function attachPoint(top: HeaderNode, row: number): HeaderNode {
  let node = top
  for (;;) {
    const inner = node.children.find((c) => c.cell?.row === row)
    if (inner === undefined) return node
    node = inner
  }
}

function isWithin(tree: Tree, node: HeaderNode, ancestor: HeaderNode): boolean {
  for (let at: HeaderNode | undefined = node; at !== undefined; at = tree.parent.get(at)) if (at === ancestor) return true
  return false
}

/** Why a move cannot be made on the tree as it is now, or null after making it. */
function move(tree: Tree, m: RowMove): string | null {
  const top = outermost(tree, m.row)
  if (top === null) return 'the row is not in the left tree'
  if (top.text !== m.label) return `the row now reads '${top.text}'`
  let target = tree.root
  if (m.under !== null) {
    const parentTop = outermost(tree, m.under)
    if (parentTop === null) return `row ${m.under + 1} is not in the left tree`
    if (parentTop.text !== m.underLabel) return `row ${m.under + 1} now reads '${parentTop.text}'`
    target = attachPoint(parentTop, m.under)
    if (isWithin(tree, target, top)) return m.under === m.row ? 'a row cannot go under itself' : 'that row is nested under it'
  }
  const from = tree.parent.get(top)
  if (from !== undefined) from.children.splice(from.children.indexOf(top), 1)
  // Among its new siblings in sheet order, so the tree still reads top to bottom.
  const at = target.children.findIndex((c) => c.cell !== null && c.cell.row > m.row)
  if (at < 0) target.children.push(top)
  else target.children.splice(at, 0, top)
  tree.parent.set(top, target)
  return null
}

/** Each node's root-to-node texts in the corrected tree, for the nodes that end a data row's path. */
function pathsOf(tree: Tree, wanted: ReadonlySet<HeaderNode>): Map<HeaderNode, string[]> {
  const out = new Map<HeaderNode, string[]>()
  const stack: { node: HeaderNode; texts: string[] }[] = [{ node: tree.root, texts: [] }]
  while (stack.length > 0) {
    const { node, texts } = stack.pop() ?? { node: tree.root, texts: [] }
    if (wanted.has(node)) out.set(node, texts)
    for (const child of node.children) stack.push({ node: child, texts: [...texts, child.text] })
  }
  return out
}

/** The node a data row's tuple ends at: the node of its leaf cell whose path before the moves reads as the tuple. */
function rowNode(tree: Tree, cell: CellRef | null, tuple: readonly string[]): HeaderNode | null {
  if (cell === null) return null
  const candidates = tree.byCell.get(cellKey(cell)) ?? []
  if (candidates.length === 1) return candidates[0]?.node ?? null
  const found = candidates.find(({ texts }) => texts.every((t, k) => tuple[k] === t) && tuple.slice(texts.length).every((t) => t === ''))
  return found?.node ?? null
}

function trimmed(tuple: readonly string[]): string[] {
  let end = tuple.length
  while (end > 0 && tuple[end - 1] === '') end--
  return tuple.slice(0, end)
}

function placeText(m: RowMove): string {
  return m.under === null ? 'to the top level' : `under ${rowName(m.under, m.underLabel).replace(/^Row/, 'row')}`
}

/**
 * Apply `moves` in order to a structured table (multi-index view): the moved rows' nodes, with everything
 * nested under them, go under their new parents' nodes, and every data row's index tuple is its path in the
 * corrected tree, padded to the new depth. Data rows keep their order. A move that does not fit (its row or
 * parent is gone or reads otherwise, or it would put a row inside itself) is dropped with a warning. Never throws.
 */
export function applyRowMoves(parsed: ParsedTable, moves: readonly RowMove[]): CorrectedTable {
  const layout = withoutCorrections(parsed.options)
  if (moves.length === 0) return { parsed: { ...parsed, options: layout }, applied: [], dropped: [] }
  const dropped: DroppedMove[] = []
  const applied: RowMove[] = []
  if (parsed.options.headerCols === 0 || parsed.leftTree.children.length === 0) {
    for (const m of moves) dropped.push({ move: m, reason: 'the table has no label columns' })
  } else {
    const tree = copyTree(parsed.leftTree)
    // Found before any move: a tuple is matched against the paths the structure pass gave.
    const nodes = parsed.indexCells.map((cell, i) => rowNode(tree, cell, parsed.index[i] ?? []))
    for (const m of moves) {
      const why = move(tree, m)
      if (why === null) applied.push(m)
      else dropped.push({ move: m, reason: why })
    }
    if (applied.length > 0) {
      const paths = pathsOf(tree, new Set(nodes.filter((n): n is HeaderNode => n !== null)))
      const index = nodes.map((node, i) => (node === null ? trimmed(parsed.index[i] ?? []) : (paths.get(node) ?? [])))
      const depth = index.reduce((d, t) => Math.max(d, t.length), 0)
      for (const t of index) while (t.length < depth) t.push('')
      parsed = { ...parsed, index, leftTree: tree.root }
    }
  }
  const warnings = [
    ...(parsed.warnings ?? []),
    ...dropped.map(
      ({ move: m, reason }) =>
        `${rowName(m.row, m.label)} was moved ${placeText(m)} by hand; that no longer fits (${reason}), so it was dropped.`
    )
  ]
  const options = applied.length > 0 ? { ...layout, rowMoves: applied } : layout
  return { parsed: { ...parsed, options, warnings }, applied, dropped }
}

/** The reasons of a table whose rows were moved by hand: a moved row's parent and reason are the user's. */
export function correctWhy(why: StructureWhy, applied: readonly RowMove[]): StructureWhy {
  if (applied.length === 0) return why
  const moved = new Map(applied.map((m) => [m.row, m]))
  return {
    ...why,
    rows: why.rows.map((p) => {
      const m = moved.get(p.row)
      if (m === undefined) return p
      const text = m.under === null ? 'placed by you at the top level' : `placed by you under '${m.underLabel}'`
      return { ...p, parentRow: m.under, reasons: [{ rule: 'by-hand', text }] }
    })
  }
}
