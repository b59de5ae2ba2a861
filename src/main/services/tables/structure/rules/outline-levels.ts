/**
 * Rule nesting-outline-levels: a hierarchy stated by Excel's row outline. A sheet that groups its rows (the
 * outline's + and − buttons) gives each row a level: a row sits under the nearest row above it at a lower
 * level, as under a less indented label. The summary row Excel puts below a group is, like any total under
 * its parts, at the level of the group's parent, beside it.
 */
import { outlineLevels, parentsByLevel } from '../stated'
import type { NestingClaim, NestingContext } from './nesting'
import type { Rule, Unranked } from './types'

export const outlineLevelsRule: Unranked<Rule<NestingContext, NestingClaim>> = {
  id: 'nesting-outline-levels',
  description:
    "Rows grouped in the sheet's row outline state the hierarchy: each row sits under the nearest row above it at a lower outline level.",
  messages: {
    outline: "the sheet's row outline groups the rows",
    parent: 'at outline level {mark}, deeper than that row',
    agrees: 'at outline level {mark}, deeper than that row, and the indentation agrees',
    overrules: "at outline level {mark}, deeper than that row; the indentation would put it under '{other}': the outline wins",
    top: 'at outline level {mark}, no row above it is at a lower level',
    'top-overrules':
      "at outline level {mark}, no row above it is at a lower level; the indentation would put it under '{other}': the outline wins"
  },
  applies: (ctx) => ctx.hierarchy && ctx.headerCols >= 1,
  find(ctx, report) {
    const levels = outlineLevels(ctx.g, ctx.headerRows, ctx.roles)
    if (levels === null) return
    report({
      claim: { kind: 'stated', row: -1, parents: parentsByLevel(levels), marks: levels.map(String) },
      message: 'outline'
    })
  }
}
