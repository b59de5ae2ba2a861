/**
 * Stage `header-extent`: the header as a whole, once the rows have been read one by one. A block of series
 * metadata under the series names belongs to it; a header the body writes again is as long as what it repeats.
 */
import { isDateLike } from '../number'
import { rawText, type Grid } from '../grid'
import { repeatedHeaderRows } from '../repeated-headers'
import { decide, ranked, type Evidence, type Rule, type Unranked } from './types'
import { MAX_HEADER_ROWS, metadataRow, SAMPLE_ROWS, sameDataCells } from './header-cues'

export type HeaderExtentContext = { g: Grid; probeCols: number; /** The header rows read one by one. */ base: number }

/** The header is `rows` rows. */
export type HeaderExtentClaim = { rows: number }

type HeaderExtentRule = Rule<HeaderExtentContext, HeaderExtentClaim>

const seriesMetadata: Unranked<HeaderExtentRule> = {
  id: 'header-series-metadata',
  description:
    'With dates down the first column, the rows between the series names and the first date, each named in the first column and filled across the series, mostly with text ("Unit", "Series Type", …, "Series ID"), belong to the header.',
  messages: { metadata: 'rows {from}–{to} describe the series, above the first date' },
  applies: (ctx) => ctx.probeCols > 0,
  find(ctx, report) {
    const { g, base } = ctx
    const limit = Math.min(g.rows - 1, MAX_HEADER_ROWS)
    let d = base
    let textual = 0
    while (d < limit && !isDateLike(rawText(g, d, 0))) {
      const kind = metadataRow(g, d)
      if (kind === 'none') return
      if (kind === 'text') textual++
      d++
    }
    // A lone row of numbers above the dates is a total ("all years | 10 | 20"), not such a block.
    if (d === base || d >= limit || textual * 2 < d - base) return
    let dates = 0
    let filled = 0
    for (let r = d; r < Math.min(g.rows, d + SAMPLE_ROWS); r++) {
      const t = rawText(g, r, 0)
      if (t.length === 0) continue
      filled++
      if (isDateLike(t)) dates++
    }
    if (filled >= 3 && dates >= 0.9 * filled) report({ claim: { rows: d }, message: 'metadata', data: { from: base + 1, to: d } })
  }
}

const writtenAgain: Unranked<HeaderExtentRule> = {
  id: 'header-as-written-again',
  description:
    'When the first header rows recur together further down (over every few rows of a web table, over a second stacked table), the header is the most rows that recur.',
  messages: { again: 'the body writes the first {rows} header rows again' },
  applies: (ctx) => ctx.base >= 2,
  find(ctx, report) {
    const { g, base, probeCols } = ctx
    let best = 0
    for (const r of repeatedHeaderRows(g, base, probeCols)) {
      if (best === base) break
      let k = 0
      while (k < base && r + k < g.rows && sameDataCells(g, k, r + k, probeCols)) k++
      if (k > best) best = k
    }
    if (best > 0 && best < base) report({ claim: { rows: best }, message: 'again', data: { rows: best } })
  }
}

export const HEADER_EXTENT_RULES: readonly HeaderExtentRule[] = ranked<HeaderExtentRule>([seriesMetadata, writtenAgain])

/** The header's rows: the strongest claim about the whole header, or the rows read one by one. */
export function resolveHeaderExtent(
  g: Grid,
  probeCols: number,
  base: number,
  rules: readonly HeaderExtentRule[] = HEADER_EXTENT_RULES
): { rows: number; evidence: Evidence<HeaderExtentClaim> | undefined } {
  const best = decide(rules, { g, probeCols, base })
  return { rows: best?.claim.rows ?? base, evidence: best }
}
