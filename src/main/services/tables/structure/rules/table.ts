/**
 * The rule table: every rule the structure pass uses, by id, with its stage, the strength its claims carry
 * against the other claims of that stage, and what it measurably changes. A rule missing from this table is
 * not used (its stage file fails to load); taking a rule out of use is deleting its line here and its code.
 *
 * `effect` is what turning the rule off changes, measured by `npm run bench -- parse --ablate` over HiTab's
 * 839 tables, AIT-QA's 93, WikiTQ's 612 CSV files and the 33 hand-labelled sheets (figures in tables or
 * rows, minus: lost without the rule), or where it fires when it changes none of them.
 */
import type { StageId } from './types'

/**
 * `optional`: the rule reads knowledge that fits the sources of one dataset, not a convention across
 * publishers; it is off unless turned on (`withRules`, `npm run bench -- parse --with ID`).
 */
export type RuleEntry = { stage: StageId; strength: number; effect: string; optional?: true }

export const RULE_TABLE: Readonly<Record<string, RuleEntry>> = {
  'title-line': { stage: 'title', strength: 10, effect: '' },
  'title-continues': { stage: 'title', strength: 10, effect: '' },
  'title-unit-line': { stage: 'title', strength: 10, effect: '' },
  'title-table-number': { stage: 'title', strength: 10, effect: '' },
  'title-repeated': { stage: 'title', strength: 10, effect: '' },
  'title-paragraph': { stage: 'title', strength: 10, effect: '' },
  'title-not-header-corner': { stage: 'title', strength: 20, effect: '' },
  'header-ends-at-line-numbers': { stage: 'header-rows', strength: 100, effect: '' },
  'header-ends-at-unmarked-row': { stage: 'header-rows', strength: 95, effect: '' },
  'header-column-numbers': { stage: 'header-rows', strength: 80, effect: '' },
  'body-starts-at-unit-row': { stage: 'header-rows', strength: 70, effect: '' },
  'header-empty-row': { stage: 'header-rows', strength: 60, effect: '' },
  'header-stub-and-unit': { stage: 'header-rows', strength: 50, effect: '' },
  'records-texts-are-records': { stage: 'header-rows', strength: 45, effect: '' },
  'header-child-labels': { stage: 'header-rows', strength: 40, effect: '' },
  'header-names-every-column': { stage: 'header-rows', strength: 30, effect: '' },
  'body-starts-at-label-or-values': { stage: 'header-rows', strength: 20, effect: '' },
  'records-one-header-row': { stage: 'header-rows', strength: 15, effect: '' },
  'header-texts-only': { stage: 'header-rows', strength: 10, effect: '' },
  'header-series-metadata': { stage: 'header-extent', strength: 20, effect: '' },
  'header-as-written-again': { stage: 'header-extent', strength: 10, effect: '' },
  'labels-need-data': { stage: 'label-columns', strength: 100, effect: '' },
  'labels-under-corner': { stage: 'label-columns', strength: 60, effect: '' },
  'labels-not-numbers': { stage: 'label-columns', strength: 50, effect: '' },
  'labels-without-header': { stage: 'label-columns', strength: 45, effect: '' },
  'labels-over-sections': { stage: 'label-columns', strength: 40, effect: '' },
  'labels-of-a-report': { stage: 'label-columns', strength: 35, effect: '' },
  'records-first-column-is-data': { stage: 'label-columns', strength: 30, effect: '' },
  'labels-beside-measures': { stage: 'label-columns', strength: 20, effect: '' },
  'labels-group-columns': { stage: 'label-columns-extent', strength: 20, effect: '' },
  'labels-inner-text-column': { stage: 'label-columns-extent', strength: 10, effect: '' },
  'note-across-table': { stage: 'notes', strength: 10, effect: '' },
  'note-sentence': { stage: 'notes', strength: 10, effect: '' },
  'note-remark': { stage: 'notes', strength: 10, effect: '' },
  'note-footnote': { stage: 'notes', strength: 10, effect: '' },
  'rows-flat': { stage: 'row-roles', strength: 100, effect: '' },
  'row-placeholders': { stage: 'row-roles', strength: 60, effect: '' },
  'row-under-merged-value': { stage: 'row-roles', strength: 50, effect: '' },
  'row-label-only': { stage: 'row-roles', strength: 40, effect: '' },
  'row-labelled-unit': { stage: 'row-roles', strength: 30, effect: '' },
  'row-unit': { stage: 'row-roles', strength: 20, effect: '' },
  'row-data': { stage: 'row-roles', strength: 10, effect: '' },
  'rows-notes-under-table': { stage: 'row-roles-adjust', strength: 40, effect: '' },
  'rows-labels-after-data': { stage: 'row-roles-adjust', strength: 30, effect: '' },
  'rows-banners': { stage: 'row-roles-adjust', strength: 20, effect: '' },
  'rows-periods': { stage: 'row-roles-adjust', strength: 10, effect: '' },
  'block-closed-by-other': { stage: 'label-blocks', strength: 10, effect: '' },
  'block-before-complement': { stage: 'label-blocks', strength: 10, effect: '' },
  'block-repeated-list': { stage: 'label-blocks', strength: 10, effect: '' },
  'block-of-which': { stage: 'label-blocks', strength: 10, effect: '' },
  'block-range-divided': { stage: 'label-blocks', strength: 10, effect: '' },
  'block-sum-of-parts': { stage: 'sum-blocks', strength: 50, effect: '' },
  'block-alike-elsewhere': { stage: 'blocks-adjust', strength: 30, effect: '' },
  'block-totals-side-by-side': { stage: 'blocks-adjust', strength: 20, effect: '' },
  'block-country-regions': { stage: 'blocks-adjust', strength: 10, effect: '', optional: true },
  'nesting-indentation-column': { stage: 'nesting', strength: 10, effect: '' },
  'nesting-labels-written-once': { stage: 'nesting', strength: 10, effect: '' },
  'nesting-group-columns': { stage: 'nesting', strength: 10, effect: '' },
  'nesting-total-under-parts': { stage: 'nesting', strength: 10, effect: '' },
  'nesting-section-runs': { stage: 'nesting', strength: 10, effect: '' },
  'nesting-sections-over-recurring': { stage: 'nesting', strength: 10, effect: '' },
  'nesting-row-before-recurrence': { stage: 'nesting', strength: 10, effect: '' },
  'nesting-group-statistic': { stage: 'nesting', strength: 10, effect: '' },
  'nesting-grand-total': { stage: 'nesting', strength: 10, effect: '' },
  'nesting-total-ends-section': { stage: 'nesting', strength: 10, effect: '' },
  'nesting-total-of-sections': { stage: 'nesting', strength: 10, effect: '' },
  'nesting-whole-heads-rows': { stage: 'nesting', strength: 10, effect: '' },
  'nesting-country-after-whole': { stage: 'nesting', strength: 10, effect: '', optional: true },
  'nesting-sibling-closes': { stage: 'nesting', strength: 10, effect: '' }
}
