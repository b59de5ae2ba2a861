import type { HeaderNode } from '../../../../shared/table'
import { blankColumns, rawText, regionAt, type Grid } from './grid'
import { aggregateBlocks, closingTotals, echoBlocks, RowNumbers, rowsAddUpTo, sectionsAddingUpTo } from './aggregates'
import { countryName, labelBlocks, labelWords, negatedWords, regionParts, sameWords, variantOf } from './label-cues'
import { detectNoteRows } from './margins'
import { classifyRow, isTotalLabel, isWholeLabel, rowLabel, type RowRole } from './rows'
import { periodShape } from './number'
import { newRoot } from './top-tree'

export type LeftTree = {
  root: HeaderNode
  /** Source rows that carry data, in order, and each one's root-to-node path. */
  dataRows: number[]
  paths: HeaderNode[][]
  /** Role of every body row (index 0 = row headerRows). */
  roles: RowRole[]
  /** First row of the notes under the table (`g.rows` when there are none). */
  notesFrom: number
}

/**
 * An open parent; `until` is the last row of an aggregate's block; `outer` are the nodes of its own row before
 * it; `words` are its label's words, once the cues have read them.
 */
type Open = { node: HeaderNode; level: number; until?: number; whole?: boolean; outer?: HeaderNode[]; words?: string[] }

// Between a section (-0.5) and a data row (0): data rows stay inside an aggregate, a section closes it.
const AGGREGATE_LEVEL = -0.25
// Section rows in a row nest, each under the one before, up to this many below the first (HiTab, the sheets
// and WikiTQ have runs of three at most).
const MAX_SECTION_CHAIN = 4
// Open parents a row can be under, at most (the deepest left tree of HiTab, the sheets and WikiTQ has 10).
const MAX_OPEN_PARENTS = 32

/**
 * The left tree over body rows and header columns 0..headerCols-1.
 *
 * Within a row, the header cells give nested nodes (a merged cell is one node for every row it covers;
 * in an unmerged grid an empty cell under a filled one in an outer header column continues it). With
 * hierarchy 'auto', rows also nest: a unit row is the parent of everything below it up to the next unit
 * row, a section row (label, no data) is the parent of the rows below it up to the next section at its
 * level or a "total" row that closes it, and an indented label is the child of the nearest less indented one,
 * but a total written under its parts ("SUB-TOTAL", found by its sum) sits beside them and heads nothing.
 */
