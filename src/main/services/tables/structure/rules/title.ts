/**
 * Stage `title`: the rows above the table that spreadsheets fill with a title block (the title, a unit line,
 * source and release lines, and the blank rows between them), part of neither the header nor the body.
 */
import { cellKind, isDateLike } from '../number'
import { rawText, regionAt, type Grid } from '../grid'
import { UNIT_WORDS } from '../rows'
import { alternatives } from '../knowledge/cues'
import { titleNotColumnNames } from './title-column-names'
import { rowDecider, ranked, type Evidence, type RowRule, type Unranked } from './types'

// A title block is a few lines; a table needs a header row and a data row below it.
const MAX_TITLE_ROWS = 20
const TABLE_ROWS_BELOW = 2
// An unmerged line this long over a table is a sentence (a title, a source note), not a column name.
const SENTENCE = 50
// "1", "1a", "A", "B2": a table number written in the first column beside its title.
const TABLE_NUMBER = /^[a-z]?\d{0,3}[a-z]?\.?$/i
// "Table 3", "Tableau", "Tabelle", "Cuadro", "Source" (knowledge/*.json), or a line in brackets.
const TITLE_WORDS = new RegExp(String.raw`^(?:${alternatives(['titleWords'])}|\(|\[)`, 'iu')

export type TitleContext = {
  g: Grid
  /** The grid's first and last used columns. */
  first: number
  last: number
  /** Rows looked at: a table needs rows below its title. */
  limit: number
  /** The written columns of each row read so far (the rules of a row share them). */
  written: Map<number, number[]>
}

/** Row `row` is (`title`) or is not a line of the title block; its title text sits in column `col`. */
export type TitleClaim = { row: number; title: boolean; col: number }

type TitleRule = RowRule<TitleContext, TitleClaim>

/** The written columns of a row above the limit that holds text (more than three: none of them is a line). */
export function forLine(ctx: TitleContext, r: number, each: (row: number, filled: number[]) => void): void {
  if (r >= ctx.limit) return
  let filled = ctx.written.get(r)
  if (filled === undefined) ctx.written.set(r, (filled = writtenColumns(ctx.g, r, 4)))
  if (filled.length > 0 && filled.length <= 3) each(r, filled)
}

const singleLine: Unranked<TitleRule> = {
  id: 'title-line',
  description: 'A row holding one text and nothing else in the first used column, merged across, or reading like a title.',
  messages: {
    merged: 'one line merged across the table',
    first: 'one line in the first column, nothing else on the row',
    prose: 'one line that reads like a title, a source or a unit line'
  },
  check(ctx, r, report) {
    forLine(ctx, r, (row, [a = 0, ...rest]) => {
      const kind = rest.length === 0 ? lineOfText(ctx.g, row, a, ctx.first, ctx.last) : null
      if (kind !== null) report({ claim: { row, title: true, col: a }, message: kind })
    })
  }
}

const continuation: Unranked<TitleRule> = {
  id: 'title-continues',
  description: 'The next line of the title above it, in the same column, with no blank row between.',
  messages: { continues: 'the next line of the title above' },
  check(ctx, r, report) {
    forLine(ctx, r, (row, filled) => {
      const a = filled[0] ?? 0
      const single = filled.length === 1
      const repeated = filled.every((c) => rawText(ctx.g, row, c) === rawText(ctx.g, row, a))
      if ((single || repeated) && continues(ctx.g, row, a, titleColumnAbove(ctx.g, row, ctx.first)))
        report({ claim: { row, title: true, col: a }, message: 'continues' })
    })
  }
}

const unitUnderTitle: Unranked<TitleRule> = {
  id: 'title-unit-line',
  description: 'Under a title, the unit or base of the whole table on a line of its own ("thousands", "2018=100").',
  messages: { unit: 'the unit of the whole table, under its title' },
  check(ctx, r, report) {
    forLine(ctx, r, (row, filled) => {
      const a = filled[0] ?? 0
      if (filled.length === 1 && textAbove(ctx.g, row) && unitLine(ctx.g, row, a, ctx.last))
        report({ claim: { row, title: true, col: a }, message: 'unit' })
    })
  }
}

const tableNumber: Unranked<TitleRule> = {
  id: 'title-table-number',
  description: 'A short table number in the first column beside its title ("1a | Construction output").',
  messages: { number: 'a table number beside its title' },
  check(ctx, r, report) {
    forLine(ctx, r, (row, [a, b, ...rest]) => {
      if (a === undefined || b === undefined || rest.length > 0 || a !== ctx.first) return
      if (TABLE_NUMBER.test(rawText(ctx.g, row, a)) && textCell(ctx.g, row, b))
        report({ claim: { row, title: true, col: b }, message: 'number' })
    })
  }
}

