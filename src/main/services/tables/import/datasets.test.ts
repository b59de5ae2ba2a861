/** The importers against every real file of the shared datasets (skipped when they are absent). */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { RawGrid } from '../../../../shared/table'
import { importFile } from './index'

const DATA = process.env.TABLEQA_DATA ?? resolve(import.meta.dirname, '../../../../../../shared/datasets')
const has = (p: string): boolean => existsSync(join(DATA, p))

async function load(path: string, name = path.split('/').pop() ?? path): Promise<RawGrid[]> {
  const r = await importFile(name, new Uint8Array(readFileSync(path)))
  if (!r.ok) throw new Error(`${path}: ${r.error.code}: ${r.error.message}`)
  return r.value
}

function expectRectangular(g: RawGrid): void {
  const width = g.cells[0]?.length ?? 0
  for (const row of g.cells) expect(row.length).toBe(width)
  for (const m of g.merges) {
    expect(m.top).toBeLessThanOrEqual(m.bottom)
    expect(m.left).toBeLessThanOrEqual(m.right)
    expect(m.bottom).toBeLessThan(g.cells.length)
    expect(m.right).toBeLessThan(width)
  }
}

/** WikiTQ's .tsv escapes: \n newline, \p pipe, \\ backslash. */
function readTsv(path: string): string[][] {
  const unescape = (s: string): string => s.replace(/\\(.)/g, (_m, c: string) => (c === 'n' ? '\n' : c === 'p' ? '|' : c))
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => l.split('\t').map(unescape))
}

const squash = (s: string): string => s.replace(/\s+/g, ' ').trim()

describe.skipIf(!has('wikitq/csv'))('WikiTQ tables', () => {
  const root = join(DATA, 'wikitq/csv')
  const csvs = readdirSync(root).flatMap((d) =>
    readdirSync(join(root, d))
      .filter((f) => f.endsWith('.csv'))
      .map((f) => join(root, d, f))
  )

  it('parses every CSV with one width and the same cells as its .tsv twin', async () => {
    expect(csvs.length).toBeGreaterThan(500)
    for (const path of csvs) {
      const [g] = await load(path)
      if (g === undefined) throw new Error(path)
      expect(g.warnings, path).toEqual([])
      expectRectangular(g)
      const tsv = readTsv(path.replace(/\.csv$/, '.tsv'))
      expect(
        g.cells.map((r) => r.map(squash)),
        path
      ).toEqual(tsv.map((r) => r.map(squash)))
    }
  })

  it('imports every original .html table, and most hold every CSV data row once spans are filled', async () => {
    let matching = 0
    for (const path of csvs) {
      const [csv] = await load(path)
      const html = await load(path.replace(/\.csv$/, '.html'))
      const g = html[0]
      if (csv === undefined || g === undefined) throw new Error(path)
      expectRectangular(g)
      const filled = g.cells.map((r) => [...r])
      for (const m of g.merges) {
        for (let r = m.top; r <= m.bottom; r++)
          for (let c = m.left; c <= m.right; c++) (filled[r] as string[])[c] = g.cells[m.top]?.[m.left] ?? ''
      }
      const rows = new Set(filled.map((r) => r.map(squash).join('\u0001')))
      if (csv.cells.slice(1).every((r) => rows.has(r.map(squash).join('\u0001')))) matching++
    }
    // The rest differ by WikiTQ's own clean-up (title rows, citation-only and image-only columns removed).
    console.log(`WikiTQ: ${matching} of ${csvs.length} HTML tables hold every CSV data row`)
    expect(matching / csvs.length).toBeGreaterThan(0.8)
  })
})

describe.skipIf(!has('hitab/data/tables/raw'))('HiTab tables', () => {
  it('imports every table with its texts, merges and declared header counts', async () => {
    const root = join(DATA, 'hitab/data/tables/raw')
    const files = readdirSync(root).filter((f) => f.endsWith('.json'))
    expect(files.length).toBeGreaterThan(800)
    for (const f of files) {
      const source = JSON.parse(readFileSync(join(root, f), 'utf8')) as {
        texts: string[][]
        merged_regions: unknown[]
        top_header_rows_num: number
      }
      const [g] = await load(join(root, f))
      if (g === undefined) throw new Error(f)
      expectRectangular(g)
      expect(g.cells.length).toBe(source.texts.length)
      expect(g.cells[g.cells.length - 1]?.[0]).toBe(String(source.texts[source.texts.length - 1]?.[0] ?? ''))
      expect(g.merges.length).toBeLessThanOrEqual(source.merged_regions.length)
      if (g.warnings.length === 0) expect(g.merges.length).toBe(source.merged_regions.length)
      expect(g.hints?.headerRows).toBe(source.top_header_rows_num)
    }
  })
})

