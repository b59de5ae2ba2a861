/**
 * Stage `corner`: what the corner of the header holds, above the label columns. Usually the labels' name
 * ("Region", "Item"); in a statement the table's own name and unit ("Interim Consolidated Balance Sheets - USD
 * ($) $ in Millions", as SEC filings' workbooks write it), which is the table's title and unit, not the name of
 * a level of the row index.
 */
import { rawText, regionAt, type Grid } from '../grid'
import { UNIT_WORDS } from '../rows'
import { decide, ranked, type Evidence, type Rule, type Unranked } from './types'

export type CornerContext = { g: Grid; headerRows: number; headerCols: number }

/** The corner holds the table's caption. */
export type CornerClaim = { caption: string }

type CornerRule = Rule<CornerContext, CornerClaim>

// A name, a dash, then its currency or unit: "Balance Sheets - USD ($) $ in Millions", "Bilan - EUR (€) en millions".
const NAME_AND_UNIT = /\s[-–—]\s+(.+)$/
const CURRENCY = /[$€£¥]|\b(?:USD|EUR|GBP|JPY|CHF|CAD)\b/

/** The text of the corner above the label columns, when it sits there alone (not a band over the values). */
export function cornerText(g: Grid, headerRows: number, headerCols: number): string {
  if (headerRows < 1 || headerCols < 1) return ''
  const m = regionAt(g, 0, 0)
  if (m !== null && m.right >= headerCols) return ''
  return rawText(g, 0, 0)
}

/**
 * A caption: a name followed by its currency or unit after a dash. A long corner without one is the labels'
 * name ("explanatory variables, prior to entry into export markets"), and so is a unit alone ("(Thousands of
 * Dollars)"), which names what the values count.
 */
export function captionLike(text: string): boolean {
  const tail = NAME_AND_UNIT.exec(text)?.[1]?.trim()
  return tail !== undefined && (CURRENCY.test(tail) || UNIT_WORDS.test(tail))
}

const caption: Unranked<CornerRule> = {
  id: 'corner-caption',
  description:
    'The corner above the label columns holding a name and its currency or unit after a dash ("Interim Consolidated Balance Sheets - USD ($) $ in Millions"), is the table\'s title and unit, not the name of the row labels.',
  messages: { caption: 'the corner of the header names the table and its unit, not the row labels' },
  applies: (ctx) => ctx.headerRows >= 1 && ctx.headerCols >= 1 && ctx.g.cols > ctx.headerCols,
  find(ctx, report) {
    const text = cornerText(ctx.g, ctx.headerRows, ctx.headerCols)
    if (captionLike(text)) report({ claim: { caption: text }, message: 'caption' })
  }
}

export const CORNER_RULES: readonly CornerRule[] = ranked<CornerRule>([caption])

/** The caption the corner holds, or undefined, with the evidence. */
export function resolveCorner(
  g: Grid,
  headerRows: number,
  headerCols: number,
  rules: readonly CornerRule[] = CORNER_RULES
): Evidence<CornerClaim> | undefined {
  return decide(rules, { g, headerRows, headerCols })
}
