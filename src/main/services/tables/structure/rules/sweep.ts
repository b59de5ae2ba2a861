/**
 * The resolver of stage `nesting`: one pass down the body that keeps the groups open above each row and
 * builds the left tree. Each row closes the groups its evidence says it is outside of (those at its own depth
 * or deeper, a block that has ended, the groups a total closes) and takes the innermost group left open as
 * its parent; a section, a unit, a block's head or a less indented row then opens a group of its own. Open
 * groups never cross: one closes with everything opened inside it. Each placement keeps the rule that opened
 * its parent and the rules that closed groups at it, for the explanation.
 */
import { cleanLabel } from '../labels'
import type { HeaderNode } from '../../../../../shared/table'
import { rawText, regionAt, type Grid } from '../grid'
import type { RowRole } from '../rows'
import type { NestingFacts } from './nesting'
import { labelText } from './row-roles'
import { inUse } from './types'
import {
  closeAtSibling,
  closeInnermostSection,
  closeOpenedFrom,
  columnStep,
  firstFilled,
  firstGroupLabel,
  firstLabelColumn,
  nextIndent,
  rowIndent,
  type Open,
  type Why
} from './sweep-cues'

// Between a section (-0.5) and a data row (0): data rows stay inside an aggregate, a section closes it.
const AGGREGATE_LEVEL = -0.25
// Open parents a row can be under, at most (the deepest left tree of HiTab, the sheets and WikiTQ has 10).
const MAX_OPEN_PARENTS = 32

export type SweepInput = {
  g: Grid
  headerRows: number
  headerCols: number
  hierarchy: boolean
  roles: RowRole[]
  /** Why each body row has its role (rule ids of stage row-roles). */
  roleRules: (string | undefined)[]
  lastDataRow: number
  facts: NestingFacts
  /** Per body row, the last body row of the block it heads (-1: none), and the rule that found it. */
  blocks: Int32Array | null
  blockRules: Map<number, Why> | null
  /** Record each row's placement. */
  explain: boolean
}

/** Where a body row was placed: its parent's row (null: the top level) and why. */
export type Placement = { row: number; parentRow: number | null; opened?: Why; closed: Why[] }

export type SweepResult = { root: HeaderNode; dataRows: number[]; paths: HeaderNode[][]; placements: Placement[] }

