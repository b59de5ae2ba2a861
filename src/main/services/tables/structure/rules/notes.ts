/**
 * Stage `notes`: the rows under the table that hold its notes (sources, footnotes, symbols), part of
 * neither the body nor the left tree.
 */
import { rawText, regionAt, type Grid } from '../grid'
import { cellKind, parseNumber } from '../number'
import { rowDecider, ranked, type Evidence, type RowRule, type Unranked } from './types'
import { emptyRow, prose, textCell } from './title'
import { alternatives } from '../knowledge/cues'

// Notes under a table are a few lines; a list of lone lines is not a table with notes.
const MAX_NOTE_ROWS = 40
// "1 Includes …", "a) …", "* Excludes …", "† …": a footnote's marker.
const FOOTNOTE = /^(?:\(?(?:\d{1,2}|[a-z])[.):]|\*{1,3}|[†‡§]|\d{1,2}\s+[A-Z])\s*\S/
// A remark word of any language (knowledge/*.json), or a symbol's legend ("p = provisional").
const REMARK = new RegExp(String.raw`^(?:${alternatives(['remarks'])}|[pr]\s*=)`, 'iu')
// A footnote's marker in a cell of its own, its text in the next ("[1] | Includes sales to …", "2 | This series …").
const MARKER_CELL = /^(?:\[\d{1,2}\]|\(?\d{1,2}[.)]?|\(?[a-z]\)|[*†‡§]{1,3})$/i

export type NotesContext = {
  g: Grid
  /** The first body row. */
  from: number
  /** The column of each row's one text, or -1, for the rows read so far (the rules of a row share it). */
  lone: Map<number, number>
  /** The last body row holding a number outside the lines of text under the table (-1: none), once read. */
  lastValues?: number
}

/** Row `row` is (`note`) or is not a line of the notes under the table. */
export type NoteClaim = { row: number; note: boolean }

type NoteRule = RowRule<NotesContext, NoteClaim>

/** A row among the last that may be notes, with the column of its one text (rows holding more are skipped). */
function forLine(ctx: NotesContext, r: number, each: (row: number, col: number, text: string) => void): void {
  const { g } = ctx
  if (r < ctx.from || g.rows - r > MAX_NOTE_ROWS) return
  let col = ctx.lone.get(r)
  if (col === undefined) ctx.lone.set(r, (col = loneText(g, r)))
  // A marker in a cell of its own before the text makes a footnote only in a sheet, under a table of values
  // (a sheet of notes, "Note number | Note text", is a table of its own), and when it does not go on with
  // the numbers of the table's rows ("12 | 11 July 2013" after row 11): footnotes number from 1 again.
  if (col < 0) return
  const first = firstWritten(g, r)
  if (col === first || (!g.records && valuesAbove(ctx, r) && !numberedFromTable(ctx, r, first))) each(r, col, rawText(g, r, col))
}

const afterValues: Unranked<NoteRule> = {
  id: 'note-after-values',
  description:
    'In a sheet (not a file of records), a line of one text set off from the last row of values by a blank row or other such lines, with only such lines below it, heads no rows: a note (a copyright, a release date, a symbol legend, the next line of a paragraph). A lone line right under the values may be the last row of the table.',
  messages: { after: 'one line of text under the last row of values' },
  applies: (ctx) => !ctx.g.records,
  check(ctx, r, report) {
    forLine(ctx, r, (row) => {
      if (valuesAbove(ctx, row) && row > (ctx.lastValues ?? row) + 1) report({ claim: { row, note: true }, message: 'after' })
    })
  }
}

const acrossTable: Unranked<NoteRule> = {
  id: 'note-across-table',
  description: "A line written across the whole table, three columns or more, under it (a web table's footer).",
  messages: { across: 'one line merged across the whole table, under it' },
  check(ctx, r, report) {
    const { g } = ctx
    forLine(ctx, r, (row, col) => {
      const m = regionAt(g, row, col)
      if (m !== null && m.top === row && m.bottom === row && m.left === 0 && m.right === g.cols - 1 && g.cols >= 3)
        report({ claim: { row, note: true }, message: 'across' })
    })
  }
}

const sentence: Unranked<NoteRule> = {
  id: 'note-sentence',
  description: 'A line under the table that reads like a sentence, an address, or a title or source line.',
  messages: { sentence: 'one line under the table that reads like a sentence or a source' },
  check(ctx, r, report) {
    forLine(ctx, r, (row, _col, text) => {
      if (prose(text)) report({ claim: { row, note: true }, message: 'sentence' })
    })
  }
}