const repeatedOverParts: Unranked<TitleRule> = {
  id: 'title-repeated',
  description: 'The same title line written over each of several tables side by side.',
  messages: { repeated: 'the same line over each of the tables side by side' },
  check(ctx, r, report) {
    forLine(ctx, r, (row, filled) => {
      const a = filled[0] ?? 0
      if (filled.length < 2 || !filled.every((c) => rawText(ctx.g, row, c) === rawText(ctx.g, row, a))) return
      if (lineOfText(ctx.g, row, a, ctx.first, ctx.last) !== null) report({ claim: { row, title: true, col: a }, message: 'repeated' })
    })
  }
}

const paragraph: Unranked<TitleRule> = {
  id: 'title-paragraph',
  description: 'A paragraph of text that runs over a few cells ("http://… | and | http://…").',
  messages: { paragraph: 'a paragraph running over a few cells' },
  check(ctx, r, report) {
    forLine(ctx, r, (row, filled) => {
      const a = filled[0] ?? 0
      if (filled.length >= 2 && prose(rawText(ctx.g, row, a)) && filled.every((c) => textCell(ctx.g, row, c)))
        report({ claim: { row, title: true, col: a }, message: 'paragraph' })
    })
  }
}

const reachesIntoTable: Unranked<TitleRule> = {
  id: 'title-not-header-corner',
  description: 'A row with a cell merged down into rows that have content of their own (a header corner) is never a title line.',
  messages: { corner: 'a cell of the row is merged down into the table' },
  check(ctx, r, report) {
    forLine(ctx, r, (row, filled) => {
      if (mergedIntoTable(ctx.g, row)) report({ claim: { row, title: false, col: filled[0] ?? 0 }, message: 'corner' })
    })
  }
}

const periodsOverValues: Unranked<TitleRule> = {
  id: 'title-not-period-header',
  description:
    'A row whose cells beside its first name periods ("Dec. 31, 2024 | Dec. 31, 2023") over columns of numbers names the columns: it is a header row, not a title line.',
  messages: { periods: 'names the periods of the columns of numbers below it' },
  check(ctx, r, report) {
    forLine(ctx, r, (row, [a = 0, ...rest]) => {
      if (rest.length > 0 && rest.every((c) => isDateLike(rawText(ctx.g, row, c))) && numbersBelow(ctx.g, row, rest))
        report({ claim: { row, title: false, col: a }, message: 'periods' })
    })
  }
}

export const TITLE_RULES: readonly TitleRule[] = ranked<TitleRule>([
  periodsOverValues,
  titleNotColumnNames,
  singleLine,
  continuation,
  unitUnderTitle,
  tableNumber,
  repeatedOverParts,
  paragraph,
  reachesIntoTable
])

/**
 * The title block's length and the evidence that decided each of its lines; `end`: the evidence that the row
 * after it is no title line, when a rule says so (a header row of period ends or column names).
 */
export type TitleAnswer = { rows: number; lines: Map<number, Evidence<TitleClaim>>; end?: Evidence<TitleClaim> }

/**
 * The block is the leading rows that are each blank or a title line (some rule says so and none says it is
 * not), up to the first other row, which must leave room for a table: a list of lone lines has no title block.
 */
export function resolveTitle(g: Grid, rules: readonly TitleRule[] = TITLE_RULES): TitleAnswer {
  const lines = new Map<number, Evidence<TitleClaim>>()
  if (g.rows < TABLE_ROWS_BELOW + 1 || g.cols < 2) return { rows: 0, lines }
  const ctx: TitleContext = {
    g,
    first: firstUsedColumn(g),
    last: lastUsedColumn(g),
    limit: Math.min(MAX_TITLE_ROWS, g.rows - TABLE_ROWS_BELOW),
    written: new Map()
  }
  let r = 0
  const decide = rowDecider(rules, ctx)
  let end: Evidence<TitleClaim> | undefined
  for (; r < ctx.limit; r++) {
    if (emptyRow(g, r)) continue
    const best = decide(r)
    if (best === undefined || !best.claim.title) {
      end = best
      break
    }
    lines.set(r, best)
  }
  if (r >= ctx.limit) return { rows: 0, lines: new Map() }
  return end === undefined ? { rows: r, lines } : { rows: r, lines, end }
}

/** Columns of the row with written text, stopping after `max`. */
function writtenColumns(g: Grid, r: number, max: number): number[] {
  const filled: number[] = []
  for (let c = 0; c < g.cols && filled.length < max; c++) if (rawText(g, r, c).length > 0) filled.push(c)
  return filled
}

