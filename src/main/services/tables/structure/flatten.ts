import type { HeaderNode, IndexView, ParsedTable } from '../../../../shared/table'

/** Separator between the levels of a flattened column name. */
export const FLAT_SEPARATOR = ' - '

/**
 * The flat view used for the ablation: each column's top path joined into one name ("2018 - men"; empty
 * levels skipped), and the left header kept as ordinary leading columns named "level 1", "level 2", ...
 * (their `colSource` is -1: they come from the index, not from one source column). The result has one header
 * row and no index.
 */
export function flattenTable(parsed: ParsedTable): ParsedTable {
  const depth = parsed.index.reduce((d, t) => Math.max(d, t.length), 0)
  const labelNames = Array.from({ length: depth }, (_, i) => `level ${i + 1}`)
  const names = [...labelNames, ...parsed.columns.map(joinPath)]
  const named = names.map((n, i) => (n.length > 0 ? n : `column ${i + 1}`))
  const topTree: HeaderNode = {
    text: '',
    cell: null,
    children: named.map((text, i) => ({ text, cell: i < depth ? null : (parsed.columnCells[i - depth] ?? null), children: [] }))
  }
  return {
    ...parsed,
    options: { headerRows: 1, headerCols: 0, leftHierarchy: 'none' },
    columns: named.map((n) => [n]),
    index: parsed.values.map(() => []),
    values: parsed.values.map((row, i) => [...padTo(parsed.index[i] ?? [], depth), ...row]),
    numbers: () => parsed.numbers().map((row) => [...new Array<null>(depth).fill(null), ...row]),
    ...(parsed.stored === undefined ? {} : { stored: [...new Array<null>(depth).fill(null), ...parsed.stored] }),
    columnCells: topTree.children.map((n) => n.cell),
    indexCells: parsed.values.map(() => null),
    colSource: [...new Array<number>(depth).fill(-1), ...parsed.colSource],
    topTree,
    leftTree: { text: '', cell: null, children: [] }
  }
}

/** The table as the UI shows it and programs see it under `view`: the one place a view is applied. */
export function inView(parsed: ParsedTable, view: IndexView): ParsedTable {
  return view === 'flatten' ? flattenTable(parsed) : parsed
}

function joinPath(tuple: string[]): string {
  return tuple.filter((t) => t.length > 0).join(FLAT_SEPARATOR)
}

function padTo(tuple: string[], depth: number): string[] {
  const out = tuple.slice(0, depth)
  while (out.length < depth) out.push('')
  return out
}
