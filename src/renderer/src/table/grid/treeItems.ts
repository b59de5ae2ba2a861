import type { CellRef, HeaderNode } from '../../../../shared/table'
import { pathKey } from './selection'

/** One visible row of a header tree widget. */
export type TreeItem = {
  /** Unique among the items: the node's position (child indices from the root). */
  id: string
  /** The node's path of texts, which names it in selections. */
  path: string[]
  key: string
  text: string
  /** The sheet cell the node stands for (null for a node without one). */
  cell: CellRef | null
  level: number
  hasChildren: boolean
  expanded: boolean
  posInSet: number
  setSize: number
  parentId: string | null
  /** Siblings after this item that are not shown (a long list of children is cut). */
  more: number
}

/** Children shown per node; a report's sections have a few, a long table's rows thousands. */
export const CHILDREN_SHOWN = 200

/** The nodes a tree widget shows, in preorder: children of expanded nodes only, at most `limit` of them. */
export function visibleItems(root: HeaderNode, expanded: ReadonlySet<string>, limit = 3000, childrenShown = CHILDREN_SHOWN): TreeItem[] {
  const out: TreeItem[] = []
  type Frame = {
    node: HeaderNode
    path: string[]
    id: string
    level: number
    pos: number
    size: number
    parentId: string | null
    more: number
  }
  const stack: Frame[] = []
  const pushChildren = (node: HeaderNode, path: string[], id: string | null, level: number): void => {
    const shown = Math.min(node.children.length, childrenShown)
    for (let i = shown - 1; i >= 0; i--) {
      const child = node.children[i]
      const more = i === shown - 1 ? node.children.length - shown : 0
      if (child)
        stack.push({
          node: child,
          path: [...path, child.text],
          id: id === null ? String(i) : `${id}.${i}`,
          level,
          pos: i + 1,
          size: node.children.length,
          parentId: id,
          more
        })
    }
  }
  pushChildren(root, [], null, 1)
  while (stack.length > 0 && out.length < limit) {
    const f = stack.pop()
    if (!f) break
    const key = pathKey(f.path)
    const open = f.node.children.length > 0 && expanded.has(key)
    out.push({
      id: f.id,
      path: f.path,
      key,
      text: f.node.text,
      cell: f.node.cell,
      level: f.level,
      hasChildren: f.node.children.length > 0,
      expanded: open,
      posInSet: f.pos,
      setSize: f.size,
      parentId: f.parentId,
      more: f.more
    })
    if (open) pushChildren(f.node, f.path, f.id, f.level + 1)
  }
  return out
}

/** Keys of the nodes above `depth` with few children, to open a tree a few levels deep at first. */
export function keysToDepth(root: HeaderNode, depth: number, limit = 500, fewChildren = 50): Set<string> {
  const out = new Set<string>()
  const walk = (node: HeaderNode, path: string[], level: number): void => {
    if (level >= depth || out.size >= limit) return
    for (const child of node.children) {
      if (child.children.length === 0 || child.children.length > fewChildren) continue
      const p = [...path, child.text]
      out.add(pathKey(p))
      walk(child, p, level + 1)
    }
  }
  walk(root, [], 0)
  return out
}
