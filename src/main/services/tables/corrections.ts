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

/** A cell as one number, for lookups over hundreds of thousands of rows without building strings. */
function cellKey(cell: CellRef): number {
  return cell.row * 1_048_576 + cell.col
}

/**
 * A copy of the left tree with what moving rows needs: each node's parent, and the nodes of the rows the moves
 * name, in preorder. Moves change only the parents of the nodes they move; `movedFrom` keeps those nodes'
 * parents before, so a node's path before the moves can still be read.
 */
type Tree = {
  root: HeaderNode
  parent: Map<HeaderNode, HeaderNode>
  byRow: Map<number, HeaderNode[]>
  movedFrom: Map<HeaderNode, HeaderNode | undefined>
}

function copyTree(root: HeaderNode, rows: ReadonlySet<number>): Tree {
  const copy: HeaderNode = { text: root.text, cell: root.cell, children: [] }
  const tree: Tree = { root: copy, parent: new Map(), byRow: new Map(), movedFrom: new Map() }
  // Iterative: left trees can be thousands of levels deep. Children are visited in order, so each row's
  // nodes are listed in preorder.
  const stack: { from: HeaderNode; to: HeaderNode }[] = [{ from: root, to: copy }]
  const order: { from: HeaderNode; to: HeaderNode }[] = []
  while (stack.length > 0) {
    const { from, to } = stack.pop() ?? { from: root, to: copy }
    order.push({ from, to })
    const pushed: typeof stack = []
    for (const child of from.children) {
      const node: HeaderNode = { text: child.text, cell: child.cell, children: [] }
      to.children.push(node)
      tree.parent.set(node, to)
      pushed.push({ from: child, to: node })
    }
    for (let i = pushed.length - 1; i >= 0; i--) stack.push(pushed[i] ?? { from: root, to: copy })
  }
  for (const { to } of order) {
    const row = to.cell?.row
    if (row === undefined || !rows.has(row)) continue
    const list = tree.byRow.get(row)
    if (list) list.push(to)
    else tree.byRow.set(row, [to])
  }
  return tree
}

/** Root-to-node texts of a node, in the tree as it is (`before`: as it was before the moves). */
function pathTexts(tree: Tree, node: HeaderNode, before: boolean): string[] {
  const out: string[] = []
  for (let at: HeaderNode | undefined = node; at !== undefined && at !== tree.root;) {
    out.push(at.text)
    at = before && tree.movedFrom.has(at) ? tree.movedFrom.get(at) : tree.parent.get(at)
  }
  return out.reverse()
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
  if (!tree.movedFrom.has(top)) tree.movedFrom.set(top, from)
  if (from !== undefined) from.children.splice(from.children.indexOf(top), 1)
  // Among its new siblings in sheet order, so the tree still reads top to bottom.
  const at = target.children.findIndex((c) => c.cell !== null && c.cell.row > m.row)
  if (at < 0) target.children.push(top)
  else target.children.splice(at, 0, top)
  tree.parent.set(top, target)
  return null
}

/** The nodes of the moved rows and everything under them, by cell, in the corrected tree. */
function movedNodes(tree: Tree): Map<number, HeaderNode[]> {
  const out = new Map<number, HeaderNode[]>()
  const seen = new Set<HeaderNode>()
  const stack = [...tree.movedFrom.keys()]
  while (stack.length > 0) {
    const node = stack.pop()
    if (node === undefined) break
    // A moved row may sit under another moved row: its nodes are listed once.
    if (seen.has(node)) continue
    seen.add(node)
    if (node.cell !== null) {
      const key = cellKey(node.cell)
      const same = out.get(key)
      if (same === undefined) out.set(key, [node])
      else same.push(node)
    }
    // Not `push(...children)`: a node can have hundreds of thousands of children.
    for (const child of node.children) stack.push(child)
  }
  return out
}

/**
 * The node a data row's tuple ends at, among the moved nodes with its leaf cell: the one whose path before the
 * moves reads as the tuple (null: the row's node is another one, which did not move).
 */
function rowNode(tree: Tree, candidates: readonly HeaderNode[], tuple: readonly string[]): HeaderNode | null {
  for (const node of candidates) {
    const texts = pathTexts(tree, node, true)
    if (texts.every((t, k) => tuple[k] === t) && tuple.slice(texts.length).every((t) => t === '')) return node
  }
  return null
}

/** Length of a tuple without its padding. */
function trimmedLength(tuple: readonly string[]): number {
  let end = tuple.length
  while (end > 0 && tuple[end - 1] === '') end--
  return end
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
    const named = new Set<number>()
    for (const m of moves) {
      named.add(m.row)
      if (m.under !== null) named.add(m.under)
    }
    const tree = copyTree(parsed.leftTree, named)
    for (const m of moves) {
      const why = move(tree, m)
      if (why === null) applied.push(m)
      else dropped.push({ move: m, reason: why })
    }
    if (applied.length > 0) parsed = { ...parsed, index: correctedIndex(parsed, tree), leftTree: tree.root }
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

/**
 * Every data row's tuple after the moves: a row whose node moved (or sits under one that did) reads its path in
 * the corrected tree, the others keep theirs; all padded to the new depth. Only the moved rows are looked up:
 * a table of 200,000 rows with one move costs about the copy of its tree.
 */
function correctedIndex(parsed: ParsedTable, tree: Tree): string[][] {
  const moved = movedNodes(tree)
  const oldDepth = parsed.index.reduce((d, t) => Math.max(d, t.length), 0)
  const changed = new Map<number, string[]>()
  let depth = 0
  parsed.indexCells.forEach((cell, i) => {
    const tuple = parsed.index[i] ?? []
    const candidates = cell === null ? undefined : moved.get(cellKey(cell))
    const node = candidates === undefined ? null : rowNode(tree, candidates, tuple)
    if (node === null) depth = Math.max(depth, trimmedLength(tuple))
    else {
      const path = pathTexts(tree, node, false)
      changed.set(i, path)
      depth = Math.max(depth, path.length)
    }
  })
  const padded = (tuple: readonly string[]): string[] => {
    const out = tuple.slice(0, depth)
    while (out.length < depth) out.push('')
    return out
  }
  // Rows that did not move keep their tuple arrays when the depth stays.
  return parsed.index.map((tuple, i) => {
    const path = changed.get(i)
    if (path !== undefined) return padded(path)
    return depth === oldDepth ? tuple : padded(tuple)
  })
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
