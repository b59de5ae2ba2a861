import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { SampleName } from '../../shared/session'
import { join } from 'node:path'
import { datasetsDir } from '../services/paths'
import { digestKnown } from '../services/prompt'
import { Workspace } from '../services/workspace'
import { createTableHandlers, samplesDir, SAMPLE_FILES } from './table-handlers'

/** Records what the interpreter was given, so tests can check a restructure reaches Python. */
function fakeExecutor() {
  const loaded = new Map<string, { columns: string[][]; index: string[][] }>()
  const calls: string[] = []
  return {
    loaded,
    calls,
    loadTable: (id: string, payload: Uint8Array) => {
      calls.push(`load ${id}`)
      loaded.set(id, JSON.parse(new TextDecoder().decode(payload)) as { columns: string[][]; index: string[][] })
      return Promise.resolve()
    },
    dropTable: (id: string) => {
      calls.push(`drop ${id}`)
      loaded.delete(id)
      return Promise.resolve()
    }
  }
}

function setup() {
  const executor = fakeExecutor()
  const handlers = createTableHandlers({ workspace: new Workspace(), executor, openDialog: null, samplesDir: samplesDir() })
  return { executor, handlers }
}

const report = `,2018,,2019,
,men,women,men,women
earnings,,,,
wages,10,11,12,13
salaries,20,21,22,23
`

async function openCsv(handlers: ReturnType<typeof setup>['handlers'], name: string, text: string) {
  const opened = await handlers['table:openBytes']({ name, bytes: new TextEncoder().encode(text) })
  if (!opened.ok || !opened.value[0]) throw new Error(`open failed: ${JSON.stringify(opened)}`)
  return opened.value[0]
}

