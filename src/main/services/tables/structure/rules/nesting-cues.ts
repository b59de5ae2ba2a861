/**
 * What the nesting rules read in the body: runs of sections, recurring sections, group rows, totals and their
 * parts. Shared by the rules of stage `nesting` (rules/nesting.ts); none of them decides anything on its own.
 */
import { rawText, regionAt, type Grid } from '../grid'
import type { RowNumbers } from '../row-numbers'
import { rowsAddUpTo, sectionsAddingUpTo } from '../totals'
import { isTotalLabel, isWholeLabel, type RowRole } from '../rows'
import { labelText as rowLabelText } from './row-roles'
import { contains, labelWords } from '../label-cues'
import { opening } from '../knowledge/cues'

// Sections enough that the table is a list of breakdowns ("sex", "age group", "province", ...), not one.
const BREAKDOWNS = 4
const SUMMARY = opening(['summary'])
// Section rows in a row nest, each under the one before, up to this many below the first (HiTab, the sheets
// and WikiTQ have runs of three at most).
const MAX_SECTION_CHAIN = 4

/**
 * Data rows that head a group: their filled data columns and those of the next data row do not overlap
 * ("sex | | | 10.1 | < 0.001" over "men | 91.6 | 89.1 | |"), a statistic of the group as a whole.
 */
export function groupRows(g: Grid, headerRows: number, headerCols: number, roles: RowRole[]): boolean[] {
  const out = new Array<boolean>(roles.length).fill(false)
  if (headerCols < 1) return out
  for (let i = 0; i < roles.length; i++) {
    if (roles[i] !== 'data') continue
    let next = i + 1
    while (next < roles.length && roles[next] === 'empty') next++
    if (next >= roles.length || roles[next] !== 'data') continue
    let own = 0
    let below = 0
    let shared = false
    for (let c = headerCols; c < g.cols && !shared; c++) {
      const a = rawText(g, headerRows + i, c).length > 0
      const b = rawText(g, headerRows + next, c).length > 0
      if (a) own++
      if (b) below++
      // One column written in both rows settles it: the row is not a group's own line.
      shared = a && b
    }
    out[i] = !shared && own > 0 && below > own
  }
  return out
}

/**
 * The last row of a table of several breakdowns, when it names a total ("total", "total population"): the
 * total of the whole table, outside the last breakdown. With fewer than four sections a closing total is the
 * last section's own unless the rows of an earlier section add up to it; one whose label ends other sections
 * as well is always the last section's own. Returns the body row (absolute) or -1.
 */
export function grandTotalRow(g: Grid, headerRows: number, headerCols: number, roles: RowRole[], numbers: RowNumbers): number {
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

export function opensBody(previous: RowRole | null): boolean {
  return previous === null || previous === 'unit'
}

/**
 * For each body row, how many section rows directly follow it (empty rows skipped). A run breaks before a
 * section in capitals that follows one in ordinary case (`capitals`, per body row): capitals mark the outer
 * headings ("STOCKHOLDERS' EQUITY" after "Commitments and contingencies" is not under it).
 */
export function sectionRuns(roles: RowRole[], capitals?: (i: number) => boolean): number[] {
  const out = new Array<number>(roles.length).fill(0)
  let run = 0
  let next = -1
  for (let i = roles.length - 1; i >= 0; i--) {
    const role = roles[i]
    if (role === 'empty') continue
    if (role === 'section' && next >= 0 && capitals !== undefined && capitals(next) && !capitals(i)) run = 0
    out[i] = run
    run = role === 'section' ? run + 1 : 0
    next = role === 'section' ? i : -1
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
export function sectionsByLabel(g: Grid, headerRows: number, headerCols: number, roles: RowRole[]): Map<string, number[]> {
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
export function sectionsOverRecurring(roles: RowRole[], labels: Map<string, number[]>): boolean[] | null {
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
export function rowsBeforeRecurrence(
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
 * Label columns 0 .. count-1 whose labels are written once per group without merging them down ("UKC1 |
 * Tees Valley | Imports" then "| | Exports", "WHO | ADULT" then "| SENIOR"): no merge runs down the body in
 * the column, and a quarter at least of the data rows (and section rows, with `sections`) leave it blank under
 * a label. A lone blank ("| Totals |" after the last game) does not make one.
 */
export function onceWrittenColumns(g: Grid, headerRows: number, count: number, roles: RowRole[], sections: boolean): Uint8Array {
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
 * The first label column whose labels are indented differently from one another, over the rows down to the
 * last data row (footnotes below, often indented with spaces, say nothing about the hierarchy); -1 if none.
 */
export function indentationColumn(g: Grid, headerRows: number, headerCols: number, lastDataRow: number): number {
  // Without merges or indenting styles, a label that starts with a printable character other than a space is
  // written and at level 0: the common label is not trimmed, looked up or measured (the same answers).
  const plain = g.owner === null && !g.stylesIndent
  for (let c = 0; c < headerCols; c++) {
    let first: number | null = null
    for (let r = headerRows; r <= lastDataRow; r++) {
      if (plain) {
        const lead = (g.cells[r]?.[c] ?? '').charCodeAt(0)
        if (lead > 32 && lead < 127) {
          if (first === null) first = 0
          else if (first !== 0) return c
          continue
        }
      }
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
export function plainRowAfterTotals(g: Grid, headerRows: number, headerCols: number, roles: RowRole[]): Uint8Array {
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
export function totalsOverSections(g: Grid, headerRows: number, headerCols: number, roles: RowRole[], numbers: RowNumbers): Int32Array {
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
 * Totals that name their section ("Total current assets" after the lines of "CURRENT ASSETS", "Current
 * assets, total") and are followed by plain rows, which go on at the section's level ("Property and
 * equipment, net"): per body row, the section row it names, the nearest one above (back to a unit row) whose
 * words its label holds; -1 for other rows. A total that the next section or the end follows is left to
 * rule nesting-total-ends-section.
 */
export function totalsNamingSections(g: Grid, headerRows: number, headerCols: number, roles: RowRole[]): Int32Array {
  const out = new Int32Array(roles.length).fill(-1)
  const plainAfter = plainRowAfterTotals(g, headerRows, headerCols, roles)
  const sections: { row: number; words: string[] }[] = []
  for (let i = 0; i < roles.length; i++) {
    const role = roles[i]
    if (role === 'unit') sections.length = 0
    if (role === 'section') {
      const words = labelWords(rowLabelText(g, headerRows + i, headerCols))
      if (words.length > 0) sections.push({ row: i, words })
    }
    if (role !== 'data' || sections.length === 0 || plainAfter[i] !== 1) continue
    const label = rowLabelText(g, headerRows + i, headerCols)
    if (!isWholeLabel(label)) continue
    const words = labelWords(label)
    for (let k = sections.length - 1; k >= 0; k--) {
      const section = sections[k]
      if (section === undefined || section.words.length >= words.length || !contains(words, section.words)) continue
      out[i] = section.row
      // A section its total has closed is named by no later total.
      sections.length = k
      break
    }
  }
  return out
}

/** A label written in capitals: letters, none of them lower case. */
export function inCapitals(label: string): boolean {
  return /\p{Lu}/u.test(label) && !/\p{Ll}/u.test(label)
}
