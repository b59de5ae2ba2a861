/**
 * One small real example per structure rule: a few rows and columns cut from a table of HiTab, AIT-QA,
 * WikiTQ, the shared spreadsheets or a built statement, named by its source and cut when the test runs (no
 * dataset text is copied into the repository), with the evidence the rule gives there: where it is cited
 * in the table's explanation, on which row, and its reason. `test/fixtures/rule-examples.json` lists them;
 * `npx tsx scripts/find-rule-examples.ts` finds them again.
 */
import { existsSync, readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { aitqaToGrid, hitabToGrid, readAitqaTables, readHitabTable } from '../../src/main/services/eval/datasets/hitab-grid'
import { datasetsDir } from '../../src/main/services/paths'
import { importFileSync } from '../../src/main/services/tables/import'
import { splitSideBySide, structureGrid } from '../../src/main/services/tables/structure'
import type { CellStyle, MergedRegion, RawGrid } from '../../src/shared/table'
import type { StructureWhy } from '../../src/shared/structure-why'
import { explainStructure } from '../../src/main/services/tables/structure/explain'
import { RULE_TABLE } from '../../src/main/services/tables/structure/rules/table'
import { OPTIONAL_RULES, withoutRules, withRules, type StageId } from '../../src/main/services/tables/structure/rules/types'
import { BUILT_WORKBOOKS } from '../fixtures/sheets/built'

export type Corpus = 'hitab' | 'aitqa' | 'sheets' | 'wikitq' | 'built'

/** A table of a corpus: a HiTab or AIT-QA id, a spreadsheet's path and sheet ("dir/file.xlsx › Sheet"), a WikiTQ file. */
export type ExampleSource = { corpus: Corpus; id: string }

/** Where a table's explanation cites a rule. */
export type Citation = { rule: string; at: 'title' | 'header' | 'labels' | 'notes' | 'role' | 'place'; row: number | null; text: string }

export type RuleExample = { rule: string; source: ExampleSource; rows: number; cols: number; cites: Citation }

/** What a table's structure is, as far as a rule can change it. */
export type StructureSummary = { options: unknown; title: string; notes: string; columns: string[][]; index: string[][] }

export const SUMMARY_FIELDS = ['options', 'title', 'notes', 'columns', 'index'] as const

export function structureSummary(grid: RawGrid): StructureSummary {
  const t = structureGrid(grid)
  return { options: t.options, title: t.title ?? '', notes: t.notes ?? '', columns: t.columns, index: t.index }
}

/**
 * A rule that no explanation cites, on a real table whose structure it changes: the first field that differs
 * with the rule off (an optional rule: on) and its value with the rule as the rule table has it.
 */
export type RuleEffect = {
  rule: string
  source: ExampleSource
  rows: number
  cols: number
  field: (typeof SUMMARY_FIELDS)[number]
  with: unknown
}

export function readRuleExamples(): { examples: RuleExample[]; effects: RuleEffect[]; notFound: string[] } {
  const file = fileURLToPath(new URL('../fixtures/rule-examples.json', import.meta.url))
  return JSON.parse(readFileSync(file, 'utf8')) as { examples: RuleExample[]; effects: RuleEffect[]; notFound: string[] }
}

function opened(name: string, bytes: Uint8Array): RawGrid[] {
  const read = importFileSync(basename(name), bytes)
  return read.ok ? read.value.flatMap(splitSideBySide) : []
}

/** The grid of a source as the app opens it, or undefined when the corpus is not on this machine. */
export function openSource(source: ExampleSource): RawGrid | undefined {
  const root = datasetsDir()
  switch (source.corpus) {
    case 'hitab': {
      const dir = join(root, 'hitab', 'data', 'tables', 'raw')
      return existsSync(join(dir, `${source.id}.json`)) ? hitabToGrid(source.id, readHitabTable(source.id, dir)) : undefined
    }
    case 'aitqa': {
      if (!existsSync(join(root, 'aitqa'))) return undefined
      const t = readAitqaTables().find((x) => x.id === source.id)
      return t === undefined ? undefined : aitqaToGrid(t)
    }
    case 'wikitq': {
      const path = join(root, 'wikitq', 'csv', source.id)
      return existsSync(path) ? opened(path, new Uint8Array(readFileSync(path)))[0] : undefined
    }
    case 'sheets': {
      const [file = '', sheet = ''] = source.id.split(' › ')
      const path = join(root, 'spreadsheets', file)
      return existsSync(path) ? opened(path, new Uint8Array(readFileSync(path))).find((g) => g.name.endsWith(` › ${sheet}`)) : undefined
    }
    case 'built': {
      const [file = '', sheet = ''] = source.id.split(' › ')
      const make = BUILT_WORKBOOKS[file]
      return make === undefined ? undefined : opened(file, make()).find((g) => g.name.endsWith(` › ${sheet}`))
    }
  }
}

/** The first `rows` rows and `cols` columns of a grid, with the merges and styles inside them. */
export function cropGrid(grid: RawGrid, rows: number, cols: number): RawGrid {
  const cells = grid.cells.slice(0, rows).map((row) => row.slice(0, cols))
  const merges: MergedRegion[] = []
  for (const m of grid.merges) {
    if (m.top >= rows || m.left >= cols) continue
    const clipped = { top: m.top, left: m.left, bottom: Math.min(m.bottom, rows - 1), right: Math.min(m.right, cols - 1) }
    if (clipped.bottom > clipped.top || clipped.right > clipped.left) merges.push(clipped)
  }
  const out: RawGrid = { ...grid, cells, merges }
  if (grid.styles !== undefined) {
    const styles: Record<string, CellStyle> = {}
    for (const [key, style] of Object.entries(grid.styles)) {
      const [r = 0, c = 0] = key.split(',').map(Number)
      if (r < rows && c < cols) styles[key] = style
    }
    out.styles = styles
  }
  if (grid.values !== undefined) delete out.values
  return out
}

/** Every rule an explanation cites, where and why. */
export function citations(why: StructureWhy): Citation[] {
  const out: Citation[] = []
  for (const t of why.title) for (const r of t.reasons) out.push({ rule: r.rule, at: 'title', row: t.row, text: r.text })
  for (const h of why.headerRows) for (const r of h.reasons) out.push({ rule: r.rule, at: 'header', row: h.row, text: r.text })
  for (const r of why.labelColumns) out.push({ rule: r.rule, at: 'labels', row: null, text: r.text })
  for (const n of why.notes) for (const r of n.reasons) out.push({ rule: r.rule, at: 'notes', row: n.row, text: r.text })
  for (const p of why.rows) {
    for (const r of p.roleReasons) out.push({ rule: r.rule, at: 'role', row: p.row, text: r.text })
    for (const r of p.reasons) out.push({ rule: r.rule, at: 'place', row: p.row, text: r.text })
  }
  return out
}

/** Whether `list` holds `c`. */
export function cites(list: readonly Citation[], c: Citation): boolean {
  return list.some((x) => x.rule === c.rule && x.at === c.at && x.row === c.row && x.text === c.text)
}

/**
 * One test per rule of `stages` that has an example: the rule's evidence on its real example (where it is
 * cited, on which row, its reason), and that turning the rule off (an optional rule: leaving it off) takes
 * that evidence away. Skipped when the example's corpus is not on this machine.
 */
export function testRuleExamples(stages: readonly StageId[]): void {
  const { examples, effects } = readRuleExamples()
  const mine = examples.filter((e) => stages.includes(RULE_TABLE[e.rule]?.stage as StageId))
  it('has an example for some rule of these stages', () => {
    expect(mine.length).toBeGreaterThan(0)
  })
  for (const e of mine) {
    const grid = openSource(e.source)
    it.skipIf(grid === undefined)(`${e.rule}: ${e.cites.text} (${e.source.corpus} ${e.source.id}, first ${e.rows}×${e.cols})`, () => {
      const cut = cropGrid(grid as RawGrid, e.rows, e.cols)
      const optional = OPTIONAL_RULES.includes(e.rule)
      const explain = (): Citation[] => citations(explainStructure(cut))
      const found = optional ? withRules([e.rule], explain) : explain()
      expect(found.filter((c) => c.rule === e.rule)).toContainEqual(e.cites)
      const without = optional ? explain() : withoutRules([e.rule], explain)
      expect(cites(without, e.cites)).toBe(false)
    })
  }
  // A rule no explanation cites: what it changes on a real table, and that the table reads otherwise without it.
  for (const e of effects.filter((x) => stages.includes(RULE_TABLE[x.rule]?.stage as StageId))) {
    const grid = openSource(e.source)
    it.skipIf(grid === undefined)(
      `${e.rule}: changes the ${e.field} (${e.source.corpus} ${e.source.id}, first ${e.rows}×${e.cols})`,
      () => {
        const cut = cropGrid(grid as RawGrid, e.rows, e.cols)
        const optional = OPTIONAL_RULES.includes(e.rule)
        const read = (): StructureSummary => structureSummary(cut)
        const withRule = optional ? withRules([e.rule], read) : read()
        const without = optional ? read() : withoutRules([e.rule], read)
        expect(withRule[e.field]).toEqual(e.with)
        expect(without[e.field]).not.toEqual(e.with)
      }
    )
  }
}
