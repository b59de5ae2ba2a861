/**
 * Rule nesting-numbered-labels: a hierarchy stated by numbering. Budgets, accounts and questionnaires number
 * their lines by place ("1.", "1.1", "1.1.2") or by account codes that extend their parent's ("1000 Assets |
 * 1100 Current assets | 1110 Cash"): each line sits under the line its number extends.
 */
import { numberedLabels, numberOf } from '../stated'
import type { NestingClaim, NestingContext } from './nesting'
import { labelText } from './row-roles'
import type { Rule, Unranked } from './types'

export const numberedLabelsRule: Unranked<Rule<NestingContext, NestingClaim>> = {
  id: 'nesting-numbered-labels',
  description:
    'Labels numbered by their place ("1.", "1.1", "1.1.2") or by account codes that extend their parent\'s ("1000 | 1100 | 1110") state the hierarchy: each row sits under the row its number extends; an unnumbered row stays at the top.',
  messages: {
    numbers: 'the labels are numbered by their place ({kind})',
    parent: "its number '{mark}' extends that row's",
    agrees: "its number '{mark}' extends that row's, and the indentation agrees",
    overrules: "its number '{mark}' extends that row's; the indentation would put it under '{other}': the numbers win",
    top: "its number '{mark}' extends no row's above it",
    'top-overrules': "its number '{mark}' extends no row's above it; the indentation would put it under '{other}': the numbers win",
    unmarked: 'its label is not numbered',
    'unmarked-overrules': "its label is not numbered; the indentation would put it under '{other}': the numbers win"
  },
  applies: (ctx) => ctx.hierarchy && ctx.headerCols >= 1,
  find(ctx, report) {
    const { g, headerRows, headerCols, roles } = ctx
    const found = numberedLabels(g, headerRows, headerCols, roles)
    if (found === null) return
    const marks = roles.map((_, i) => numberOf(labelText(g, headerRows + i, headerCols)))
    report({
      claim: { kind: 'stated', row: -1, parents: found.parents, marks },
      message: 'numbers',
      data: { kind: found.kind === 'dotted' ? '"1.1.2"' : 'account codes' }
    })
  }
}