export function buildLeftTree(g: Grid, headerRows: number, headerCols: number, hierarchy: boolean): LeftTree {
  const root = newRoot()
  const dataRows: number[] = []
  const paths: HeaderNode[][] = []
  const roles: RowRole[] = []
  // Notes under the table ("Source: …", "1 Includes …") are not rows of it.
  const notesFrom = hierarchy ? detectNoteRows(g, headerRows) : g.rows
  const roleOf = (r: number, cols: number): RowRole => {
    const role = hierarchy ? classifyRow(g, r, cols) : dataOrEmpty(g, r)
    return r >= notesFrom && role !== 'empty' ? 'note' : role
  }
  if (headerCols === 0) {
    for (let r = headerRows; r < g.rows; r++) {
      const role = roleOf(r, 0)
      roles.push(role)
      if (role !== 'empty' && role !== 'note') {
        dataRows.push(r)
        paths.push([])
      }
    }
    return { root, dataRows, paths, roles, notesFrom }
  }

  const nodes = new Map<number, HeaderNode>()
  const above: (HeaderNode | null)[] = new Array<HeaderNode | null>(headerCols).fill(null)
  const stack: Open[] = []
  let previousRole: RowRole | null = null
  for (let r = headerRows; r < g.rows; r++) roles.push(roleOf(r, headerCols))
  // The last data row of the grid (-1 without any): what comes after it are notes under the table.
  const lastDataRow = headerRows + roles.lastIndexOf('data')
  trailingNotes(roles, lastDataRow - headerRows)
  // Banners head their rows as unit rows do, and take no part in runs of sections.
  const banners = hierarchy ? bannerRows(g, headerRows, roles) : null
  banners?.forEach((banner, i) => {
    if (banner === 1) roles[i] = 'unit'
  })
  // In a grid with merges elsewhere, a blank cell in such a column continues the label above it, as in a grid
  // without merges.
  const carried = g.owner === null ? null : onceWrittenColumns(g, headerRows, headerCols - 1, roles, false)
  // The shape of each data or section row's label when it names a period ("Sep-1953" → "aaa-9999"), else null.
  const periods = roles.map((role, i) =>
    role === 'data' || role === 'section' ? periodShape(rowLabel(g, headerRows + i, headerCols)) : null
  )
  periodRows(roles, periods)
  // The label column whose indentation varies, if any: where the hierarchy is read.
  const indentColumn = hierarchy ? indentationColumn(g, headerRows, headerCols, lastDataRow) : -1
  const indented = indentColumn >= 0
  // Outer columns of groups beside the indented one.
  const groupColumns = indented ? onceWrittenColumns(g, headerRows, indentColumn, roles, true) : null
  // The numbers of the body rows, read as the sums below ask for them.
  const numbers = hierarchy ? new RowNumbers(g, headerRows, headerCols, roles.length) : null
  // Totals under their parts ("SUB-TOTAL"), and where their members begin: they sit beside their members and
  // head nothing. The stack depth at which each row opened its group tells where those members sit.
  const closing =
    indented && numbers !== null ? closingTotals(numbers, roles, (i) => isWholeLabel(rowLabelText(g, headerRows + i, headerCols))) : null
  const openedAt = indented ? new Int32Array(roles.length).fill(-1) : null
  const sectionsBelow = indented ? null : sectionRuns(roles)
  const sectionLabels = indented ? null : sectionsByLabel(g, headerRows, headerCols, roles)
  const outerSections = sectionLabels === null ? null : sectionsOverRecurring(roles, sectionLabels)
  const besideRecurring = hierarchy && sectionLabels !== null ? rowsBeforeRecurrence(g, headerRows, headerCols, roles, sectionLabels) : null
  const blocks =
    numbers !== null && !indented && headerCols === 1
      ? echoBlocks(
          g,
          headerRows,
          headerCols,
          roles,
          aggregateBlocks(g, headerRows, headerCols, roles, numbers, periods, labelBlocks(g, headerRows, headerCols, roles))
        )
      : null
  if (blocks !== null) flatTotals(g, headerRows, headerCols, blocks)
  if (blocks !== null) regionParts(g, headerRows, headerCols, roles, blocks)
  const groups = hierarchy && !indented && headerCols === 1 ? groupRows(g, headerRows, headerCols, roles) : null
  let lastRow = g.rows - 1
  while (lastRow >= headerRows && roles[lastRow - headerRows] === 'empty') lastRow--
  const grandTotal = numbers !== null && !indented ? grandTotalRow(g, headerRows, headerCols, roles, numbers) : -1
  const plainAfter = hierarchy && !indented ? plainRowAfterTotals(g, headerRows, headerCols, roles) : null
  const overSections =
    numbers !== null && !indented && headerCols === 1 ? totalsOverSections(g, headerRows, headerCols, roles, numbers) : null

  for (let r = headerRows; r < g.rows; r++) {
    const role: RowRole = roles[r - headerRows] ?? 'empty'
    if (role === 'empty') continue
    if (role === 'note') {
      // A note inside a unit's rows stays under the unit; the notes under the table are outside every group.
      while (stack.length > 0 && (stack[stack.length - 1]?.level ?? -Infinity) !== -Infinity) stack.pop()
      if (r > lastDataRow) stack.length = 0
      above.fill(null)
      // A note written over several cells ("1 | Using series YBHA: …") is a path of them, as labels are.
      let parent = stack[stack.length - 1]?.node ?? root
      let col = firstFilled(g, r, 0)
      do {
        const node: HeaderNode = { text: rawText(g, r, col), cell: { row: r, col }, children: [] }
        parent.children.push(node)
        parent = node
        col = firstFilled(g, r, col + 1)
      } while (col < g.cols && rawText(g, r, col).length > 0)
      previousRole = role
      continue
    }
    if (role === 'unit') {
      stack.length = 0
      const col = firstFilled(g, r, banners?.[r - headerRows] === 1 ? 0 : headerCols)
      const node: HeaderNode = { text: rawText(g, r, col), cell: { row: r, col }, children: [] }
      root.children.push(node)
      stack.push({ node, level: -Infinity })
      above.fill(null)
      previousRole = role
      continue
    }
    // With several label columns, a data row that leaves the indented one blank continues the group above
    // ("| 2016 |" under "Connecticut | 2015 |") and opens none.
    const continuation = indented && headerCols > 1 && role === 'data' && rawText(g, r, indentColumn).length === 0
    const level = continuation ? Infinity : indented ? rowIndent(g, r, headerCols, indentColumn) : 0
    const group = groups?.[r - headerRows] === true
    let effective = role === 'section' || group ? level - 0.5 : level
    // A data row with a label in a column written once per group, before the indented one ("WHEN | WEEKDAY"
    // under "WHERE"), closes what a section in that column closes.
    const groupLabel = indented && role === 'data' && !continuation ? firstGroupLabel(g, r, groupColumns) : -1
    if (groupLabel >= 0) effective = Math.min(effective, g.indent(r, groupLabel) - 0.5 - columnStep(headerCols, groupLabel))
    // A section whose rows are indented under it is closed by the next row at its own indentation: it closes
    // what a section closes, and opens at the level of a row.
    const opensAtRowLevel = indented && role === 'section' && nextIndent(g, r, headerCols, indentColumn, roles, headerRows) > level
    if (role === 'section' && sectionsBelow !== null) {
      // Without indentation, a run of section rows nests: each is the parent of the next, and the last one's
      // depth is that of a lone section. A later lone section closes only the innermost open one.
      effective = -0.5 * (1 + (sectionsBelow[r - headerRows] ?? 0) + (outerSections?.[r - headerRows] === true ? 1 : 0))
    } else if (role === 'section' && previousRole === 'section') {
      const last = stack[stack.length - 1]
      if (last !== undefined && last.level >= effective) effective = last.level + 0.25
    }
    // With several header columns, a section written further left is further out ("WHERE" in the outer column
    // closes "WHO" there; "SENIOR" in the inner column closes only "ADULT").
    const sectionStep = role === 'section' ? columnStep(headerCols, firstLabelColumn(g, r, headerCols)) : 0
    effective -= sectionStep
    while (stack.length > 0 && (stack[stack.length - 1]?.until ?? r) < r) stack.pop()
    while (stack.length > 0 && (stack[stack.length - 1]?.level ?? -Infinity) >= effective) stack.pop()
    const label = rowLabelText(g, r, headerCols)
    // A data row of one label column without indentation, nested by its wording and the sums.
    const worded = !indented && headerCols === 1 && hierarchy && role === 'data'
    // A second whole ("territories overall" after "provinces overall"'s rows) is a sibling of the first.
    const wholeLabel = worded && isWholeLabel(label)
    // Nor is a country ("canada" after "territories overall"'s rows) one of the rows of a whole.
    if (worded && stack[stack.length - 1]?.whole === true && countryName(label) !== null) stack.pop()
    const followsWhole = wholeLabel && stack[stack.length - 1]?.whole === true
    if (followsWhole) stack.pop()
    // "non-dangerous goods" after the parts of the section "dangerous goods" is that section's sibling; so is
    // "changes in employment rate" after those of "changes in employment shares".
    if (hierarchy && !indented) closeAtSibling(stack, label)
    // "male" after the parts of one "age group" and before the next is not an age group.
    if (besideRecurring?.[r - headerRows] === 1) closeInnermostSection(stack)
    const membersFrom = role === 'data' ? (closing?.[r - headerRows] ?? -1) : -1
    const membersAt = membersFrom >= 0 ? (openedAt?.[membersFrom] ?? -1) : -1
    if (membersAt >= 0 && membersAt < stack.length) stack.length = membersAt
    // A total of the rows of several sections ("cma total" after the large and the small cities) closes them all.
    const over = overSections?.[r - headerRows] ?? -1
    if (over >= 0) closeOpenedFrom(stack, over + headerRows)
    if (r === grandTotal) while (stack.length > 0 && (stack[stack.length - 1]?.level ?? -Infinity) !== -Infinity) stack.pop()
    const contextParent = stack[stack.length - 1]?.node ?? root
    if (stack.length !== 0 || role === 'section') above.fill(null)

    // A parent row with several header cells ("WHO | ADULT") contributes all of them to the rows under it.
    const path: HeaderNode[] = stack.flatMap((o) => (o.outer === undefined ? [o.node] : [...o.outer, o.node]))
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
          node = { text, cell: { row: m.top, col: m.left }, children: [] }
          nodes.set(key, node)
          parent.children.push(node)
        }
      } else {
        const text = rawText(g, r, c)
        if (text.length > 0) {
          node = { text, cell: { row: r, col: c }, children: [] }
          parent.children.push(node)
        } else if ((g.owner === null || carried?.[c] === 1) && c < headerCols - 1 && role === 'data') {
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
      for (const node of path.slice(fromStack)) {
        const col = node.cell?.col ?? headerCols - 1
        const base = (opensAtRowLevel && col >= indentColumn ? level : effective) + sectionStep
        if (openedAt !== null && col >= indentColumn && openedAt[r - headerRows] === -1) openedAt[r - headerRows] = stack.length
        stack.push({ node, level: base - columnStep(headerCols, col) })
      }
    } else {
      if (path.length === fromStack) {
        const blank: HeaderNode = { text: '', cell: null, children: [] }
        parent.children.push(blank)
        path.push(blank)
      }
      dataRows.push(r)
      paths.push(path)
      const own = path[path.length - 1]
      const blockEnd = blocks?.[r - headerRows] ?? -1
      const outer = path.slice(fromStack, -1)
      if (group && own !== undefined && own.text.length > 0) stack.push({ node: own, level: effective, outer })
      else if (indented) {
        // The row opens a group at its label in the indented column ("Connecticut"), not at its last label
        // ("3,584,730"); labels before it (a line number) come along.
        const at = path.findIndex((node, k) => k >= fromStack && (node.cell?.col ?? -1) >= indentColumn)
        const head = at >= 0 ? path[at] : own
        let outer = path.slice(fromStack, Math.max(at, fromStack))
        if (groupLabel >= 0 && !continuation) {
          // The group label opens its own group, as a section would; the row's label opens one inside it.
          for (const node of outer.filter((n) => groupColumns?.[n.cell?.col ?? -1] === 1)) {
            const col = node.cell?.col ?? 0
            stack.push({ node, level: g.indent(r, col) - 0.5 - columnStep(headerCols, col) })
          }
          outer = outer.filter((n) => groupColumns?.[n.cell?.col ?? -1] !== 1)
        }
        if (openedAt !== null) openedAt[r - headerRows] = stack.length
        if (membersFrom >= 0) {
          // A total set further out than its first part ends the group of its parts too.
          if (level < rowIndent(g, membersFrom + headerRows, headerCols, indentColumn)) closeInnermostSection(stack)
        } else if (!continuation && head !== undefined && head.text.length > 0) stack.push({ node: head, level, outer })
      } else if (blockEnd >= 0 && own !== undefined && own.text.length > 0)
        stack.push({ node: own, level: AGGREGATE_LEVEL, until: blockEnd + headerRows, outer })
      else if (wholeLabel && (opensBody(previousRole) || followsWhole) && r < lastRow && own !== undefined && own.text.length > 0)
        // A total heading the body (or a unit's rows), like "all industries", is the parent of the rows below.
        stack.push({ node: own, level: AGGREGATE_LEVEL, whole: true, outer })
      else if (!indented && isTotalLabel(label) && previousRole !== 'section' && plainAfter?.[r - headerRows] !== 1)
        // A total ends its section's parts; one with plain rows after it ("sum of 5 skinfolds", "total
        // cholesterol" among measures) is a part like the others.
        closeInnermostSection(stack)
    }
    // A staircase of ever deeper rows (text pasted with growing leading spaces) stops nesting at this depth:
    // each row's path is as long as the open parents, so without a bound the paths grow with the square of
    // the rows.
    if (stack.length > MAX_OPEN_PARENTS) stack.length = MAX_OPEN_PARENTS
    previousRole = role
  }
  return { root, dataRows, paths, roles, notesFrom }
}

