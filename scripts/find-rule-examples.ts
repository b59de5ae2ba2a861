/**
 * Finds one small real example per rule of the structure rule table and writes test/fixtures/rule-examples.json
 * (see test/support/rule-examples.ts): over HiTab, AIT-QA, the spreadsheets, the built statements and
 * WikiTQ's CSV files, the tables whose explanation cites the rule, the smallest first; each cut to its first
 * rows and columns, as few as keep the citation, and kept only when turning the rule off takes the citation
 * away. `npx tsx scripts/find-rule-examples.ts`.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, join, relative } from 'node:path'
import { hitabTableIds, readAitqaTables, spreadsheetPaths } from '../src/main/services/eval/datasets/hitab-grid'
import { datasetsDir } from '../src/main/services/paths'
import { explainStructure } from '../src/main/services/tables/structure/explain'
import { RULE_TABLE } from '../src/main/services/tables/structure/rules/table'
import { OPTIONAL_RULES, withoutRules, withRules } from '../src/main/services/tables/structure/rules/types'
import type { RawGrid } from '../src/shared/table'
import { importFileSync } from '../src/main/services/tables/import'
import { splitSideBySide } from '../src/main/services/tables/structure'
import {
  citations,
  cites,
  cropGrid,
  openSource,
  structureSummary,
  SUMMARY_FIELDS,
  type Citation,
  type ExampleSource,
  type RuleEffect,
  type RuleExample,
  type StructureSummary
} from '../test/support/rule-examples'
import { BUILT_WORKBOOKS } from '../test/fixtures/sheets/built'

const MAX_ROWS = 80
const MAX_COLS = 10
// Tables tried per rule, the smallest first.
const CANDIDATES = 25
// Tables looked at for a rule's effect, by cells.
const MAX_EFFECT_CELLS = 4000

function sources(): ExampleSource[] {
  const out: ExampleSource[] = []
  for (const id of hitabTableIds()) out.push({ corpus: 'hitab', id })
  for (const t of readAitqaTables()) out.push({ corpus: 'aitqa', id: t.id })
  const root = join(datasetsDir(), 'spreadsheets')
  for (const path of spreadsheetPaths()) {
    const file = relative(root, path)
    for (const g of openAll(path)) out.push({ corpus: 'sheets', id: `${file} › ${g.name.split(' › ').pop() ?? ''}` })
  }
  for (const [name, make] of Object.entries(BUILT_WORKBOOKS))
    for (const g of openBytes(name, make())) out.push({ corpus: 'built', id: `${name} › ${g.name.split(' › ').pop() ?? ''}` })
  const wikitq = join(datasetsDir(), 'wikitq', 'csv')
  for (const page of readdirSync(wikitq).sort())
    for (const file of readdirSync(join(wikitq, page)).sort())
      if (file.endsWith('.csv')) out.push({ corpus: 'wikitq', id: `${page}/${file}` })
  return out
}

function openAll(path: string): RawGrid[] {
  return openBytes(path, new Uint8Array(readFileSync(path)))
}

function openBytes(name: string, bytes: Uint8Array): RawGrid[] {
  const read = importFileSync(basename(name), bytes)
  return read.ok ? read.value.flatMap(splitSideBySide) : []
}

/** The citations of a grid with the optional rule `rule` (if it is one) turned on. */
function cited(grid: RawGrid, rule: string): Citation[] {
  const run = (): Citation[] => citations(explainStructure(grid))
  return OPTIONAL_RULES.includes(rule) ? withRules([rule], run) : run()
}

function effectExample(rule: string, grids: { source: ExampleSource; grid: RawGrid; size: number }[]): RuleEffect | undefined {
  const optional = OPTIONAL_RULES.includes(rule)
  const pair = (g: RawGrid): [StructureSummary, StructureSummary] => {
    const on = (): StructureSummary => structureSummary(g)
    return optional ? [withRules([rule], on), on()] : [on(), withoutRules([rule], on)]
  }
  for (const { source, grid, size } of grids) {
    if (size > MAX_EFFECT_CELLS) break
    const [a, b] = pair(grid)
    if (JSON.stringify(a) === JSON.stringify(b)) continue
    const width = grid.cells.reduce((w, r) => Math.max(w, r.length), 0)
    for (let rows = 2; rows <= grid.cells.length; rows++)
      for (const cols of [...new Set([Math.min(width, 4), Math.min(width, 6), Math.min(width, MAX_COLS), width])]) {
        const [x, y] = pair(cropGrid(grid, rows, cols))
        const field = SUMMARY_FIELDS.find((f) => JSON.stringify(x[f]) !== JSON.stringify(y[f]))
        if (field !== undefined) return { rule, source, rows, cols, field, with: x[field] }
      }
  }
  return undefined
}

