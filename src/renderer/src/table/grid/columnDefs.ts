import type { ColDef, ColGroupDef, HeaderClassParams } from 'ag-grid-community'
import type { TableSummary } from '../../../../shared/api'
import type { GridRow } from '../rows'
import { readByAnswer, type AnswerCells } from './answerCells'
import type { ColumnNode } from './headers'
import { compareNumbers, numericText } from './numeric'
import { startsWith } from './selection'
import { sameSpan } from './spans'

/** What is highlighted for the selected header-tree node. */
export type Highlight = {
  columns: ReadonlySet<number>
  groups: ReadonlySet<string>
  /** Rows whose left tuple starts with this path; null when no left node is selected. */
  rows: readonly string[] | null
}

/** The grid's context object: cell class rules ask it for the current highlight and the answer's cells. */
export type GridContext = { highlight: () => Highlight; answer: () => AnswerCells }

export const NO_HIGHLIGHT: Highlight = { columns: new Set(), groups: new Set(), rows: null }

const ctx = (p: { context: unknown }): GridContext => p.context as GridContext

const rowHighlighted = (p: { context: unknown; data?: GridRow | undefined }): boolean => {
  const rows = ctx(p).highlight().rows
  return rows !== null && startsWith(p.data?.index, rows)
}

const rowNumberColumn: ColDef<GridRow> = {
  colId: '__row',
  headerName: '#',
  valueGetter: (p) => (p.data ? p.data.n + 1 : null),
  pinned: 'left',
  lockPinned: true,
  suppressMovable: true,
  sortable: false,
  filter: false,
  resizable: true,
  suppressAutoSize: true,
  suppressSizeToFit: true,
  cellClass: 'row-number'
}

/** The header of an index column: the corner's text, or which level it is when the corner is blank. */
export function indexHeader(level: number, name: string): string {
  return name.trim() === '' ? `level ${level + 1}` : name
}

function indexColumn(level: number, name: string): ColDef<GridRow> {
  return {
    colId: `i:${level}`,
    headerName: indexHeader(level, name),
    headerTooltip: name.trim() === '' ? `Row index, level ${level + 1}` : `${name} (row index, level ${level + 1})`,
    // Row labels span the rows under them: filtering them would split those spans, so they have no filter.
    filter: false,
    suppressHeaderFilterButton: true,
    suppressHeaderMenuButton: true,
    valueGetter: (p) => p.data?.index[level] ?? '',
    pinned: 'left',
    lockPinned: true,
    suppressMovable: true,
    spanRows: (p) => sameSpan(p.nodeA?.data?.index, p.nodeB?.data?.index, level),
    // Long labels would push the data off screen; the full text is on hover.
    maxWidth: 220,
    tooltipValueGetter: (p) => p.data?.index[level] ?? '',
    cellClass: 'index-cell',
    cellClassRules: { 'cell-highlight': rowHighlighted }
  }
}

function dataColumn(index: number, label: string, path: readonly string[], numeric: boolean): ColDef<GridRow> {
  // Set here rather than through the 'rightAligned' column type: own cellClass/headerClass would replace the type's.
  const headerClasses = numeric ? ['ag-right-aligned-header'] : []
  const base: ColDef<GridRow> = {
    colId: String(index),
    headerName: label,
    headerTooltip: path.join(' › '),
    headerClass: (p: HeaderClassParams<GridRow>) =>
      ctx(p).highlight().columns.has(index) ? [...headerClasses, 'header-highlight'] : headerClasses,
    cellClassRules: {
      'cell-highlight': (p) => ctx(p).highlight().columns.has(index) || rowHighlighted(p),
      'cell-answer': (p) => readByAnswer(ctx(p).answer(), p.data?.source, index)
    }
  }
  if (!numeric) return { ...base, valueGetter: (p) => p.data?.cells[index] ?? '' }
  return {
    ...base,
    cellClass: ['ag-right-aligned-cell', 'numeric-cell'],
    filter: 'agNumberColumnFilter',
    valueGetter: (p) => p.data?.numbers[index] ?? null,
    // Cells that are not numbers (a dash, a footnote) keep their text.
    valueFormatter: (p) => {
      const raw = p.data?.cells[index] ?? ''
      return typeof p.value === 'number' ? numericText(raw, p.value) : raw
    },
    tooltipValueGetter: (p) => p.data?.cells[index] ?? '',
    comparator: compareNumbers
  }
}

function fromTree(nodes: readonly ColumnNode[], numeric: ReadonlySet<number>): (ColDef<GridRow> | ColGroupDef<GridRow>)[] {
  return nodes.map((node) => {
    if (node.kind === 'leaf') return dataColumn(node.index, node.label, node.path, numeric.has(node.index))
    const group: ColGroupDef<GridRow> = {
      groupId: node.id,
      headerName: node.label,
      headerTooltip: node.path.join(' › '),
      headerClass: (p: HeaderClassParams<GridRow>) => (ctx(p).highlight().groups.has(node.id) ? 'header-highlight' : undefined),
      marryChildren: true,
      children: fromTree(node.children, numeric)
    }
    return group
  })
}

/** Row number, one pinned column per index level, then the data columns nested by the top tree. */
export function columnDefs(
  table: TableSummary,
  tree: readonly ColumnNode[],
  depth: number,
  numeric: ReadonlySet<number>
): (ColDef<GridRow> | ColGroupDef<GridRow>)[] {
  // Wide enough for the largest row number, so it never clips.
  const width = 28 + 8 * String(table.rowCount).length
  const index = Array.from({ length: depth }, (_, level) => indexColumn(level, table.indexColumns[level] ?? ''))
  return [{ ...rowNumberColumn, width }, ...index, ...fromTree(tree, numeric)]
}

/** Every group of a column tree with its path, for header clicks. */
export function groupPaths(nodes: readonly ColumnNode[], out = new Map<string, string[]>()): Map<string, string[]> {
  for (const node of nodes) {
    if (node.kind === 'group') {
      out.set(node.id, node.path)
      groupPaths(node.children, out)
    }
  }
  return out
}
