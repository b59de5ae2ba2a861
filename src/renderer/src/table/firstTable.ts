import type { TableSummary } from '../../../shared/api'

/**
 * The table a freshly opened file shows first: the first whose body is close to the most figure-rich of
 * the file (at least half its share of figures), so a workbook opens at its first real table rather than
 * at a contents, cover or notes sheet, which stay in the tabs. Every table of text: the first one.
 */
export function firstToShow<T extends Pick<TableSummary, 'figureShare'>>(tables: readonly T[]): T | undefined {
  const best = tables.reduce((m, t) => Math.max(m, t.figureShare), 0)
  if (best <= 0) return tables[0]
  return tables.find((t) => t.figureShare >= best / 2) ?? tables[0]
}