describe.skipIf(!has('aitqa/raw_data/aitqa_tables.jsonl'))('AIT-QA tables', () => {
  it('imports all tables of the JSON Lines file with header levels laid out', async () => {
    const path = join(DATA, 'aitqa/raw_data/aitqa_tables.jsonl')
    const lines = readFileSync(path, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
    const grids = await load(path)
    expect(grids.length).toBe(lines.length)
    const ragged: string[] = []
    const expected: string[] = []
    grids.forEach((g, k) => {
      const t = JSON.parse(lines[k] as string) as { id: string; column_header: string[][]; row_header: string[][]; data: string[][] }
      expectRectangular(g)
      expect(g.name).toBe(`aitqa_tables.jsonl › ${t.id}`)
      const h = g.hints?.headerRows ?? -1
      const w = g.hints?.headerCols ?? -1
      expect(h).toBe(Math.max(...t.column_header.map((p) => p.length)))
      expect(g.cells[h]?.slice(w, w + (t.data[0]?.length ?? 0))).toEqual(t.data[0])
      if (g.warnings.length > 0) ragged.push(t.id)
      const width = t.column_header.length
      if (t.data.some((r) => r.length !== width) || (t.row_header.length > 0 && t.row_header.length !== t.data.length)) expected.push(t.id)
    })
    expect(ragged).toEqual(expected)
    expect(expected.length).toBeGreaterThan(0)
  })
})

describe.skipIf(!has('spider/database'))('Spider databases', () => {
  it('imports every database with the tables, columns and keys of tables.json', async () => {
    type Schema = {
      db_id: string
      table_names_original: string[]
      column_names_original: [number, string][]
      primary_keys: (number | number[])[]
      foreign_keys: [number, number][]
    }
    const schemas = JSON.parse(readFileSync(join(DATA, 'spider/tables.json'), 'utf8')) as Schema[]
    const root = join(DATA, 'spider/database')
    const dbs = readdirSync(root).filter((d) => existsSync(join(root, d, `${d}.sqlite`)))
    expect(dbs.length).toBeGreaterThan(10)
    for (const db of dbs) {
      const grids = await load(join(root, db, `${db}.sqlite`))
      const schema = schemas.find((s) => s.db_id === db)
      if (schema === undefined) throw new Error(db)
      // SQLite's own bookkeeping tables (sqlite_sequence) are not user data and are not imported.
      const userTables = schema.table_names_original.map((t) => t.toLowerCase()).filter((t) => !t.startsWith('sqlite_'))
      expect(grids.map((g) => g.relational?.table.toLowerCase()).sort(), db).toEqual(userTables.sort())
      for (const g of grids) {
        const ti = schema.table_names_original.findIndex((t) => t.toLowerCase() === g.relational?.table.toLowerCase())
        const cols = schema.column_names_original.filter(([t]) => t === ti).map(([, c]) => c.toLowerCase())
        expect(
          g.cells[0]?.map((c) => c.toLowerCase()),
          `${db}.${g.relational?.table}`
        ).toEqual(cols)
        expectRectangular(g)
      }
      const pkNames = schema.primary_keys.flat().map((i) => schema.column_names_original[i]?.[1].toLowerCase())
      const imported = grids.flatMap((g) => g.relational?.primaryKey.map((c) => c.toLowerCase()) ?? [])
      for (const pk of pkNames) expect(imported, `${db} primary key ${pk}`).toContain(pk)
      if (schema.foreign_keys.length > 0)
        expect(
          grids.some((g) => (g.relational?.foreignKeys.length ?? 0) > 0),
          db
        ).toBe(true)
    }
  })
})

describe.skipIf(!has('spreadsheets'))('published spreadsheets', () => {
  type Row = { path: string; fmt: string; sheets: number; merged: number; indented: boolean }
  const readme = readFileSync(join(DATA, 'spreadsheets/README.md'), 'utf8')
  const rows: Row[] = [...readme.matchAll(/^\| `([^`]+)` \| (\w+) \|([^\n]*)$/gm)].map((m) => {
    const cols = (m[3] ?? '').split(' | ')
    return {
      path: m[1] ?? '',
      fmt: m[2] ?? '',
      sheets: Number(cols[4]),
      merged: Number(cols[5]),
      indented: (cols[6] ?? '').startsWith('y')
    }
  })

  it('opens every XLSX/XLS/ODS with all its sheets, merges and indentation', async () => {
    expect(rows.length).toBeGreaterThan(20)
    for (const row of rows) {
      const path = join(DATA, 'spreadsheets', row.path)
      const r = await importFile(row.path.split('/').pop() ?? row.path, new Uint8Array(readFileSync(path)))
      if (!r.ok) throw new Error(`${row.path}: ${r.error.message}`)
      expect(r.value.length, row.path).toBe(row.sheets)
      r.value.forEach(expectRectangular)
      const merges = r.value.reduce((n, g) => n + g.merges.length, 0)
      if (row.merged > 0) expect(merges, row.path).toBeGreaterThan(0)
      const indents = r.value.reduce((n, g) => n + Object.values(g.styles ?? {}).filter((s) => (s.indent ?? 0) > 0).length, 0)
      if (row.indented) expect(indents, row.path).toBeGreaterThan(0)
    }
  })
})
