import type { HeaderNode } from '../../../../shared/table'
import { RowNumbers } from './row-numbers'
import type { Grid } from './grid'
import { periodShape } from './number'
import { rowLabel, type RowRole } from './rows'
import { resolveBlocks, type BlockClaim } from './rules/blocks'
import { INDENT_COLUMN_RULES, resolveNestingFacts, STATED_RULES, type NestingContext, type StatedClaim } from './rules/nesting'
import { resolveNotes } from './rules/notes'
import { resolveRoles, type RoleClaim, type RowRolesContext } from './rules/row-roles'
import { statedSweep } from './rules/stated-sweep'
import { sweep, type Placement } from './rules/sweep'
import type { Why } from './rules/sweep-cues'
import { collect, strongest, type Evidence } from './rules/types'

export type LeftTree = {
  root: HeaderNode
  /** Source rows that carry data, in order, and each one's root-to-node path. */
  dataRows: number[]
  paths: HeaderNode[][]
  /** Role of every body row (index 0 = row headerRows). */
  roles: RowRole[]
  /** First row of the notes under the table (`g.rows` when there are none). */
  notesFrom: number
  /** With `explain`: why each body row has its role, heads a block, and sits where it does. */
  why?: {
    roles: (Evidence<RoleClaim> | undefined)[]
    blocks: Map<number, Evidence<BlockClaim>>
    placements: Placement[]
    /** The hierarchy the sheet states, when it states one. */
    stated?: Evidence<StatedClaim>
  }
}

/**
 * The left tree over body rows and header columns 0..headerCols-1, from the rule stages row-roles,
 * row-roles-adjust, label-blocks, sum-blocks, blocks-adjust and nesting, resolved by the sweep.
 *
 * Within a row, the header cells give nested nodes (a merged cell is one node for every row it covers;
 * in an unmerged grid an empty cell under a filled one in an outer header column continues it). With
 * hierarchy 'auto', rows also nest: a unit row is the parent of everything below it up to the next unit
 * row, a section row (label, no data) is the parent of the rows below it up to the next section at its
 * level or a "total" row that closes it, and an indented label is the child of the nearest less indented one,
 * but a total written under its parts ("SUB-TOTAL", found by its sum) sits beside them and heads nothing.
 */
export function buildLeftTree(g: Grid, headerRows: number, headerCols: number, hierarchy: boolean, explain = false): LeftTree {
  // Notes under the table ("Source: …", "1 Includes …") are not rows of it.
  const notesFrom = hierarchy ? resolveNotes(g, headerRows).from : g.rows
  const rolesCtx: RowRolesContext = { g, headerRows, headerCols, hierarchy, notesFrom }
  const { roles, rules: roleRules, evidence } = resolveRoles(rolesCtx, undefined, undefined, explain)
  if (headerCols === 0) {
    const dataRows: number[] = []
    const paths: HeaderNode[][] = []
    roles.forEach((role, i) => {
      if (role === 'empty' || role === 'note') return
      dataRows.push(headerRows + i)
      paths.push([])
    })
    const root: HeaderNode = { text: '', cell: null, children: [] }
    return { root, dataRows, paths, roles, notesFrom, ...(explain ? { why: { roles: evidence, blocks: new Map(), placements: [] } } : {}) }
  }
  // The last data row of the grid (headerRows - 1 without any): what comes after it are notes under the table.
  const lastDataRow = headerRows + roles.lastIndexOf('data')
  const ctx: NestingContext = {
    g,
    headerRows,
    headerCols,
    hierarchy,
    roles,
    lastDataRow,
    numbers: hierarchy ? new RowNumbers(g, headerRows, headerCols, roles.length) : null,
    indentColumn: -1,
    staircase: null
  }
  const column = strongest(collect(INDENT_COLUMN_RULES, ctx))?.claim
  // A staircase's depth is its column: the sweep reads it where it reads an indented column's indentation.
  ctx.staircase = column?.kind === 'staircase' ? { from: column.from, to: column.to } : null
  ctx.indentColumn = column?.kind === 'indent-column' ? column.col : column?.kind === 'staircase' ? column.from : -1
  // A hierarchy the sheet states (parent codes, numbered labels, the row outline) decides every row's parent.
  const stated = hierarchy ? strongest(collect(STATED_RULES, ctx)) : undefined
  if (stated !== undefined && stated.claim.kind === 'stated') {
    const input = { g, headerRows, headerCols, hierarchy, roles, roleRules, lastDataRow, blocks: null, blockRules: null, explain }
    const built = statedSweep({ ...input, facts: resolveNestingFacts(ctx, []) }, stated as Evidence<StatedClaim>)
    const tree: LeftTree = { root: built.root, dataRows: built.dataRows, paths: built.paths, roles, notesFrom }
    if (explain) tree.why = { roles: evidence, blocks: new Map(), placements: built.placements, stated: stated as Evidence<StatedClaim> }
    return tree
  }
  const facts = resolveNestingFacts(ctx)
  let blocks: Int32Array | null = null
  let blockRules: Map<number, Why> | null = null
  let blockEvidence = new Map<number, Evidence<BlockClaim>>()
  if (ctx.numbers !== null && ctx.indentColumn < 0 && headerCols === 1) {
    // The shape of each data or section row's label when it names a period ("Sep-1953" → "aaa-9999"), else null.
    const periods =
      rolesCtx.periods ??
      roles.map((role, i) => (role === 'data' || role === 'section' ? periodShape(rowLabel(g, headerRows + i, headerCols)) : null))
    const found = resolveBlocks({ g, headerRows, headerCols, roles, numbers: ctx.numbers, periods })
    blocks = found.ends
    blockEvidence = found.evidence
    blockRules = new Map([...found.evidence].map(([i, e]) => [i, { rule: e.rule, message: e.message, data: e.data }]))
  }
  const built = sweep({ g, headerRows, headerCols, hierarchy, roles, roleRules, lastDataRow, facts, blocks, blockRules, explain })
  const tree: LeftTree = { root: built.root, dataRows: built.dataRows, paths: built.paths, roles, notesFrom }
  if (explain) tree.why = { roles: evidence, blocks: blockEvidence, placements: built.placements }
  return tree
}