/**
 * Data rows that head a group: their filled data columns and those of the next data row do not overlap
 * ("sex | | | 10.1 | < 0.001" over "men | 91.6 | 89.1 | |"), a statistic of the group as a whole.
 */
function groupRows(g: Grid, headerRows: number, headerCols: number, roles: RowRole[]): boolean[] {
  const out = new Array<boolean>(roles.length).fill(false)
  if (headerCols < 1) return out
  for (let i = 0; i < roles.length; i++) {
    if (roles[i] !== 'data') continue
    let next = i + 1
    while (next < roles.length && roles[next] === 'empty') next++
    if (next >= roles.length || roles[next] !== 'data') continue
    let own = 0
    let below = 0
    let shared = 0
    for (let c = headerCols; c < g.cols; c++) {
      const a = rawText(g, headerRows + i, c).length > 0
      const b = rawText(g, headerRows + next, c).length > 0
      if (a) own++
      if (b) below++
      if (a && b) shared++
    }
    out[i] = shared === 0 && own > 0 && below > own
  }
  return out
}

// Sections enough that the table is a list of breakdowns ("sex", "age group", "province", ...), not one.
const BREAKDOWNS = 4
const SUMMARY = /^(?:mean|median)\b/i

/**
 * The last row of a table of several breakdowns, when it names a total ("total", "total population"): the
 * total of the whole table, outside the last breakdown. With fewer than four sections a closing total is the
 * last section's own unless the rows of an earlier section add up to it; one whose label ends other sections
 * as well is always the last section's own. Returns the body row (absolute) or -1.
 */
