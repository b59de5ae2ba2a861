/**
 * Rule nesting-parent-codes: a hierarchy stated by codes. Location tables (UN, World Bank, national offices)
 * give each row a code and the code of its parent ("Burundi | 108 | … | 910" under "Eastern Africa | 910"): each
 * row sits under the row its parent code names, whatever its indentation says.
 */
import { rawText, type Grid } from '../grid'
import { codeColumns } from '../stated'
import type { NestingClaim, NestingContext } from './nesting'
import type { Rule, Unranked } from './types'

// Body rows from which an unindented table is read for parent codes.
const LONG_LISTING = 40

/** The text of the column's lowest header cell, or its number when it has none. */
export function headerName(g: Grid, headerRows: number, col: number): string {
  for (let r = headerRows - 1; r >= 0; r--) {
    const t = rawText(g, r, col)
    if (t.length > 0) return t
  }
  return `column ${col + 1}`
}

export const parentCodes: Unranked<Rule<NestingContext, NestingClaim>> = {
  id: 'nesting-parent-codes',
  description:
    "A column of codes and a column of parent codes (each the code of an earlier row, or empty at the top) state the hierarchy: each row sits under the row its parent code names; they win over the labels' indentation. Looked for where the labels are indented or the body has 40 rows or more.",
  messages: {
    codes: "column '{parents}' names each row's parent by its '{codes}'",
    parent: 'its parent code {mark} is the code of that row',
    agrees: 'its parent code {mark} is the code of that row, and the indentation agrees',
    overrules: "its parent code {mark} is the code of that row; the indentation would put it under '{other}': the codes win",
    top: 'no row above has its parent code {mark}',
    'top-overrules': "no row above has its parent code {mark}; the indentation would put it under '{other}': the codes win",
    unmarked: 'it has no parent code',
    'unmarked-overrules': "it has no parent code; the indentation would put it under '{other}': the codes win"
  },
  // Every table is asked, so the rule looks only where a listing by parent codes is likely: labels indented, or a
  // long listing (a short unindented table with parent codes is read by its other cues).
  applies: (ctx) => ctx.hierarchy && ctx.headerCols >= 1 && (ctx.indentColumn >= 0 || ctx.roles.length >= LONG_LISTING),
  find(ctx, report) {
    const { g, headerRows, headerCols, roles } = ctx
    const found = codeColumns(g, headerRows, headerCols, roles)
    if (found === null) return
    const marks = roles.map((_, i) => rawText(g, headerRows + i, found.parentCodes))
    report({
      claim: { kind: 'stated', row: -1, parents: found.parents, marks },
      message: 'codes',
      data: { codes: headerName(g, headerRows, found.codes), parents: headerName(g, headerRows, found.parentCodes) }
    })
  }
}
