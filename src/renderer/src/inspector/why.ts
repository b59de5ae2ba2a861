import type { StructureReason, StructureWhy } from '../../../shared/structure-why'
import type { CellRef } from '../../../shared/table'
import type { HeaderAxis } from '../table/grid/selection'

function joined(reasons: readonly StructureReason[]): string {
  return reasons.map((r) => r.text).join('; ')
}

/** A reason in words for a tree node, by the sheet cell it stands for; null when the pass gave none. */
export type WhyOf = (cell: CellRef | null) => string | null

/**
 * What the inspector says next to a node: for the top tree, why its header row is one (or why the header ends
 * there); for the left tree, the row's role and why it sits under its parent or at the top level.
 */
export function whyLookup(why: StructureWhy | null, axis: HeaderAxis): WhyOf {
  if (why === null) return () => null
  if (axis === 'top') {
    const rows = new Map(why.headerRows.map((h) => [h.row, joined(h.reasons)]))
    return (cell) => (cell === null ? null : (rows.get(cell.row) ?? null))
  }
  const rows = new Map(
    why.rows.map((p) => {
      const role = p.roleReasons.length > 0 ? `${p.role}: ${joined(p.roleReasons)}. ` : ''
      return [p.row, `${role}${joined(p.reasons)}`] as const
    })
  )
  return (cell) => (cell === null ? null : (rows.get(cell.row) ?? null))
}
