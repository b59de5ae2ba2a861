import type { HeaderNode } from '../../../shared/table'

/** A body row of the left tree as the move controls name it: its sheet row, label and path of texts. */
export type TreeRow = { row: number; label: string; path: string[] }

/** A row the selected one can go under, and whether that would put the row inside itself. */
export type ParentChoice = TreeRow & { current: boolean; inside: boolean }

type Walked = { node: HeaderNode; path: string[]; parent: HeaderNode | null }

/** Every node with its path and parent, in preorder (iterative: left trees can be deep). */
function walk(root: HeaderNode): Walked[] {
  const out: Walked[] = []
  const stack: Walked[] = [...root.children].reverse().map((node) => ({ node, path: [node.text], parent: null }))
  while (stack.length > 0) {
    const item = stack.pop()
    if (item === undefined) break
    out.push(item)
    for (let i = item.node.children.length - 1; i >= 0; i--) {
      const child = item.node.children[i]
      if (child !== undefined) stack.push({ node: child, path: [...item.path, child.text], parent: item.node })
    }
  }
  return out
}

/** The rows of the tree in preorder, each by its outermost node (a row with several label cells is a chain of nodes). */
function treeRows(root: HeaderNode): { rows: TreeRow[]; parentRow: Map<number, number | null>; walked: Walked[] } {
  const walked = walk(root)
  const rows: TreeRow[] = []
  const parentRow = new Map<number, number | null>()
  for (const { node, path, parent } of walked) {
    const row = node.cell?.row
    if (row === undefined || parentRow.has(row) || parent?.cell?.row === row) continue
    rows.push({ row, label: node.text, path })
    parentRow.set(row, parent?.cell?.row ?? null)
  }
  return { rows, parentRow, walked }
}

/**
 * The row of the node at `path` (the first node so named), by its outermost node, with the row it sits under
 * (null: the top level); null when the path names no body row.
 */
export function rowAt(root: HeaderNode, path: readonly string[]): (TreeRow & { parentRow: number | null }) | null {
  const { rows, walked, parentRow } = treeRows(root)
  const key = JSON.stringify(path)
  const hit = walked.find((w) => JSON.stringify(w.path) === key)
  const row = hit?.node.cell?.row
  const found = row === undefined ? undefined : rows.find((r) => r.row === row)
  return found === undefined ? null : { ...found, parentRow: parentRow.get(found.row) ?? null }
}

/** The path of the node of sheet row `row` in the tree, or null when the tree does not show it. */
export function pathOfRow(root: HeaderNode, row: number): string[] | null {
  return treeRows(root).rows.find((r) => r.row === row)?.path ?? null
}

/**
 * The rows `row` can be moved under: the rows above it, nearest last as the sheet shows them, with the one it
 * sits under now marked, and those nested under it marked as impossible.
 */
export function parentChoices(root: HeaderNode, row: number): ParentChoice[] {
  const { rows, parentRow } = treeRows(root)
  const inside = (r: number): boolean => {
    for (let at: number | null | undefined = r; at !== null && at !== undefined; at = parentRow.get(at)) if (at === row) return true
    return false
  }
  const current = parentRow.get(row) ?? null
  return rows
    .filter((r) => r.row < row)
    .sort((a, b) => a.row - b.row)
    .map((r) => ({ ...r, current: r.row === current, inside: inside(r.row) }))
}

/** Why moving `row` under `choice` cannot be done, or null when it can. */
export function moveProblem(row: TreeRow, choice: ParentChoice): string | null {
  if (choice.row === row.row) return `'${row.label}' cannot go under itself.`
  if (choice.inside) return `'${choice.label}' is nested under '${row.label}': a row cannot go under one of its own rows.`
  return null
}

/** A path as the picker shows it. */
export function pathText(path: readonly string[]): string {
  return path.map((t) => (t === '' ? '(blank)' : t)).join(' › ')
}

/** A choice as the picker lists it: the row's own label first (a narrow panel cuts the end), then where it sits. */
export function choiceText(choice: ParentChoice): string {
  const label = choice.label === '' ? '(blank)' : choice.label
  const where = choice.path.length > 1 ? ` — under ${pathText(choice.path.slice(0, -1))}` : ''
  return `${label} (sheet row ${choice.row + 1})${where}${choice.current ? ' — its parent now' : ''}`
}
