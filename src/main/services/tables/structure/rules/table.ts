/**
 * The rule table: every rule the structure pass uses, by id, with its stage, the strength its claims carry
 * against the other claims of that stage, and what it measurably changes. A rule missing from this table is
 * not used (its stage file fails to load); taking a rule out of use is deleting its line here and its code.
 *
 * `effect` is what turning the rule off changes, measured by `npm run bench -- parse --ablate` (2026-12-03)
 * over HiTab's 839 tables (top tree, left tree, header counts), AIT-QA's 93 (tuples), WikiTQ's 612 CSV files
 * (one header row) and the 42 hand-labelled sheets (header, label columns, title and notes per table; the
 * parents of 6,182 body rows): tables or rows, minus for those lost without the rule. For an optional rule,
 * what turning it on changes. docs/TABLES.md › The rule table lists the same figures.
 */
import type { StageId } from './types'

/**
 * `optional`: the rule reads knowledge that fits the sources of one dataset, not a convention across
 * publishers; it is off unless turned on (`withRules`, `npm run bench -- parse --with ID`).
 */
export type RuleEntry = { stage: StageId; strength: number; effect: string; optional?: true }

export const RULE_TABLE: Readonly<Record<string, RuleEntry>> = {
  'title-line': {
    stage: 'title',
    strength: 10,
    effect: 'sheets header −30, sheets label columns −9, sheets parents −1117, sheets title/notes −30'
  },
  'title-continues': { stage: 'title', strength: 10, effect: 'sheets header −2, sheets title/notes −2' },
  'title-unit-line': { stage: 'title', strength: 10, effect: 'sheets header −3, sheets title/notes −3' },
  'title-table-number': { stage: 'title', strength: 10, effect: 'sheets header −3, sheets title/notes −3' },
  'title-repeated': { stage: 'title', strength: 10, effect: 'no figure moves' },
  'title-paragraph': { stage: 'title', strength: 10, effect: 'sheets header −4, sheets title/notes −4' },
  'title-not-header-corner': {
    stage: 'title',
    strength: 20,
    effect: 'HiTab top −12, HiTab left −1, HiTab counts −11, sheets header −1, sheets title/notes −1'
  },
  'title-not-period-header': { stage: 'title', strength: 20, effect: 'sheets header −1, sheets parents −5, sheets title/notes −1' },
  'title-not-column-names': { stage: 'title', strength: 20, effect: 'sheets header −4, sheets title/notes −4' },
  'header-ends-at-line-numbers': { stage: 'header-rows', strength: 100, effect: 'sheets header −1, sheets parents −21' },
  'header-ends-at-unmarked-row': { stage: 'header-rows', strength: 95, effect: 'no figure moves' },
  'header-column-numbers': { stage: 'header-rows', strength: 80, effect: 'sheets header −1' },
  'body-starts-at-unit-row': {
    stage: 'header-rows',
    strength: 70,
    effect: 'HiTab top −151, HiTab left −138, HiTab counts −151'
  },
  'header-empty-row': { stage: 'header-rows', strength: 60, effect: 'HiTab top −1, HiTab left −1, HiTab counts −1, sheets header −1' },
  'header-stub-and-unit': { stage: 'header-rows', strength: 50, effect: 'HiTab top −1, HiTab left −1, HiTab counts −1' },
  'records-texts-are-records': { stage: 'header-rows', strength: 45, effect: 'WikiTQ one header row −4' },
  'header-child-labels': {
    stage: 'header-rows',
    strength: 40,
    effect: 'HiTab top −14, HiTab left −13, HiTab counts −14, sheets header −6, sheets label columns −3, sheets parents −189'
  },
  'header-names-every-column': {
    stage: 'header-rows',
    strength: 30,
    effect: 'WikiTQ one header row +1, sheets header −2, sheets label columns −2, sheets parents −2'
  },
  'body-starts-at-label-or-values': {
    stage: 'header-rows',
    strength: 20,
    effect: 'HiTab top −326, HiTab left −324, HiTab counts −327, AIT-QA −41, sheets header −6, sheets parents −80'
  },
  'records-one-header-row': { stage: 'header-rows', strength: 15, effect: 'WikiTQ one header row −11' },
  'header-texts-only': {
    stage: 'header-rows',
    strength: 10,
    effect: 'HiTab top −59, HiTab left −22, HiTab counts −60, AIT-QA −6, sheets header −5'
  },
  'header-series-metadata': { stage: 'header-extent', strength: 20, effect: 'sheets header −1' },
  'header-as-written-again': { stage: 'header-extent', strength: 10, effect: 'no figure moves' },
  'labels-need-data': { stage: 'label-columns', strength: 100, effect: 'no figure moves' },
  'labels-staircase': { stage: 'label-columns', strength: 65, effect: 'sheets parents −137' },
  'labels-after-index-columns': { stage: 'label-columns', strength: 62, effect: 'sheets label columns −5, sheets parents −864' },
  'labels-under-corner': {
    stage: 'label-columns',
    strength: 60,
    effect: 'HiTab top −382, HiTab left −367, HiTab counts −384, AIT-QA −2, sheets label columns −4, sheets parents −226'
  },
  'labels-not-numbers': { stage: 'label-columns', strength: 50, effect: 'HiTab top +1, HiTab left +1, HiTab counts +1' },
  'labels-without-header': { stage: 'label-columns', strength: 45, effect: 'no figure moves' },
  'labels-over-sections': { stage: 'label-columns', strength: 40, effect: 'HiTab top −6, HiTab left −6, HiTab counts −6' },
  'labels-of-a-report': {
    stage: 'label-columns',
    strength: 35,
    effect: 'HiTab top −3, HiTab left −3, HiTab counts −3, sheets label columns −1, sheets parents −187'
  },
  'records-first-column-is-data': { stage: 'label-columns', strength: 30, effect: 'no figure moves' },
  'labels-beside-measures': {
    stage: 'label-columns',
    strength: 20,
    effect: 'HiTab top −22, HiTab left −15, HiTab counts −22, AIT-QA +3, sheets label columns −12, sheets parents −2180'
  },
  'labels-group-columns': {
    stage: 'label-columns-extent',
    strength: 20,
    effect: 'HiTab top −1, HiTab left −1, HiTab counts −1, sheets label columns −1, sheets parents −449'
  },
  'labels-inner-text-column': { stage: 'label-columns-extent', strength: 10, effect: 'sheets label columns −2, sheets parents −235' },
  'labels-code-columns': { stage: 'label-columns-extent', strength: 5, effect: 'sheets label columns −1' },
  'corner-caption': {
    stage: 'corner',
    strength: 10,
    effect: 'no figure moves (the title and index names of statements, which no figure reads)'
  },
  'note-across-table': { stage: 'notes', strength: 10, effect: 'no figure moves' },
  'note-sentence': { stage: 'notes', strength: 10, effect: 'no figure moves' },
  'note-remark': { stage: 'notes', strength: 10, effect: 'no figure moves' },
  'note-footnote': { stage: 'notes', strength: 10, effect: 'no figure moves' },
  'note-after-values': { stage: 'notes', strength: 5, effect: 'sheets title/notes −12' },
  'rows-flat': { stage: 'row-roles', strength: 100, effect: 'no figure moves' },
  'row-placeholders': { stage: 'row-roles', strength: 60, effect: 'HiTab left −1' },
  'row-under-merged-value': { stage: 'row-roles', strength: 50, effect: 'HiTab left −1' },
  'row-label-only': { stage: 'row-roles', strength: 40, effect: 'HiTab left −200, sheets parents −910' },
  'row-labelled-unit': { stage: 'row-roles', strength: 30, effect: 'HiTab left −1' },
  'row-unit': { stage: 'row-roles', strength: 20, effect: 'HiTab left −140' },
  'row-data': { stage: 'row-roles', strength: 10, effect: 'HiTab left −751, AIT-QA −76, sheets parents −5908' },
  'rows-notes-under-table': { stage: 'row-roles-adjust', strength: 40, effect: 'no figure moves' },
  'rows-labels-after-data': { stage: 'row-roles-adjust', strength: 30, effect: 'no figure moves' },
  'rows-banners': { stage: 'row-roles-adjust', strength: 20, effect: 'HiTab left −1, sheets parents −4' },
  'rows-periods': { stage: 'row-roles-adjust', strength: 10, effect: 'no figure moves' },
  'block-closed-by-other': { stage: 'label-blocks', strength: 10, effect: 'HiTab left −1' },
  'block-before-complement': { stage: 'label-blocks', strength: 10, effect: 'HiTab left −4' },
  'block-repeated-list': { stage: 'label-blocks', strength: 10, effect: 'HiTab left −3' },
  'block-of-which': { stage: 'label-blocks', strength: 10, effect: 'HiTab left −1' },
  'block-range-divided': { stage: 'label-blocks', strength: 10, effect: 'HiTab left −2' },
  'block-sum-of-parts': { stage: 'sum-blocks', strength: 50, effect: 'HiTab left −29' },
  'block-result-line': { stage: 'blocks-adjust', strength: 40, effect: 'sheets parents −7' },
  'block-alike-elsewhere': { stage: 'blocks-adjust', strength: 30, effect: 'HiTab left −1' },
  'block-totals-side-by-side': { stage: 'blocks-adjust', strength: 20, effect: 'HiTab left −2' },
  'block-country-regions': { stage: 'blocks-adjust', strength: 10, effect: 'HiTab left −2' },
  'nesting-parent-codes': { stage: 'nesting', strength: 30, effect: 'sheets parents −14' },
  'nesting-numbered-labels': { stage: 'nesting', strength: 25, effect: 'sheets parents −7' },
  'nesting-outline-levels': { stage: 'nesting', strength: 20, effect: 'sheets parents −14' },
  'nesting-indentation-column': { stage: 'nesting', strength: 10, effect: 'sheets parents −1815' },
  'nesting-staircase': { stage: 'nesting', strength: 20, effect: 'sheets parents −137' },
  'nesting-labels-written-once': { stage: 'nesting', strength: 10, effect: 'sheets parents −251' },
  'nesting-group-columns': { stage: 'nesting', strength: 10, effect: 'sheets parents −3' },
  'nesting-total-under-parts': { stage: 'nesting', strength: 10, effect: 'sheets parents −8' },
  'nesting-section-runs': { stage: 'nesting', strength: 10, effect: 'HiTab left −2' },
  'nesting-sections-over-recurring': { stage: 'nesting', strength: 10, effect: 'HiTab left −1' },
  'nesting-row-before-recurrence': { stage: 'nesting', strength: 10, effect: 'HiTab left −1' },
  'nesting-group-statistic': { stage: 'nesting', strength: 10, effect: 'HiTab left −1' },
  'nesting-grand-total': { stage: 'nesting', strength: 10, effect: 'HiTab left −13' },
  'nesting-total-ends-section': { stage: 'nesting', strength: 10, effect: 'HiTab left −2' },
  'nesting-total-of-sections': { stage: 'nesting', strength: 10, effect: 'HiTab left −1' },
  'nesting-total-names-section': { stage: 'nesting', strength: 10, effect: 'sheets parents −13' },
  'nesting-whole-heads-rows': { stage: 'nesting', strength: 10, effect: 'HiTab left −9' },
  'nesting-country-after-whole': { stage: 'nesting', strength: 10, effect: 'HiTab left −1' },
  'nesting-sibling-closes': { stage: 'nesting', strength: 10, effect: 'HiTab left −2' }
}
