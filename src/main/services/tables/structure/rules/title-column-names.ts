/**
 * Rule title-not-column-names: the one header row of a small statement table. A note of a filing ("Inventories
 * (Details) - USD ($) $ in Millions") names itself in its first cell and its one or few columns beside it, by
 * a category ("Total", "Operating leases", "Insgesamt") or a period in any language ("31 déc. 2024", "12 Months
 * Ended Dec. 31, 2024"), right above the labels and their values. A long first cell makes the row read like a
 * title paragraph; the names over the columns of values make it the header. Names that are all dates the
 * number reader knows ("Dec. 31, 2024") are left to title-not-period-header, which reads them the same way.
 */
import { cellKind, isDateLike, isYearLike } from '../number'
import { rawText, type Grid } from '../grid'
import { UNIT_WORDS } from '../rows'
import { forLine, prose, type TitleClaim, type TitleContext } from './title'
import type { RowRule, Unranked } from './types'

// A column name is short; a longer text beside the first cell continues a sentence.
const MAX_NAME_CHARS = 40

/** The cell names a column: a short text (a year or date included), not a unit, a remark or a bracketed note. */
function columnName(text: string): boolean {
  if (text.length === 0 || text.length > MAX_NAME_CHARS || prose(text) || UNIT_WORDS.test(text) || /^[([]/.test(text)) return false
  return cellKind(text) !== 'missing'
}

// Rows looked at below for the first values (section labels without values may come first).
const VALUES_WITHIN = 6

/**
 * The first row below `r` with something under `cols` is a body row: numbers there and a label in column
 * `first`; rows before it hold at most a label (a section: "CURRENT ASSETS").
 */
function bodyBelow(g: Grid, r: number, first: number, cols: readonly number[]): boolean {
  for (let q = r + 1; q < Math.min(g.rows, r + 1 + VALUES_WITHIN); q++) {
    const written = cols.filter((c) => rawText(g, q, c).length > 0)
    if (written.length === 0) continue
    // The label may be a year ("2025 | 412" in a schedule of maturities).
    const label = rawText(g, q, first)
    return (cellKind(label) === 'text' || isYearLike(label)) && written.every((c) => cellKind(rawText(g, q, c)) === 'number')
  }
  return false
}

export const titleNotColumnNames: Unranked<RowRule<TitleContext, TitleClaim>> = {
  id: 'title-not-column-names',
  description:
    'A row whose first cell, a sentence or a title, is followed by short names (categories, or periods in any language), each over a column whose values start on the next row beside a label ("Inventories (Details) - USD ($) $ in Millions | Total"), names the columns: it is the header row, not a title line.',
  messages: { names: 'names the columns of values that start right below it' },
  check(ctx, r, report) {
    forLine(ctx, r, (row, [a = 0, ...rest]) => {
      // The note's name is a sentence or a title (what makes the row read as a title paragraph); a short first
      // cell beside names is read as before.
      if (a !== ctx.first || rest.length === 0 || !bodyBelow(ctx.g, row, a, rest) || !prose(rawText(ctx.g, row, a))) return
      // Names that are all dates as number.ts reads them are title-not-period-header's.
      const names = rest.map((c) => rawText(ctx.g, row, c))
      if (!names.every((t) => isDateLike(t)) && names.every(columnName)) report({ claim: { row, title: false, col: a }, message: 'names' })
    })
  }
}
