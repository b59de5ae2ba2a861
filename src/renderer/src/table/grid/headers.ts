/**
 * Column layout from column tuples: tuples that share a prefix form a group, as a MultiIndex prints.
 * Kept free of AG Grid types so it can be tested under Node; TableView turns it into column defs.
 */

/** A column group (one node of the top tree) or a data column (a leaf). */
export type ColumnNode =
  | { kind: 'group'; id: string; label: string; path: string[]; children: ColumnNode[] }
  | { kind: 'leaf'; index: number; label: string; path: string[] }

/** A tuple without the '' levels that only pad it to the depth of the deepest column. */
export function trimTuple(tuple: readonly string[]): string[] {
  let end = tuple.length
  while (end > 0 && tuple[end - 1] === '') end--
  return tuple.slice(0, end)
}

/**
 * Nest columns by their tuples: consecutive columns with the same text at a level (and the same levels
 * above it) share one group; a column whose tuple ends at a level is a plain column there. Columns keep
 * their order, so a label that comes back after another one starts a second group, as in the source.
 */
export function buildColumnTree(columns: readonly (readonly string[])[]): ColumnNode[] {
  const items = columns.map((tuple, index) => ({ index, path: trimTuple(tuple) }))
  return nest(items, 0)
}

function nest(items: { index: number; path: string[] }[], level: number): ColumnNode[] {
  const out: ColumnNode[] = []
  let i = 0
  while (i < items.length) {
    const item = items[i]
    if (!item) break
    if (item.path.length <= level + 1) {
      const label = item.path[level] ?? ''
      out.push({
        kind: 'leaf',
        index: item.index,
        label: label === '' ? `Column ${item.index + 1}` : label,
        path: item.path.length === 0 ? [''] : item.path
      })
      i++
      continue
    }
    const text = item.path[level] ?? ''
    let j = i + 1
    while (j < items.length) {
      const next = items[j]
      if (!next || next.path.length <= level + 1 || next.path[level] !== text) break
      j++
    }
    const members = items.slice(i, j)
    out.push({
      kind: 'group',
      id: `g:${level}:${item.index}`,
      label: text,
      path: item.path.slice(0, level + 1),
      children: nest(members, level + 1)
    })
    i = j
  }
  return out
}

/** Depth of the row index: the longest left tuple. */
export function indexDepth(index: readonly (readonly string[])[]): number {
  let depth = 0
  for (const t of index) if (t.length > depth) depth = t.length
  return depth
}
