import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { datasetsDir } from '../paths'
import { importFile } from '../tables/import'
import { structureGrid } from '../tables/structure'
import { relevance, terms } from './budget'
import { digestTables, relatedRows, tableDigest } from './table-digest'
import { cellText, columnWidths, depths, rowChars, type ViewTable } from './table-view'

/** What the prompt computed for every row of every question before digests: the reference. */
function rowByRow(table: ViewTable, question: string): { related: number[]; costs: number[] } {
  const q = terms(question)
  const rowsAll = table.values.map((_, i) => i)
  const perRow = rowChars(columnWidths(table, rowsAll))
  const d = depths(table)
  const costs = rowsAll.map((r) => perRow + (d.row > 0 ? (table.index[r] ?? []).reduce((s, x) => s + x.length + 4, 2) : 0))
  const scores = rowsAll.map((r) => relevance(q, [...(table.index[r] ?? []), ...(table.values[r] ?? [])].map(cellText).join(' ')))
  const related = rowsAll.filter((r) => (scores[r] ?? 0) > 0).sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0) || a - b)
  return { related, costs }
}

const QUESTIONS = [
  'how many rows are there?',
  'What was the total in 2010 for men?',
  'Which is larger, 1,234 or 12.5?',
  "who's the men's champion (women)?",
  'percent of canada',
  'Ünïcödé straße İstanbul 𝑥𝟙 日本 2',
  "it's o'neil 3.5 a.b"
]

describe('table digests', () => {
  it('rank the rows as reading every row for every question did, on tricky cells', () => {
    const table: ViewTable = {
      columns: [['name'], ['value']],
      index: [],
      values: [
        ['a.b.c', '3.5'],
        ["o'neil's", '1,234'],
        ["it's", '12,5'],
        ['x..b', "'b"],
        ['İstanbul STRASSE', 'straße'],
        ['𝑥𝟙 日本', '2.'],
        ['line one\nline two 2010', ' men '],
        ['a'.repeat(45) + ' men', '10,000,000'],
        ['b3', '5'],
        ['', '']
      ]
    }
    for (const question of [...QUESTIONS, 'b 3 5 men a.b c neil 1234 12 straße 2010 aaaa']) {
      const expected = rowByRow(table, question)
      expect([...relatedRows(tableDigest(table), terms(question))], question).toEqual(expected.related)
      expect([...tableDigest(table).costs]).toEqual(expected.costs)
    }
  })

  it('rank the rows of real tables (HiTab, WikiTQ) as reading every row did', async () => {
    const root = datasetsDir()
    const files = [
      ...readdirSync(join(root, 'hitab', 'data', 'tables', 'raw'))
        .sort()
        .slice(0, 25)
        .map((f) => join(root, 'hitab', 'data', 'tables', 'raw', f)),
      ...readdirSync(join(root, 'wikitq', 'csv', '200-csv'))
        .sort()
        .slice(0, 25)
        .map((f) => join(root, 'wikitq', 'csv', '200-csv', f))
    ]
    let compared = 0
    for (const file of files) {
      const grids = await importFile(file.split('/').at(-1) ?? '', new Uint8Array(readFileSync(file)))
      const grid = grids.ok ? grids.value[0] : undefined
      if (grid === undefined) continue
      const table = structureGrid(grid)
      for (const question of QUESTIONS) {
        const expected = rowByRow(table, question)
        expect([...relatedRows(tableDigest(table), terms(question))], `${file}: ${question}`).toEqual(expected.related)
        compared += 1
      }
      expect([...tableDigest(table).costs]).toEqual(rowByRow(table, '').costs)
    }
    expect(compared).toBeGreaterThan(300)
  })

  it('are worked out once per table, in slices for a long one, with the same result', async () => {
    const values = Array.from({ length: 45_000 }, (_, i) => [`region ${i % 97}`, String(2000 + (i % 20)), String(i % 13)])
    const sliced: ViewTable = { columns: [['region'], ['year'], ['count']], index: [], values }
    const whole: ViewTable = { ...sliced, values: values.map((v) => [...v]) }
    await Promise.all([digestTables([sliced]), digestTables([sliced])])
    const digest = tableDigest(sliced)
    expect(tableDigest(sliced)).toBe(digest)
    const reference = tableDigest(whole)
    expect(digest.text).toBe(reference.text)
    expect([...digest.starts]).toEqual([...reference.starts])
    expect([...digest.costs]).toEqual([...reference.costs])
    expect(digest.totalCost).toBe(reference.totalCost)
    const related = [...relatedRows(digest, terms('region 42 in 2003'))]
    expect(related).toEqual(rowByRow(whole, 'region 42 in 2003').related)
    expect(related.slice(0, 2)).toEqual([42 + 97 * 13, 42 + 97 * 33])
  })
})