function grandTotalRow(g: Grid, headerRows: number, headerCols: number, roles: RowRole[], numbers: RowNumbers): number {
  let last = roles.length - 1
  while (last >= 0 && roles[last] === 'empty') last--
  if (last < 0 || roles[last] !== 'data') return -1
  const label = rowLabelText(g, headerRows + last, headerCols)
  // A closing mean or median ("mean, all assets", "median age") sums up the table, not the last section.
  if (SUMMARY.test(label)) return headerRows + last
  let sections = 0
  for (const role of roles) if (role === 'section') sections++
  if (!isTotalLabel(label)) return -1
  // A total that ends every section ("all age groups") ends the last one too.
  const key = label.toLowerCase()
  for (let i = 0; i < last; i++) if (roles[i] === 'data' && rowLabelText(g, headerRows + i, headerCols).toLowerCase() === key) return -1
  if (sections >= BREAKDOWNS) return headerRows + last
  if (sections < 2) return -1
  // With fewer breakdowns, one that is not the last and adds up to the total shows it to be the table's.
  let from = -1
  for (let i = 0; i < last; i++) {
    if (roles[i] !== 'section' && roles[i] !== 'unit') continue
    if (from >= 0 && rowsAddUpTo(numbers, roles, from, i - 1, last)) return headerRows + last
    from = roles[i] === 'section' ? i + 1 : -1
  }
  return -1
}