function main(): void {
  const found = new Map<string, RuleExample>()
  const rules = Object.keys(RULE_TABLE)
  const all = sources()
  const grids: { source: ExampleSource; grid: RawGrid; size: number }[] = []
  for (const source of all) {
    const grid = openSource(source)
    if (grid === undefined) continue
    const cols = grid.cells.reduce((w, r) => Math.max(w, r.length), 0)
    grids.push({ source, grid, size: grid.cells.length * cols })
  }
  grids.sort((a, b) => a.size - b.size)
  // Every table explained once, optional rules on: which rules each one cites, and where first.
  const citing = new Map<string, { grid: RawGrid; source: ExampleSource; whole: Citation }[]>()
  withRules(OPTIONAL_RULES, () => {
    for (const { source, grid } of grids)
      for (const c of citations(explainStructure(grid))) {
        const list = citing.get(c.rule) ?? []
        if (list.length < CANDIDATES && list.at(-1)?.grid !== grid) list.push({ grid, source, whole: c })
        citing.set(c.rule, list)
      }
  })
  for (const rule of rules) {
    for (const { source, grid, whole } of citing.get(rule) ?? []) {
      const width = grid.cells.reduce((w, r) => Math.max(w, r.length), 0)
      let example: RuleExample | undefined
      // The fewest first rows (then columns) that keep the citation, which turning the rule off takes away.
      for (
        let rows = Math.min(grid.cells.length, (whole.row ?? 0) + 2);
        rows <= Math.min(grid.cells.length, MAX_ROWS) && example === undefined;
        rows++
      ) {
        for (const cols of [Math.min(width, 4), Math.min(width, 6), Math.min(width, MAX_COLS), width]) {
          if (cols > MAX_COLS && cols !== Math.min(width, MAX_COLS)) continue
          const cut = cropGrid(grid, rows, cols)
          const list = cited(cut, rule)
          const c = list.find((x) => x.rule === rule && x.at === whole.at)
          if (c === undefined) continue
          const off = OPTIONAL_RULES.includes(rule)
            ? citations(explainStructure(cut))
            : withoutRules([rule], () => citations(explainStructure(cut)))
          if (cites(off, c)) continue
          example = { rule, source, rows, cols, cites: c }
          break
        }
      }
      if (example !== undefined) {
        found.set(rule, example)
        console.log(
          `${rule}: ${source.corpus} ${source.id} (${example.rows}×${example.cols}) ${example.cites.at} ${example.cites.row}: ${example.cites.text}`
        )
        break
      }
    }
    if (!found.has(rule)) console.log(`${rule}: no example (cited in ${citing.get(rule)?.length ?? 0} of the smallest tables tried)`)
  }
  // Rules no explanation cites: the smallest table whose structure they change, cut as far as it still does.
  const effects: RuleEffect[] = []
  for (const rule of rules.filter((r) => !found.has(r))) {
    const effect = effectExample(rule, grids)
    if (effect === undefined) console.log(`${rule}: changes no table`)
    else {
      effects.push(effect)
      console.log(`${rule}: changes ${effect.field} of ${effect.source.corpus} ${effect.source.id} (${effect.rows}×${effect.cols})`)
    }
  }
  const out = {
    about: 'One real example per structure rule, cut from a corpus table when the test runs: see test/support/rule-examples.ts.',
    examples: rules.flatMap((r) => found.get(r) ?? []),
    effects,
    notFound: rules.filter((r) => !found.has(r) && !effects.some((e) => e.rule === r))
  }
  writeFileSync(new URL('../test/fixtures/rule-examples.json', import.meta.url), `${JSON.stringify(out, null, 1)}\n`)
}

main()