export function sweep(input: SweepInput): SweepResult {
  const { g, headerRows, headerCols, hierarchy, roles, facts, lastDataRow } = input
  const root: HeaderNode = { text: '', cell: null, children: [] }
  const dataRows: number[] = []
  const paths: HeaderNode[][] = []
  const placements: Placement[] = []
  const nodes = new Map<number, HeaderNode>()
  const above: (HeaderNode | null)[] = new Array<HeaderNode | null>(headerCols).fill(null)
  const stack: Open[] = []
  const { indentColumn, groupColumns, members, sectionDepth, staircase } = facts
  const indented = indentColumn >= 0
  // In a staircase an empty cell left of a label is the outline's blank, not a label carried down.
  const carried = staircase === null ? facts.carried : null
  const carries = staircase === null
  const indentRule = staircase === null ? 'nesting-indentation-column' : 'nesting-staircase'
  // The rows each flag marks, read once: the sweep asks about every row.
  const flagged = (kind: Parameters<typeof facts.flags.get>[0]): Uint8Array | null => facts.flags.get(kind) ?? null
  const groupRows = flagged('group-row')
  const outerSections = flagged('outer-section')
  const wholes = flagged('whole')
  const countries = flagged('country')
  const beforeRecurrence = flagged('before-recurrence')
  const grandTotals = flagged('grand-total')
  const explain = input.explain
  const siblingCloses = hierarchy && !indented && inUse('nesting-sibling-closes')
  const openedAt = indented ? new Int32Array(roles.length).fill(-1) : null
  let lastRow = g.rows - 1
  while (lastRow >= headerRows && roles[lastRow - headerRows] === 'empty') lastRow--
  let previousRole: RowRole | null = null
  // What closed groups at the row being placed, with explain only; each reason is read only when it did.
  let closed: Why[] = []
  let before = 0
  // Whether the last step closed a group, to be explained: the reason is built only then.
  const closedSome = (): boolean => explain && stack.length < before
  const place = (r: number, closed: Why[]): void => {
    if (!explain) return
    const top = stack[stack.length - 1]
    placements.push({ row: r, parentRow: top?.node.cell?.row ?? null, opened: top?.why, closed })
  }
  const ruleOf = (i: number, kind: string): Why => {
    const e = facts.byRow.get(i)?.find((x) => x.claim.kind === kind)
    return { rule: e?.rule ?? kind, message: e?.message ?? '', data: e?.data }
  }

  for (let r = headerRows; r < g.rows; r++) {
    const i = r - headerRows
    const role: RowRole = roles[i] ?? 'empty'
    if (role === 'empty') continue
    if (explain) closed = []
    if (role === 'note') {
      // A note inside a unit's rows stays under the unit; the notes under the table are outside every group.
      while (stack.length > 0 && (stack[stack.length - 1]?.level ?? -Infinity) !== -Infinity) stack.pop()
      if (r > lastDataRow) stack.length = 0
      above.fill(null)
      place(r, closed)
      // A note written over several cells ("1 | Using series YBHA: …") is a path of them, as labels are.
      let parent = stack[stack.length - 1]?.node ?? root
      let col = firstFilled(g, r, 0)
      do {
        const node: HeaderNode = { text: cleanLabel(rawText(g, r, col)), cell: { row: r, col }, children: [] }
        parent.children.push(node)
        parent = node
        col = firstFilled(g, r, col + 1)
      } while (col < g.cols && rawText(g, r, col).length > 0)
      previousRole = role
      continue
    }
    if (role === 'unit') {
      stack.length = 0
      place(r, closed)
      const col = firstFilled(g, r, input.roleRules[i] === 'rows-banners' ? 0 : headerCols)
      const node: HeaderNode = { text: cleanLabel(rawText(g, r, col)), cell: { row: r, col }, children: [] }
      root.children.push(node)
      stack.push({ node, level: -Infinity, why: { rule: input.roleRules[i] ?? 'row-unit', message: 'unit' } })
      above.fill(null)
      previousRole = role
      continue
    }
    // With several label columns, a data row that leaves the indented one blank continues the group above
    // ("| 2016 |" under "Connecticut | 2015 |") and opens none.
    const continuation = indented && carries && headerCols > 1 && role === 'data' && rawText(g, r, indentColumn).length === 0
    const level = continuation ? Infinity : indented ? rowIndent(g, r, headerCols, indentColumn, staircase) : 0
    const group = groupRows?.[i] === 1
    let effective = role === 'section' || group ? level - 0.5 : level
    // A data row with a label in a column written once per group, before the indented one ("WHEN | WEEKDAY"
    // under "WHERE"), closes what a section in that column closes.
    const groupLabel = indented && role === 'data' && !continuation ? firstGroupLabel(g, r, groupColumns) : -1
    if (groupLabel >= 0) effective = Math.min(effective, g.indent(r, groupLabel) - 0.5 - columnStep(headerCols, groupLabel))
    // A section whose rows are indented under it is closed by the next row at its own indentation: it closes
    // what a section closes, and opens at the level of a row.
    const opensAtRowLevel =
      indented && role === 'section' && nextIndent(g, r, headerCols, indentColumn, roles, headerRows, staircase) > level
    if (role === 'section' && !indented) {
      // Without indentation, a run of section rows nests: each is the parent of the next, and the last one's
      // depth is that of a lone section. A later lone section closes only the innermost open one.
      effective = -0.5 * (1 + (sectionDepth[i] ?? 0) + (outerSections?.[i] === 1 ? 1 : 0))
    } else if (role === 'section' && previousRole === 'section') {
      const last = stack[stack.length - 1]
      if (last !== undefined && last.level >= effective) effective = last.level + 0.25
    }
    // With several header columns, a section written further left is further out ("WHERE" in the outer column
    // closes "WHO" there; "SENIOR" in the inner column closes only "ADULT").
    const sectionStep = role === 'section' ? columnStep(headerCols, firstLabelColumn(g, r, headerCols)) : 0
    effective -= sectionStep
    before = stack.length
    const ending = stack[stack.length - 1]
    while (stack.length > 0 && (stack[stack.length - 1]?.until ?? r) < r) stack.pop()
    if (closedSome()) closed.push({ rule: ending?.why.rule ?? 'nesting-block', message: 'block-ended' })
    before = stack.length
    while (stack.length > 0 && (stack[stack.length - 1]?.level ?? -Infinity) >= effective) stack.pop()
    if (closedSome())
      closed.push({ rule: indented ? indentRule : role === 'section' ? 'row-label-only' : 'nesting-level', message: 'level' })
    // A data row of one label column without indentation, nested by its wording and the sums.
    const worded = !indented && headerCols === 1 && hierarchy && role === 'data'
    // A second whole ("territories overall" after "provinces overall"'s rows) is a sibling of the first.
    const wholeLabel = worded && wholes?.[i] === 1
    // Nor is a country ("canada" after "territories overall"'s rows) one of the rows of a whole.
    before = stack.length
    if (worded && stack[stack.length - 1]?.whole === true && countries?.[i] === 1) stack.pop()
    if (closedSome()) closed.push(ruleOf(i, 'country'))
    const followsWhole = wholeLabel && stack[stack.length - 1]?.whole === true
    if (followsWhole) stack.pop()
    // "non-dangerous goods" after the parts of the section "dangerous goods" is that section's sibling; so is
    // "changes in employment rate" after those of "changes in employment shares".
    before = stack.length
    // The label is read only where a sibling can close a group (nothing else in the sweep reads it).
    if (siblingCloses) closeAtSibling(stack, labelText(g, r, headerCols))
    if (closedSome()) closed.push({ rule: 'nesting-sibling-closes', message: 'sibling' })
    // "male" after the parts of one "age group" and before the next is not an age group.
    before = stack.length
    if (beforeRecurrence?.[i] === 1) closeInnermostSection(stack)
    if (closedSome()) closed.push(ruleOf(i, 'before-recurrence'))
    const membersFrom = role === 'data' ? (members[i] ?? -1) : -1
    const membersAt = membersFrom >= 0 ? (openedAt?.[membersFrom] ?? -1) : -1
    before = stack.length
    if (membersAt >= 0 && membersAt < stack.length) stack.length = membersAt
    if (closedSome()) closed.push(ruleOf(i, 'members'))
    // A total of the rows of several sections ("cma total" after the large and the small cities) closes them all.
    const over = facts.totalOfSections[i] ?? -1
    before = stack.length
    if (over >= 0) closeOpenedFrom(stack, over + headerRows)
    if (closedSome()) closed.push(ruleOf(i, 'total-of-sections'))
    // A total naming its section ("Total current assets") closes that section and what opened inside it.
    const named = facts.namedSection[i] ?? -1
    before = stack.length
    if (named >= 0) closeOpenedFrom(stack, named + headerRows)
    if (closedSome()) closed.push(ruleOf(i, 'names-section'))
    before = stack.length
    if (grandTotals?.[i] === 1) while (stack.length > 0 && (stack[stack.length - 1]?.level ?? -Infinity) !== -Infinity) stack.pop()
    if (closedSome()) closed.push(ruleOf(i, 'grand-total'))
    const contextParent = stack[stack.length - 1]?.node ?? root
    if (stack.length !== 0 || role === 'section') above.fill(null)
    place(r, closed)

    // A parent row with several header cells ("WHO | ADULT") contributes all of them to the rows under it.
    const path: HeaderNode[] = []
    for (const o of stack) {
      if (o.outer !== undefined) for (const node of o.outer) path.push(node)
      path.push(o.node)
    }
    const fromStack = path.length
    let parent = contextParent
    for (let c = 0; c < headerCols; c++) {
      const m = regionAt(g, r, c)
      let node: HeaderNode | undefined
      if (m !== null) {
        if (m.left !== c) continue
        const key = m.top * g.cols + m.left
        node = nodes.get(key)
        if (node === undefined) {
          const text = rawText(g, m.top, m.left)
          if (text.length === 0) continue
          node = { text: cleanLabel(text), cell: { row: m.top, col: m.left }, children: [] }
          nodes.set(key, node)
          parent.children.push(node)
        }
      } else {
        const text = rawText(g, r, c)
        if (text.length > 0) {
          node = { text: cleanLabel(text), cell: { row: r, col: c }, children: [] }
          parent.children.push(node)
        } else if (((carries && g.owner === null) || carried?.[c] === 1) && c < headerCols - 1 && role === 'data') {
          node = above[c] ?? undefined
        }
      }
      if (node === undefined) continue
      if (above[c] !== node) for (let d = c + 1; d < headerCols; d++) above[d] = null
      above[c] = node
      // A label merged down over the rows of the group it opens is already on the path, from the stack.
      if (!path.includes(node)) path.push(node)
      parent = node
    }

    if (role === 'section') {
      // Each header cell of the section row opens its own level, outer columns outermost.
      // Labels in columns before the indented one ("WHO" beside "ADULT") stay at a section's level.
      const why: Why = { rule: input.roleRules[i] ?? 'row-label-only', message: 'section' }
      for (const node of path.slice(fromStack)) {
        const col = node.cell?.col ?? headerCols - 1
        const base = (opensAtRowLevel && col >= indentColumn ? level : effective) + sectionStep
        if (openedAt !== null && col >= indentColumn && openedAt[i] === -1) openedAt[i] = stack.length
        stack.push({ node, level: base - columnStep(headerCols, col), why })
      }
    } else {
      if (path.length === fromStack) {
        const blank: HeaderNode = { text: '', cell: null, children: [] }
        parent.children.push(blank)
        path.push(blank)
      }
      dataRows.push(r)
      paths.push(path)
      opens(
        input,
        { r, i, role, path, fromStack, stack, group, effective, level, indented, continuation, groupLabel, membersFrom },
        previousRole,
        {
          wholeLabel,
          followsWhole,
          lastRow,
          openedAt,
          ruleOf
        }
      )
    }
    // A staircase of ever deeper rows (text pasted with growing leading spaces) stops nesting at this depth:
    // each row's path is as long as the open parents, so without a bound the paths grow with the square of
    // the rows.
    if (stack.length > MAX_OPEN_PARENTS) stack.length = MAX_OPEN_PARENTS
    previousRole = role
  }
  return { root, dataRows, paths, placements }
}

