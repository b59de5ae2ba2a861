/**
 * The left tree of a table whose sheet states its hierarchy (codes and parent codes, numbered labels, the row
 * outline): each body row goes under the row the sheet names as its parent, with its parent's whole path, so a
 * parent need not be the row just above its parts and parts need not follow each other. Where the labels are
 * indented too, each row's reason says whether the indentation agrees; where it does not, the sheet's own
 * statement wins. Unit rows still head the rows below them, and notes stay leaves, as in the sweep.
 */
import type { HeaderNode } from '../../../../../shared/table'
import { rawText } from '../grid'
import { cleanLabel } from '../labels'
import { parentsByLevel } from '../stated'
import type { StatedClaim } from './nesting'
import { labelText } from './row-roles'
import { rowIndent, type Why } from './sweep-cues'
import type { Placement, SweepInput, SweepResult } from './sweep'
import type { Evidence } from './types'

// Levels of the row index at most (the sweep's bound on open parents).
const MAX_DEPTH = 32

/** Each row's parent by the indentation of the indented label column, for the reasons; null without one. */
function indentationParents(input: SweepInput): Int32Array | null {
  const { g, headerRows, headerCols, roles, facts } = input
  if (facts.indentColumn < 0) return null
  const levels = roles.map((role, i) =>
    role === 'data' || role === 'section' ? rowIndent(g, headerRows + i, headerCols, facts.indentColumn, facts.staircase) : -1
  )
  return parentsByLevel(levels)
}

export function statedSweep(input: SweepInput, stated: Evidence<StatedClaim>): SweepResult {
  const { g, headerRows, headerCols, roles, explain } = input
  const { parents, marks } = stated.claim
  const root: HeaderNode = { text: '', cell: null, children: [] }
  const dataRows: number[] = []
  const paths: HeaderNode[][] = []
  const placements: Placement[] = []
  // Each placed row's path: its parent's path and its own label nodes; the rows under it extend it.
  const chains = new Map<number, HeaderNode[]>()
  const indentation = explain ? indentationParents(input) : null
  let unit: HeaderNode[] = []
  let unitWhy: Why | undefined
  const why = (i: number, parent: number): Why => {
    const other = indentation?.[i] ?? -2
    const agrees = other === -2 ? null : other === parent
    const data = { mark: marks[i] ?? '', other: other >= 0 ? labelText(g, headerRows + other, headerCols) : 'the top level' }
    const top = data.mark === '' ? 'unmarked' : 'top'
    const message =
      parent >= 0 ? (agrees === null ? 'parent' : agrees ? 'agrees' : 'overrules') : agrees === false ? `${top}-overrules` : top
    return { rule: stated.rule, message, data }
  }
  for (let i = 0; i < roles.length; i++) {
    const role = roles[i] ?? 'empty'
    const r = headerRows + i
    if (role === 'empty') continue
    if (role === 'note' || role === 'unit') {
      // A unit heads the rows below it; a note is a leaf at the top, out of the hierarchy.
      let col = 0
      while (col < g.cols - 1 && rawText(g, r, col).length === 0) col++
      const node: HeaderNode = { text: cleanLabel(rawText(g, r, col)), cell: { row: r, col }, children: [] }
      root.children.push(node)
      if (explain) placements.push({ row: r, parentRow: null, closed: [] })
      if (role === 'unit') {
        unit = [node]
        unitWhy = { rule: input.roleRules[i] ?? 'row-unit', message: 'unit' }
      }
      continue
    }
    const p = parents[i] ?? -1
    const above = p >= 0 ? chains.get(p) : undefined
    // As in the sweep, a row sits at most MAX_DEPTH levels deep (under its ancestor there): each row's path is
    // as long as its depth, so without a bound a chain of parents costs the square of its rows.
    const path = above === undefined ? [...unit] : above.slice(0, MAX_DEPTH)
    let parent = path[path.length - 1] ?? root
    const own = path.length
    for (let c = 0; c < headerCols; c++) {
      const text = rawText(g, r, c)
      if (text.length === 0) continue
      const node: HeaderNode = { text: cleanLabel(text), cell: { row: r, col: c }, children: [] }
      parent.children.push(node)
      path.push(node)
      parent = node
    }
    if (path.length === own && role === 'data') {
      const blank: HeaderNode = { text: '', cell: null, children: [] }
      parent.children.push(blank)
      path.push(blank)
    }
    chains.set(i, path)
    if (explain) {
      const reason = why(i, above === undefined ? -1 : p)
      if (above !== undefined) placements.push({ row: r, parentRow: headerRows + p, opened: reason, closed: [] })
      else if (unit.length > 0) placements.push({ row: r, parentRow: unit[0]?.cell?.row ?? null, opened: unitWhy, closed: [] })
      else placements.push({ row: r, parentRow: null, closed: [reason] })
    }
    if (role === 'data') {
      dataRows.push(r)
      paths.push(path)
    }
  }
  return { root, dataRows, paths, placements }
}
