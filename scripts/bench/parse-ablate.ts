/**
 * What each structure rule does, measured: the parse figures with the rules in use, then with each rule of
 * the rule table turned off in turn (`withoutRules`; an optional rule, off by default, turned on), and the
 * change in each figure. `npm run bench -- parse
 * --ablate` runs every rule; `--ablate id,id` only those (a group: ids joined with `+`, turned off together).
 *
 * The figures are counts, not percents, so that one table more or less reads as 1: HiTab's 839 tables (top
 * tree, left tree, header counts), AIT-QA's 93 (tuples), WikiTQ's 612 CSV files (one header row) and the
 * hand-labelled sheets (header, label columns, title and notes per table; parents per body row).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { importFileSync } from '../../src/main/services/tables/import'
import { detectStructure, splitSideBySide } from '../../src/main/services/tables/structure'
import { RULE_TABLE } from '../../src/main/services/tables/structure/rules/table'
import { OPTIONAL_RULES, withoutRules, withRules } from '../../src/main/services/tables/structure/rules/types'
import { datasetsDir } from '../../src/main/services/paths'
import type { RawGrid } from '../../src/shared/table'
import { aitqaCases, evaluateAitqa, evaluateHitab, hitabCases, type HitabCase } from './parse'
import { evaluateSheetStructure, labelledGrid, readSheetLabels, type SheetStructureLabel } from './parse-sheets'

export const ABLATION_METRICS = [
  'hitab_top',
  'hitab_left',
  'hitab_counts',
  'aitqa_tuples',
  'wikitq_one_header_row',
  'sheets_header',
  'sheets_label_columns',
  'sheets_row_parents',
  'sheets_title_notes'
] as const

export type AblationFigures = Record<(typeof ABLATION_METRICS)[number], number>

/** `on`: the rules are optional (off by default) and were turned on; `change` is then with them − without. */
export type Ablation = { rules: string[]; on: boolean; figures: AblationFigures; change: Partial<AblationFigures>; seconds: number }

/** The corpora read once, so that each rule turned off costs only the structure passes. */
type Corpora = {
  hitab: HitabCase[]
  aitqa: ReturnType<typeof aitqaCases>
  wikitq: RawGrid[]
  labels: SheetStructureLabel[]
  sheet: (label: SheetStructureLabel) => RawGrid | undefined
}

function readCorpora(): Corpora {
  const wikitq: RawGrid[] = []
  const root = join(datasetsDir(), 'wikitq', 'csv')
  if (existsSync(root))
    for (const page of readdirSync(root).sort())
      for (const file of readdirSync(join(root, page)).sort()) {
        if (!file.endsWith('.csv')) continue
        const read = importFileSync(basename(file), new Uint8Array(readFileSync(join(root, page, file))))
        const first = read.ok ? read.value.flatMap(splitSideBySide)[0] : undefined
        if (first !== undefined) wikitq.push(first)
      }
  const labels = readSheetLabels()
  const grids = new Map(labels.map((l) => [l, labelledGrid(l)]))
  return { hitab: [...hitabCases()], aitqa: aitqaCases(), wikitq, labels, sheet: (l) => grids.get(l) }
}

function figures(c: Corpora): AblationFigures {
  const hitab = evaluateHitab(c.hitab)
  const sheets = evaluateSheetStructure(c.labels, c.sheet)
  return {
    hitab_top: hitab.top,
    hitab_left: hitab.left,
    hitab_counts: hitab.counts,
    aitqa_tuples: evaluateAitqa(c.aitqa).exact,
    wikitq_one_header_row: c.wikitq.filter((g) => detectStructure(g).headerRows === 1).length,
    sheets_header: sheets.headerExact,
    sheets_label_columns: sheets.labelColumnsExact,
    sheets_row_parents: sheets.rowParentsExact,
    sheets_title_notes: sheets.titleNotesExact
  }
}

/** The groups of rules to turn off: every rule of the table, or the ids given ("a,b+c": a alone, b and c together). */
export function ablationGroups(spec: string | true): string[][] {
  if (spec === true || spec === '') return Object.keys(RULE_TABLE).map((id) => [id])
  const groups = spec.split(',').map((g) => g.split('+').filter((id) => id !== ''))
  for (const id of groups.flat()) if (RULE_TABLE[id] === undefined) throw new Error(`no rule ${id} in the rule table (rules/table.ts)`)
  return groups.filter((g) => g.length > 0)
}

/** "HiTab left −3, sheets parents −12", or "none" when no figure moves. */
export function effectText(change: Partial<AblationFigures>): string {
  const names: Record<(typeof ABLATION_METRICS)[number], string> = {
    hitab_top: 'HiTab top',
    hitab_left: 'HiTab left',
    hitab_counts: 'HiTab counts',
    aitqa_tuples: 'AIT-QA',
    wikitq_one_header_row: 'WikiTQ one header row',
    sheets_header: 'sheets header',
    sheets_label_columns: 'sheets label columns',
    sheets_row_parents: 'sheets parents',
    sheets_title_notes: 'sheets title/notes'
  }
  const parts = ABLATION_METRICS.filter((m) => (change[m] ?? 0) !== 0).map((m) => {
    const d = change[m] ?? 0
    return `${names[m]} ${d > 0 ? '+' : '−'}${Math.abs(d)}`
  })
  return parts.length === 0 ? 'none' : parts.join(', ')
}

/**
 * The figures with the rules in use, then with each group of rules turned off (or, for optional rules, on),
 * and the change: without − with, or with − without for optional rules.
 */
export function ablate(spec: string | true, progress: (line: string) => void = () => {}): { baseline: AblationFigures; runs: Ablation[] } {
  const corpora = readCorpora()
  const baseline = figures(corpora)
  progress(`all rules: ${JSON.stringify(baseline)}`)
  const runs: Ablation[] = []
  for (const rules of ablationGroups(spec)) {
    const start = performance.now()
    // An optional rule is off in the baseline: its effect is what turning it on changes.
    const on = rules.every((id) => OPTIONAL_RULES.includes(id))
    const other = on ? withRules(rules, () => figures(corpora)) : withoutRules(rules, () => figures(corpora))
    const change: Partial<AblationFigures> = {}
    for (const m of ABLATION_METRICS) if (other[m] !== baseline[m]) change[m] = other[m] - baseline[m]
    const run = { rules, on, figures: other, change, seconds: Math.round(performance.now() - start) / 1000 }
    runs.push(run)
    progress(`${rules.join(' + ')}${on ? ' (optional, turned on)' : ''}: ${effectText(change)}`)
  }
  return { baseline, runs }
}