function opensBody(previous: RowRole | null): boolean {
  return previous === null || previous === 'unit'
}

/** For each body row, how many section rows directly follow it (empty rows skipped). */
function sectionRuns(roles: RowRole[]): number[] {
  const out = new Array<number>(roles.length).fill(0)
  let run = 0
  for (let i = roles.length - 1; i >= 0; i--) {
    const role = roles[i]
    if (role === 'empty') continue
    out[i] = run
    run = role === 'section' ? run + 1 : 0
  }
  // A longer run is a list of labels without values, not headings over headings: none of it nests (and the
  // rows under it do not carry a path as deep as the list is long).
  for (let i = 0; i < roles.length; i++) {
    if ((out[i] ?? 0) <= MAX_SECTION_CHAIN || roles[i] !== 'section') continue
    for (let left = out[i] ?? 0; i < roles.length && left >= 0; i++) {
      if (roles[i] === 'empty') continue
      out[i] = 0
      left--
    }
    i--
  }
  return out
}

/** The body rows of the section rows, by label (lower case). */
function sectionsByLabel(g: Grid, headerRows: number, headerCols: number, roles: RowRole[]): Map<string, number[]> {
  const labels = new Map<string, number[]>()
  roles.forEach((role, i) => {
    if (role !== 'section') return
    const key = rowLabelText(g, headerRows + i, headerCols).toLowerCase()
    const rows = labels.get(key)
    if (rows === undefined) labels.set(key, [i])
    else rows.push(i)
  })
  return labels
}

/**
 * Sections one level further out than the rest: where one section label recurs ("source of funds" under each
 * company type) and sections take turns with it, one other section before each occurrence, those others ("u.s.-
 * located companies", "linked parent companies", …) hold the recurring section. True per body row.
 */
function sectionsOverRecurring(roles: RowRole[], labels: Map<string, number[]>): boolean[] | null {
  const recurring = [...labels.values()].filter((rows) => rows.length >= 2)
  if (recurring.length !== 1) return null
  const inner = new Set(recurring[0])
  const out = new Array<boolean>(roles.length).fill(false)
  // Strictly in turn: one other section, then the recurring one, and again.
  let others = 0
  for (let i = 0; i < roles.length; i++) {
    if (roles[i] !== 'section') continue
    if (inner.has(i)) {
      if (others !== 1) return null
      others = 0
    } else {
      if (others !== 0) return null
      out[i] = true
      others++
    }
  }
  return others === 0 ? out : null
}

