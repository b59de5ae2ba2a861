import type { HeaderNode } from '../../../../shared/table'

/** Root-to-leaf paths of a header tree in preorder, as the nodes' texts (the root itself excluded). */
export function treePaths(root: HeaderNode): string[][] {
  const out: string[][] = []
  // Iterative preorder: deep left trees (thousands of nested rows) must not overflow the stack.
  const stack: { node: HeaderNode; path: string[] }[] = []
  for (let i = root.children.length - 1; i >= 0; i--) {
    const child = root.children[i]
    if (child !== undefined) stack.push({ node: child, path: [child.text] })
  }
  while (stack.length > 0) {
    const item = stack.pop()
    if (item === undefined) break
    const { node, path } = item
    if (node.children.length === 0) {
      out.push(path)
      continue
    }
    for (let i = node.children.length - 1; i >= 0; i--) {
      const child = node.children[i]
      if (child !== undefined) stack.push({ node: child, path: [...path, child.text] })
    }
  }
  return out
}