type Row = {
  r: number
  i: number
  role: RowRole
  path: HeaderNode[]
  fromStack: number
  stack: Open[]
  group: boolean
  effective: number
  level: number
  indented: boolean
  continuation: boolean
  groupLabel: number
  membersFrom: number
}

/** What a data row opens once placed: a group of its own, a block, a whole; or the section a total ends. */
function opens(
  input: SweepInput,
  row: Row,
  previousRole: RowRole | null,
  state: {
    wholeLabel: boolean
    followsWhole: boolean
    lastRow: number
    openedAt: Int32Array | null
    ruleOf: (i: number, kind: string) => Why
  }
): void {
  const { g, headerRows, headerCols, facts, blocks } = input
  const { r, i, path, fromStack, stack, group, effective, level, indented, continuation, groupLabel, membersFrom } = row
  const { groupColumns, indentColumn, staircase } = facts
  const own = path[path.length - 1]
  const blockEnd = blocks?.[i] ?? -1
  const outer = path.slice(fromStack, -1)
  if (group && own !== undefined && own.text.length > 0) {
    stack.push({ node: own, level: effective, outer, why: state.ruleOf(i, 'group-row') })
    return
  }
  if (indented) {
    // The row opens a group at its label in the indented column ("Connecticut"), not at its last label
    // ("3,584,730"); labels before it (a line number) come along.
    const at = path.findIndex((node, k) => k >= fromStack && (node.cell?.col ?? -1) >= indentColumn)
    const head = at >= 0 ? path[at] : own
    let outerNodes = path.slice(fromStack, Math.max(at, fromStack))
    if (groupLabel >= 0 && !continuation) {
      // The group label opens its own group, as a section would; the row's label opens one inside it.
      for (const node of outerNodes.filter((n) => groupColumns?.[n.cell?.col ?? -1] === 1)) {
        const col = node.cell?.col ?? 0
        stack.push({
          node,
          level: g.indent(r, col) - 0.5 - columnStep(headerCols, col),
          why: { rule: 'nesting-group-columns', message: 'columns' }
        })
      }
      outerNodes = outerNodes.filter((n) => groupColumns?.[n.cell?.col ?? -1] !== 1)
    }
    if (state.openedAt !== null) state.openedAt[i] = stack.length
    if (membersFrom >= 0) {
      // A total set further out than its first part ends the group of its parts too.
      if (level < rowIndent(g, membersFrom + headerRows, headerCols, indentColumn, staircase)) closeInnermostSection(stack)
    } else if (!continuation && head !== undefined && head.text.length > 0)
      stack.push({
        node: head,
        level,
        outer: outerNodes,
        why:
          staircase === null
            ? { rule: 'nesting-indentation-column', message: 'indented' }
            : { rule: 'nesting-staircase', message: 'deeper' }
      })
    return
  }
  if (blockEnd >= 0 && own !== undefined && own.text.length > 0) {
    const why = input.blockRules?.get(i) ?? { rule: 'block-sum-of-parts', message: 'sum' }
    stack.push({ node: own, level: AGGREGATE_LEVEL, until: blockEnd + headerRows, outer, why })
  } else if (
    state.wholeLabel &&
    (opensBody(previousRole) || state.followsWhole) &&
    r < state.lastRow &&
    own !== undefined &&
    own.text.length > 0
  )
    // A total heading the body (or a unit's rows), like "all industries", is the parent of the rows below.
    stack.push({ node: own, level: AGGREGATE_LEVEL, whole: true, outer, why: state.ruleOf(i, 'whole') })
  else if (facts.flags.get('closes-after')?.[i] === 1)
    // A total ends its section's parts; one with plain rows after it is a part like the others.
    closeInnermostSection(stack)
}

function opensBody(previous: RowRole | null): boolean {
  return previous === null || previous === 'unit'
}