/**
 * Rows that end a recurring section's parts without being one of them: where a section label recurs ("age
 * group" under the total, under "male", under "female") and its occurrences hold the same parts, a row after
 * those parts, right before the next occurrence ("male" after "45 and older"), heads that occurrence's block
 * rather than being a part of the one before. 1 per such body row.
 */
function rowsBeforeRecurrence(
  g: Grid,
  headerRows: number,
  headerCols: number,
  roles: RowRole[],
  occurrences: Map<string, number[]>
): Uint8Array | null {
  let out: Uint8Array | null = null
  for (const at of occurrences.values()) {
    if (at.length < 2) continue
    // The data rows of each occurrence, up to the next section or unit row.
    const runs = at.map((s) => {
      const run: number[] = []
      for (let i = s + 1; i < roles.length && roles[i] !== 'section' && roles[i] !== 'unit'; i++) if (roles[i] === 'data') run.push(i)
      return run
    })
    const labelsOf = (run: number[]): Set<string> => new Set(run.map((i) => rowLabelText(g, headerRows + i, headerCols).toLowerCase()))
    let common = labelsOf(runs[0] ?? [])
    for (const run of runs.slice(1)) {
      const own = labelsOf(run)
      common = new Set([...common].filter((l) => own.has(l)))
    }
    if (common.size < 2) continue
    for (let k = 0; k + 1 < at.length; k++) {
      const run = runs[k] ?? []
      // The run must lead straight into the next occurrence.
      let next = (run[run.length - 1] ?? at[k] ?? 0) + 1
      while (next < roles.length && roles[next] === 'empty') next++
      if (next !== at[k + 1]) continue
      for (let j = run.length - 1; j >= 0; j--) {
        const i = run[j] ?? 0
        if (common.has(rowLabelText(g, headerRows + i, headerCols).toLowerCase())) break
        out ??= new Uint8Array(roles.length)
        out[i] = 1
      }
    }
  }
  return out
}

/**
 * Closes the open parent that `label` negates ("non-dangerous goods" after the parts of "dangerous goods"), or
 * the innermost one when `label` names another measure of it ("changes in employment rate" after the parts
 * of "changes in employment shares"), and everything opened inside it. Each row's label is read once and
 * compared with the open parents only when it negates something, so a deep stack costs nothing per row.
 */
function closeAtSibling(stack: Open[], label: string): void {
  const words = labelWords(label)
  const negated = negatedWords(words)
  if (negated !== null) {
    for (let i = stack.length - 1; i >= 0; i--) {
      const open = stack[i]
      if (open === undefined || open.level === -Infinity) return
      if (sameWords(negated, wordsOf(open))) {
        closeUnlessNamed(stack, i)
        return
      }
    }
    return
  }
  const top = stack[stack.length - 1]
  if (top !== undefined && top.level !== -Infinity && variantOf(words, wordsOf(top))) closeUnlessNamed(stack, stack.length - 1)
}

/**
 * Closes the open parent at `i` and everything inside it, unless it is a section named after its variable
 * ("visible minority | visible minority | non-visible minority"), which holds both values.
 */
function closeUnlessNamed(stack: Open[], i: number): void {
  const open = stack[i]
  if (open === undefined) return
  const named = open.node.children.some((c) => c.text.toLowerCase() === open.node.text.toLowerCase())
  if (!named) stack.length = i
}

function wordsOf(open: Open): string[] {
  open.words ??= labelWords(open.node.text)
  return open.words
}

// Far below the 0.25 steps between section, aggregate and data levels.
const COLUMN_STEP = 0.01

/** How much further out than the innermost header column a cell in column `col` is. */
function columnStep(headerCols: number, col: number): number {
  return headerCols > 1 ? Math.max(0, headerCols - 1 - col) * COLUMN_STEP : 0
}

/** The first header column with a label of this row (merged labels from rows above do not count). */
function firstLabelColumn(g: Grid, r: number, headerCols: number): number {
  for (let c = 0; c < headerCols; c++) if (rawText(g, r, c).length > 0) return c
  return headerCols - 1
}