const remark: Unranked<NoteRule> = {
  id: 'note-remark',
  description: 'A line under the table that opens with a remark word ("Source:", "Notes", "Symbols", "p = provisional").',
  messages: { remark: 'one line under the table opening with a remark word' },
  check(ctx, r, report) {
    forLine(ctx, r, (row, _col, text) => {
      if (REMARK.test(text)) report({ claim: { row, note: true }, message: 'remark' })
    })
  }
}

const footnote: Unranked<NoteRule> = {
  id: 'note-footnote',
  description: 'A line under the table that opens with a footnote marker ("1 Includes …", "(a) …", "* …", "† …").',
  messages: { footnote: 'a footnote under the table' },
  check(ctx, r, report) {
    forLine(ctx, r, (row, _col, text) => {
      if (FOOTNOTE.test(text)) report({ claim: { row, note: true }, message: 'footnote' })
    })
  }
}

export const NOTE_RULES: readonly NoteRule[] = ranked<NoteRule>([acrossTable, sentence, remark, footnote, afterValues])

/** The first row of the notes (`g.rows` without any) and the evidence for each note line. */
export type NotesAnswer = { from: number; lines: Map<number, Evidence<NoteClaim>> }

/**
 * The notes are the last rows of the grid, from the body row `from` on, that are each blank or a note line,
 * at least one, with a row of the table above them. Blank rows between the body and the notes stay with the
 * body (they are dropped there anyway).
 */
export function resolveNotes(g: Grid, from: number, rules: readonly NoteRule[] = NOTE_RULES): NotesAnswer {
  const ctx: NotesContext = { g, from, lone: new Map() }
  const lines = new Map<number, Evidence<NoteClaim>>()
  let start = g.rows
  const decide = rowDecider(rules, ctx)
  for (let r = g.rows - 1; r >= from && g.rows - r <= MAX_NOTE_ROWS; r--) {
    if (emptyRow(g, r)) continue
    const best = decide(r)
    if (best === undefined || !best.claim.note) break
    lines.set(r, best)
    start = r
  }
  if (lines.size === 0 || start <= from) return { from: g.rows, lines: new Map() }
  return { from: start, lines }
}

/**
 * The column of the row's one written cell when it is a text and the row holds nothing else, or of the text
 * after a footnote marker in a cell of its own ("[1] | Includes …"); else -1.
 */
function loneText(g: Grid, r: number): number {
  let filled = -1
  let marker = false
  for (let c = 0; c < g.cols; c++) {
    if (rawText(g, r, c).length === 0) continue
    if (filled >= 0 && (marker || !MARKER_CELL.test(rawText(g, r, filled)))) return -1
    if (filled >= 0) marker = true
    filled = c
  }
  return filled >= 0 && textCell(g, r, filled) ? filled : -1
}

/**
 * The number in row `r`, column `c`, goes on with numbers written above it in the column (n − 1, n − 2, …,
 * each the next written cell up) back into the rows of values: it numbers a row of the table.
 */
function numberedFromTable(ctx: NotesContext, r: number, c: number): boolean {
  const { g } = ctx
  let expected = (parseNumber(rawText(g, r, c)) ?? NaN) - 1
  for (let q = r - 1; q >= 0 && expected >= 0; q--) {
    const above = rawText(g, q, c)
    if (above.length === 0) continue
    if (parseNumber(above) !== expected) return false
    if (q <= (ctx.lastValues ?? -1)) return true
    expected--
  }
  return false
}

function firstWritten(g: Grid, r: number): number {
  for (let c = 0; c < g.cols; c++) if (rawText(g, r, c).length > 0) return c
  return -1
}

/** Row `r` lies under the last body row that holds a number, past the lines of text under the table. */
function valuesAbove(ctx: NotesContext, r: number): boolean {
  if (ctx.lastValues === undefined) {
    const { g } = ctx
    let last = -1
    for (let q = g.rows - 1; q >= ctx.from && last < 0; q--) {
      if (loneText(g, q) >= 0) continue
      for (let c = 0; c < g.cols && last < 0; c++) if (cellKind(rawText(g, q, c)) === 'number') last = q
    }
    ctx.lastValues = last
  }
  return ctx.lastValues >= 0 && r > ctx.lastValues
}
