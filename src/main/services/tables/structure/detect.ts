import type { StructureOptions } from '../../../../shared/table'
import { rawText, regionAt, type Grid } from './grid'
import { labelColumnLikely } from './header-cols'
import { resolveLabelColumns } from './rules/label-columns'
import { resolveHeaderExtent } from './rules/header-extent'
import { resolveHeaderRows } from './rules/header-rows'

/** Guess the number of top header rows and left header columns. O(cells of the first rows). */
export function detectHeaders(g: Grid): StructureOptions {
  if (g.rows === 0 || g.cols === 0) return { headerRows: 0, headerCols: 0, leftHierarchy: 'auto' }
  const headerRows = detectHeaderRows(g)
  const labels = resolveLabelColumns(g, headerRows)
  const options: StructureOptions = { headerRows, headerCols: labels.count, leftHierarchy: 'auto' }
  if (labels.from > 0) options.labelsFrom = labels.from
  return options
}

/** The header rows: read one by one (stage header-rows), then as a whole (stage header-extent). */
export function detectHeaderRows(g: Grid): number {
  const probeCols = probeColumns(g)
  return resolveHeaderExtent(g, probeCols, resolveHeaderRows(g, probeCols).rows).rows
}

/**
 * Leading columns left out when reading a row's cells for the header: the first column when it probably
 * labels the rows (mostly text below the first row, or an empty or unmerged corner).
 */
export function probeColumns(g: Grid): number {
  const corner = regionAt(g, 0, 0)
  const cornerLike = corner !== null ? corner.right === corner.left : rawText(g, 0, 0).length === 0
  return g.cols > 1 && (labelColumnLikely(g) || cornerLike) ? 1 : 0
}