/** Closes every open parent (not a unit) opened at row `from` or later. */
function closeOpenedFrom(stack: Open[], from: number): void {
  for (
    let top = stack[stack.length - 1];
    top !== undefined && top.level !== -Infinity && (top.node.cell?.row ?? -1) >= from;
    top = stack[stack.length - 1]
  )
    stack.pop()
}

function closeInnermostSection(stack: Open[]): void {
  const last = stack[stack.length - 1]
  if (last !== undefined && last.level !== -Infinity) stack.pop()
}

function dataOrEmpty(g: Grid, r: number): RowRole {
  const cells = g.cells[r] ?? []
  for (const t of cells) if (t.trim().length > 0) return 'data'
  return 'empty'
}

function firstFilled(g: Grid, r: number, from: number): number {
  for (let c = from; c < g.cols; c++) if (rawText(g, r, c).length > 0) return c
  return from
}

function rowLabelText(g: Grid, r: number, headerCols: number): string {
  for (let c = headerCols - 1; c >= 0; c--) {
    const t = rawText(g, r, c)
    if (t.length > 0) return t
  }
  return ''
}

/** The first column of row r that is a group label column and holds a label, or -1. */
function firstGroupLabel(g: Grid, r: number, groupColumns: Uint8Array | null): number {
  if (groupColumns === null) return -1
  for (let c = 0; c < groupColumns.length; c++) if (groupColumns[c] === 1 && rawText(g, r, c).length > 0) return c
  return -1
}

/** The indentation of the next row with a label after row r, or -Infinity. */
function nextIndent(g: Grid, r: number, headerCols: number, indentColumn: number, roles: RowRole[], headerRows: number): number {
  for (let k = r + 1; k < g.rows; k++) {
    const role = roles[k - headerRows]
    if (role === 'data' || role === 'section') return rowIndent(g, k, headerCols, indentColumn)
  }
  return -Infinity
}

/** The indentation of a row's label: in the indented column, or else in its first label. */
function rowIndent(g: Grid, r: number, headerCols: number, indentColumn: number): number {
  if (rawText(g, r, indentColumn).length > 0) return g.indent(r, indentColumn)
  for (let c = 0; c < headerCols; c++) if (rawText(g, r, c).length > 0) return g.indent(r, c)
  return 0
}

/**
 * A period without values ("1971 [x]") followed by rows of the same kind of period is a row of the series,
 * not a section heading them.
 */
function periodRows(roles: RowRole[], periods: readonly (string | null)[]): void {
  let next: string | null = null
  for (let i = roles.length - 1; i >= 0; i--) {
    const role = roles[i]
    if (role === 'empty') continue
    const shape = periods[i] ?? null
    if (role === 'section' && shape !== null && shape === next) roles[i] = 'data'
    next = roles[i] === 'data' ? shape : null
  }
}

/**
 * Section rows merged across the whole table when other section rows are not ("HH:MIN" over "KEY SERIES",
 * "RELATED SERIES"): banners, each heading everything down to the next, as a unit row does. Null if none.
 */
function bannerRows(g: Grid, headerRows: number, roles: RowRole[]): Uint8Array | null {
  const banner = new Uint8Array(roles.length)
  let banners = 0
  let plain = 0
  // The last column with text: a banner may stop short of blank columns at the right edge. Read only once a
  // section row merged along its row is found.
  let last = -1
  const lastColumn = (): number => {
    if (last >= 0) return last
    const blank = blankColumns(g.cells, g.merges, g.cols)
    last = g.cols - 1
    while (last > 0 && blank?.[last] === 1) last--
    return last
  }
  roles.forEach((role, i) => {
    if (role !== 'section') return
    const m = regionAt(g, headerRows + i, 0)
    if (m !== null && m.top === headerRows + i && m.left === 0 && m.bottom === m.top && m.right >= lastColumn()) {
      banner[i] = 1
      banners++
    } else plain++
  })
  return banners > 0 && plain > 0 ? banner : null
}

/**
 * Label columns 0 .. count-1 whose labels are written once per group without merging them down ("UKC1 |
 * Tees Valley | Imports" then "| | Exports", "WHO | ADULT" then "| SENIOR"): no merge runs down the body in
 * the column, and a quarter at least of the data rows (and section rows, with `sections`) leave it blank under
 * a label. A lone blank ("| Totals |" after the last game) does not make one.
 */