/**
 * The column of the title text of the row right above, when it is written (a blank row between ends the
 * lines that continue each other): the second cell after a table number, else the first.
 */
function titleColumnAbove(g: Grid, r: number, first: number): number {
  if (r === 0 || emptyRow(g, r - 1)) return -1
  const [a, b, ...rest] = writtenColumns(g, r - 1, 4)
  if (a === undefined) return -1
  if (b !== undefined && rest.length === 0 && a === first && TABLE_NUMBER.test(rawText(g, r - 1, a)) && textCell(g, r - 1, b)) return b
  return a
}

/** A row above with text: the line is under a title. */
function textAbove(g: Grid, r: number): boolean {
  for (let q = 0; q < r; q++) if (!emptyRow(g, q)) return true
  return false
}

/** Which kind of title line the cell makes, or null. */
function lineOfText(g: Grid, r: number, c: number, first: number, last: number): 'merged' | 'first' | 'prose' | null {
  if (!textCell(g, r, c)) return null
  const m = regionAt(g, r, c)
  const unmerged = m === null || m.right === m.left
  if (m !== null && m.left <= first && m.right >= last) return 'merged'
  // Merged over the first columns only, alone on its row ("Overall response rates (%)" over three of seven
  // columns): a header band over the data columns would not start in the first column.
  if (m !== null && m.left <= first && m.top === m.bottom) return 'merged'
  if (prose(rawText(g, r, c)) && (unmerged || (m !== null && (m.left <= first || m.right >= last)))) return 'prose'
  return unmerged && c === first ? 'first' : null
}

/**
 * Under a title, the unit or base of the whole table on a line of its own ("thousands", "2018=100" at the
 * right edge). Without a title above it, such a line is the top of the header ("| percent" over the data).
 */
function unitLine(g: Grid, r: number, c: number, last: number): boolean {
  const m = regionAt(g, r, c)
  return (m === null || m.right === m.left) && (c === last || UNIT_WORDS.test(rawText(g, r, c)))
}

/** The next line of the title above, in its column ("Summary of balance of payments" then "Balances"). */
function continues(g: Grid, r: number, c: number, previous: number): boolean {
  const m = regionAt(g, r, c)
  return c === previous && textCell(g, r, c) && (m === null || m.right === m.left)
}

// Rows looked at under a row of periods for the first values in its columns (section labels come between).
const VALUES_WITHIN = 6

/** The first row below `r` with something in the columns `cols` has a number in one of them. */
function numbersBelow(g: Grid, r: number, cols: readonly number[]): boolean {
  for (let q = r + 1; q < Math.min(g.rows, r + 1 + VALUES_WITHIN); q++) {
    const kinds = cols.map((c) => cellKind(rawText(g, q, c)))
    if (kinds.every((k) => k === 'empty')) continue
    return kinds.includes('number')
  }
  return false
}

/** A text, not a number. */
export function textCell(g: Grid, r: number, c: number): boolean {
  return cellKind(rawText(g, r, c)) === 'text'
}

/**
 * A cell of the row is merged down into a row that has content of its own: a header's corner or label
 * reaching into the header rows below. A title merged over a few otherwise empty rows is not that.
 */
function mergedIntoTable(g: Grid, r: number): boolean {
  if (g.owner === null) return false
  for (let c = 0; c < g.cols; c++) {
    const m = regionAt(g, r, c)
    if (m === null) continue
    if (m.top < r) return true
    for (let q = r + 1; q <= m.bottom; q++) if (!emptyRow(g, q)) return true
  }
  return false
}

/** A sentence, an address or a line that reads like a title, a source or a unit note. */
export function prose(text: string): boolean {
  return text.length >= SENTENCE || TITLE_WORDS.test(text) || /^(?:https?:\/\/|www\.)/i.test(text)
}

export function emptyRow(g: Grid, r: number): boolean {
  for (let c = 0; c < g.cols; c++) if (rawText(g, r, c).length > 0) return false
  return true
}

function firstUsedColumn(g: Grid): number {
  let first = g.cols
  for (let r = 0; r < g.rows && first > 0; r++) {
    for (let c = 0; c < first; c++) {
      if ((g.cells[r]?.[c] ?? '').trim().length > 0) {
        first = c
        break
      }
    }
  }
  return first === g.cols ? 0 : first
}

function lastUsedColumn(g: Grid): number {
  let last = -1
  for (let r = 0; r < g.rows && last < g.cols - 1; r++) {
    for (let c = g.cols - 1; c > last; c--) {
      if ((g.cells[r]?.[c] ?? '').trim().length > 0) {
        last = c
        break
      }
    }
  }
  return Math.max(last, 0)
}