describe('table handlers', () => {
  it('reads an opened or restructured table for prompts before any question is asked', async () => {
    const workspace = new Workspace()
    const handlers = createTableHandlers({ workspace, executor: fakeExecutor(), openDialog: null, samplesDir: samplesDir() })
    const rows = ['region,year,amount', ...Array.from({ length: 50_000 }, (_, i) => `r${i % 7},${2000 + (i % 20)},${i}`)]
    const table = await openCsv(handlers, 'big.csv', rows.join('\n'))
    const parsed = (): Parameters<typeof digestKnown>[0] => {
      const open = workspace.get(table.id)
      if (!open) throw new Error('the table is not open')
      return open.parsed
    }
    // Read in slices between other work: not done when the open returns, done a few turns of the loop later.
    expect(digestKnown(parsed())).toBe(false)
    const settle = async (): Promise<number> => {
      let turns = 0
      while (!digestKnown(parsed()) && turns < 1_000) {
        await new Promise<void>((resolve) => setImmediate(resolve))
        turns += 1
      }
      return turns
    }
    expect(await settle()).toBeLessThan(1_000)
    const again = await handlers['table:restructure']({ tableId: table.id, options: { headerRows: 1, headerCols: 0 } })
    if (!again.ok) throw new Error(again.error.message)
    expect(digestKnown(parsed())).toBe(false)
    expect(await settle()).toBeLessThan(1_000)
  })

  it('restructures a table from its kept cells, reloads it into Python, and keeps its id', async () => {
    const { handlers, executor } = setup()
    const table = await openCsv(handlers, 'report.csv', report)
    expect(table.structure).toMatchObject({ headerRows: 2, headerCols: 1 })
    expect(table.columns[0]).toEqual(['2018', 'men'])

    const one = await handlers['table:restructure']({ tableId: table.id, options: { headerRows: 1, headerCols: 1 } })
    if (!one.ok) throw new Error(one.error.message)
    expect(one.value.id).toBe(table.id)
    expect(one.value.structure).toMatchObject({ headerRows: 1, headerCols: 1 })
    expect(one.value.columns.map((c) => c[0])).toEqual(['2018', '', '2019', ''])
    expect(one.value.rowCount).toBe(table.rowCount + 1)
    expect(executor.loaded.get(table.id)?.columns).toEqual(one.value.columns)
    // Dropped before the new load, so interpreters holding the old layout let it go.
    expect(executor.calls).toEqual([`load ${table.id}`, `drop ${table.id}`, `load ${table.id}`])

    const rows = await handlers['table:rows']({ tableId: table.id, start: 0, count: 10 })
    if (!rows.ok) throw new Error(rows.error.message)
    expect(rows.value.rows[0]).toEqual(['men', 'women', 'men', 'women'])
    expect(rows.value.index).toHaveLength(rows.value.rows.length)
  })

  it('flattens on request: one header level, the left header as leading columns, no row index', async () => {
    const { handlers, executor } = setup()
    const table = await openCsv(handlers, 'report.csv', report)
    const flat = await handlers['table:restructure']({ tableId: table.id, options: table.structure, view: 'flatten' })
    if (!flat.ok) throw new Error(flat.error.message)
    expect(flat.value.view).toBe('flatten')
    expect(flat.value.columns.every((c) => c.length === 1)).toBe(true)
    expect(flat.value.columns.map((c) => c[0])).toContain('2018 - men')
    expect(flat.value.indexColumns).toEqual([])
    expect(flat.value.structure).toMatchObject({ headerRows: 2, headerCols: 1 })
    expect(executor.loaded.get(table.id)?.index.every((t) => t.length === 0)).toBe(true)
    const structure = await handlers['table:structure']({ tableId: table.id })
    if (!structure.ok) throw new Error(structure.error.message)
    expect(structure.value.view).toBe('flatten')
    expect(structure.value.detected).toMatchObject({ headerRows: 2, headerCols: 1 })
  })

  it('refuses header sizes that are not whole numbers, and unknown tables', async () => {
    const { handlers } = setup()
    const table = await openCsv(handlers, 'report.csv', report)
    const bad = await handlers['table:restructure']({ tableId: table.id, options: { headerRows: -1, headerCols: 0.5 } })
    expect(bad.ok ? null : bad.error.code).toBe('bad-input')
    const gone = await handlers['table:restructure']({ tableId: 'nope', options: { headerRows: 1, headerCols: 0 } })
    expect(gone.ok ? null : gone.error.code).toBe('not-found')
    const title = await handlers['table:restructure']({ tableId: table.id, options: { titleRows: 1.5, headerRows: 1, headerCols: 0 } })
    expect(title.ok ? null : title.error.message).toMatch(/Title rows/)
  })

  it('sets a title block aside and shows its text, and takes it back when the user sets 0 title rows', async () => {
    const { handlers } = setup()
    const table = await openCsv(
      handlers,
      'titled.csv',
      'Table 3. Sales by region,,\nRegion,2019,2020\nNorth,"1,200","1,300"\nSouth,800,900\n'
    )
    expect(table.structure).toMatchObject({ titleRows: 1, headerRows: 1 })
    const structure = await handlers['table:structure']({ tableId: table.id })
    expect(structure.ok && structure.value.title).toBe('Table 3. Sales by region')
    const none = await handlers['table:restructure']({ tableId: table.id, options: { titleRows: 0, headerRows: 2, headerCols: 1 } })
    expect(none.ok && none.value.structure.titleRows).toBeUndefined()
    const after = await handlers['table:structure']({ tableId: table.id })
    expect(after.ok && after.value.title).toBe('')
  })

  it('lists open tables in opening order and forgets closed ones', async () => {
    const { handlers } = setup()
    const a = await openCsv(handlers, 'a.csv', 'x,y\n1,2\n')
    const b = await openCsv(handlers, 'b.csv', 'x,y\n3,4\n')
    const c = await openCsv(handlers, 'c.csv', 'x,y\n5,6\n')
    await handlers['table:rows']({ tableId: a.id, start: 0, count: 1 })
    await handlers['table:close']({ tableId: b.id })
    const list = await handlers['table:list']()
    expect(list.ok && list.value.map((t) => t.name)).toEqual(['a.csv', 'c.csv'])
    expect(list.ok && list.value[1]?.id).toBe(c.id)
  })

  it('gives the trees, tuples and the detected layout of a HiTab table', async () => {
    const { handlers } = setup()
    const path = join(datasetsDir(), 'hitab', 'data', 'tables', 'raw', '1284.json')
    const opened = await handlers['table:openBytes']({ name: '1284.json', bytes: new Uint8Array(readFileSync(path)) })
    if (!opened.ok || !opened.value[0]) throw new Error('open failed')
    const table = opened.value[0]
    const structure = await handlers['table:structure']({ tableId: table.id })
    if (!structure.ok) throw new Error(structure.error.message)
    const s = structure.value
    expect(s.columns).toEqual(table.columns)
    expect(s.index.length).toBe(s.indexCount)
    expect(s.topTree.children.length).toBeGreaterThan(1)
    expect(s.topTree.children.some((n) => n.children.length > 1)).toBe(true)
    expect(s.leftTree.children.some((n) => n.children.length > 1)).toBe(true)
    expect(table.indexColumns).toHaveLength(s.index[0]?.length ?? 0)
  })

  it('reports numbers of numeric columns in row blocks', async () => {
    const { handlers } = setup()
    const table = await openCsv(handlers, 'n.csv', 'name,amount\nA,"1,234"\nB,(12)\nC,see note\n')
    const rows = await handlers['table:rows']({ tableId: table.id, start: 0, count: 3 })
    if (!rows.ok) throw new Error(rows.error.message)
    // "see note" is one stray cell in three: too many for a numeric column.
    expect(rows.value.numbers.columns).toEqual([])
    // A short mark without a digit stands for a missing value: the column stays numeric.
    const marked = await openCsv(handlers, 'x.csv', 'name,amount\nA,"1,234"\nB,(12)\nC,x\n')
    const markedRows = await handlers['table:rows']({ tableId: marked.id, start: 0, count: 3 })
    if (!markedRows.ok) throw new Error(markedRows.error.message)
    expect(markedRows.value.numbers).toEqual({ columns: [1], values: [[1234, -12, null]] })
    const numeric = await openCsv(handlers, 'm.csv', 'name,amount\nA,"1,234"\nB,(12)\nC,7.5\n')
    const block = await handlers['table:rows']({ tableId: numeric.id, start: 1, count: 2 })
    if (!block.ok) throw new Error(block.error.message)
    expect(block.value.numbers).toEqual({ columns: [1], values: [[-12, 7.5]] })
  })

  it('opens every sample by name and nothing outside the list', async () => {
    const { handlers } = setup()
    for (const name of Object.keys(SAMPLE_FILES) as SampleName[]) {
      const opened = await handlers['table:openSample']({ name })
      expect(opened.ok, name).toBe(true)
    }
    const xlsx = await handlers['table:openSample']({ name: 'regional-report-xlsx' })
    expect(xlsx.ok && xlsx.value[0]?.columns[0]).toEqual(['2023', 'Revenue ($ thousands)', 'H1'])
    expect(xlsx.ok && xlsx.value[0]?.indexColumns).toEqual(['', 'Region / product line'])
    const db = await handlers['table:openSample']({ name: 'bookshop-sqlite' })
    expect(db.ok && db.value.map((t) => t.name)).toEqual(['bookshop.sqlite › authors', 'bookshop.sqlite › books'])
    const sneaky = await handlers['table:openSample']({ name: '../../package.json' as SampleName })
    expect(sneaky.ok ? null : sneaky.error.code).toBe('bad-input')
    const inherited = await handlers['table:openSample']({ name: 'toString' as SampleName })
    expect(inherited.ok ? null : inherited.error.code).toBe('bad-input')
  })
})