function onceWrittenColumns(g: Grid, headerRows: number, count: number, roles: RowRole[], sections: boolean): Uint8Array {
  const columns = new Uint8Array(Math.max(0, count))
  for (let c = 0; c < count; c++) {
    let rows = 0
    let blank = 0
    let seen = false
    let merged = false
    for (let i = 0; i < roles.length && !merged; i++) {
      const role = roles[i]
      if (role !== 'data' && !(sections && role === 'section')) continue
      const r = headerRows + i
      const m = regionAt(g, r, c)
      if (m !== null && m.bottom > m.top) merged = true
      rows++
      if (rawText(g, r, c).length > 0) seen = true
      else if (seen && m === null) blank++
    }
    if (!merged && blank > 0 && blank * 4 >= rows) columns[c] = 1
  }
  return columns
}

/**
 * Rows with a label and nothing else after the last data row head nothing: they are notes ("1 Duplicative
 * transactions are excluded.", "Abbreviations and symbols:"), leaves of the tree, not sections nesting each other.
 */
function trailingNotes(roles: RowRole[], lastData: number): void {
  if (lastData < 0) return
  for (let i = lastData + 1; i < roles.length; i++) if (roles[i] === 'section') roles[i] = 'note'
}

/**
 * The first label column whose labels are indented differently from one another, over the rows down to the
 * last data row (footnotes below, often indented with spaces, say nothing about the hierarchy); -1 if none.
 */
function indentationColumn(g: Grid, headerRows: number, headerCols: number, lastDataRow: number): number {
  for (let c = 0; c < headerCols; c++) {
    let first: number | null = null
    for (let r = headerRows; r <= lastDataRow; r++) {
      if (rawText(g, r, c).length === 0) continue
      const level = g.indent(r, c)
      if (first === null) first = level
      else if (level !== first) return c
    }
  }
  return -1
}

/**
 * For each body row, whether the rows after it, past any totals ("total non-ipv decisions | total decisions"),
 * go on with a plain data row rather than a section, a unit row or the end. One pass from the end.
 */
function plainRowAfterTotals(g: Grid, headerRows: number, headerCols: number, roles: RowRole[]): Uint8Array {
  const out = new Uint8Array(roles.length)
  let plain = 0
  for (let i = roles.length - 1; i >= 0; i--) {
    out[i] = plain
    const role = roles[i]
    if (role === 'empty') continue
    if (role !== 'data') plain = 0
    else if (!isTotalLabel(rowLabelText(g, headerRows + i, headerCols))) plain = 1
  }
  return out
}

/**
 * Totals of several sections: a data row with a total's label, right after a section's rows, to which the rows
 * of that section and of one or more sections before it add up. Per body row, the first of those sections, or
 * -1. Sections restart after a unit row.
 */
function totalsOverSections(g: Grid, headerRows: number, headerCols: number, roles: RowRole[], numbers: RowNumbers): Int32Array {
  const out = new Int32Array(roles.length).fill(-1)
  const sections: number[] = []
  for (let i = 0; i < roles.length; i++) {
    const role = roles[i]
    if (role === 'unit') sections.length = 0
    if (role === 'section') sections.push(i)
    if (role !== 'data' || sections.length < 2 || !isWholeLabel(rowLabelText(g, headerRows + i, headerCols))) continue
    let prev = i - 1
    while (prev >= 0 && roles[prev] === 'empty') prev--
    if (prev < 0 || roles[prev] !== 'data') continue
    out[i] = sectionsAddingUpTo(numbers, roles, sections, i)
  }
  return out
}

/**
 * Totals listed one after another, each over its own parts ("total criminal code", then "total violent crime"
 * over its offences, "total property crime" over its own): a total whose parts are all totals heading parts
 * of their own is not their parent. Clears such blocks in place.
 */
function flatTotals(g: Grid, headerRows: number, headerCols: number, blocks: Int32Array): void {
  const total = (i: number): boolean => isTotalLabel(rowLabelText(g, headerRows + i, headerCols))
  for (let i = 0; i < blocks.length; i++) {
    const end = blocks[i] ?? -1
    if (end <= i || !total(i)) continue
    let all = true
    for (let k = i + 1; k <= end && all; k = Math.max(k, blocks[k] ?? -1) + 1) all = (blocks[k] ?? -1) > k && total(k)
    if (all) blocks[i] = -1
  }
}
