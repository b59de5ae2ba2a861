/**
 * Stage `notes`: the rows under the table that hold its notes (sources, footnotes, symbols), part of
 * neither the body nor the left tree.
 */
import { rawText, regionAt, type Grid } from '../grid'
import { decideRow, ranked, type Evidence, type RowRule, type Unranked } from './types'
import { emptyRow, prose, textCell } from './title'
import { alternatives } from '../knowledge/cues'

// Notes under a table are a few lines; a list of lone lines is not a table with notes.
const MAX_NOTE_ROWS = 40
// "1 Includes …", "a) …", "* Excludes …", "† …": a footnote's marker.
const FOOTNOTE = /^(?:\(?(?:\d{1,2}|[a-z])[.):]|\*{1,3}|[†‡§]|\d{1,2}\s+[A-Z])\s*\S/
// A remark word of any language (knowledge/*.json), or a symbol's legend ("p = provisional").
const REMARK = new RegExp(String.raw`^(?:${alternatives(['remarks'])}|[pr]\s*=)`, 'iu')

export type NotesContext = {
  g: Grid
  /** The first body row. */
  from: number
  /** The column of each row's one text, or -1, for the rows read so far (the rules of a row share it). */
  lone: Map<number, number>
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
  if (col >= 0) each(r, col, rawText(g, r, col))
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

export const NOTE_RULES: readonly NoteRule[] = ranked<NoteRule>([acrossTable, sentence, remark, footnote])

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
  for (let r = g.rows - 1; r >= from && g.rows - r <= MAX_NOTE_ROWS; r--) {
    if (emptyRow(g, r)) continue
    const best = decideRow(rules, ctx, r)
    if (best === undefined || !best.claim.note) break
    lines.set(r, best)
    start = r
  }
  if (lines.size === 0 || start <= from) return { from: g.rows, lines: new Map() }
  return { from: start, lines }
}

/** The column of the row's one written cell when it is a text and the row holds nothing else, else -1. */
function loneText(g: Grid, r: number): number {
  let filled = -1
  for (let c = 0; c < g.cols; c++) {
    if (rawText(g, r, c).length === 0) continue
    if (filled >= 0) return -1
    filled = c
  }
  return filled >= 0 && textCell(g, r, filled) ? filled : -1
}
