import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { appRoot } from '../paths'
import { joinPrepared, prepareTable, splitPrepared } from './prepare'
import { importFile } from './import'
import { datasetsDir } from '../paths'
import { localReader, threadedReader, type TableReader } from './table-thread'

const report = [
  'Region,Year,Sales,Share',
  'North,,,',
  '  Alpha,2019,"1,200",12%',
  '  Beta,2019,(300),3%',
  'South,,,',
  '  Gamma,2020,$3.5,—',
  'Total,,"4,000",100%'
].join('\n')

const bytes = new TextEncoder().encode(report)
const woodland = join(datasetsDir(), 'spreadsheets', 'forestry-gss-cogs', 'Ch1_Woodland_FS2022.xlsx')
const script = join(appRoot(), 'out', 'main', 'table-worker.js')

async function grid() {
  const read = await importFile('report.csv', bytes)
  if (!read.ok || !read.value[0]) throw new Error('import failed')
  return read.value[0]
}

describe('a prepared table cut into parts', () => {
  it('joins back to the same table, numbers included, whatever the part size', async () => {
    const whole = prepareTable(await grid())
    for (const size of [1, 2, 3, 100]) {
      const { head, parts } = splitPrepared(whole, size)
      // What crosses threads is cloned: clone here too, so nothing is shared by reference.
      const joined = joinPrepared(structuredClone(head))
      for (const part of parts) joined.add(structuredClone(part))
      const back = joined.finish()
      const { numbers, ...rest } = back.parsed
      const { numbers: wholeNumbers, ...wholeRest } = whole.parsed
      expect(rest).toEqual(wholeRest)
      expect(numbers()).toEqual(wholeNumbers())
      expect(back.payload).toEqual(whole.payload)
      expect({ ...back, parsed: null }).toEqual({ ...whole, parsed: null })
    }
  })

  it('reads label columns of the flat view as no number, as the flat view itself does', async () => {
    const flat = prepareTable(await grid(), undefined, 'flatten')
    const { head, parts } = splitPrepared(flat, 2)
    const joined = joinPrepared(structuredClone(head))
    for (const part of parts) joined.add(structuredClone(part))
    expect(joined.finish().parsed.numbers()).toEqual(flat.parsed.numbers())
  })

  it('keeps the title of a sheet with a title block, and names the index from the header under it', async () => {
    // An empty corner over the row labels: the index is unnamed, not named after a title line above it.
    const titled = [
      'Table 3. Sales by region,,',
      '[Dollars in thousands],,',
      ',,',
      ',2019,2020',
      'North,"1,200","1,300"',
      'South,800,900'
    ].join('\n')
    const read = await importFile('titled.csv', new TextEncoder().encode(titled))
    if (!read.ok || !read.value[0]) throw new Error('import failed')
    const whole = prepareTable(read.value[0])
    expect(whole.structure).toMatchObject({ titleRows: 3, headerRows: 1, headerCols: 1 })
    expect(whole.indexColumns).toEqual([''])
    const { head, parts } = splitPrepared(whole, 1)
    const joined = joinPrepared(structuredClone(head))
    for (const part of parts) joined.add(structuredClone(part))
    const back = joined.finish().parsed
    expect(back.title).toBe('Table 3. Sales by region\n[Dollars in thousands]')
    expect(back.rowSource).toEqual([4, 5])
  })

  it('leaves the index of a time series unnamed when the corner names its metadata rows', async () => {
    const series = [
      ',Index ; Sydney,Index ; Perth',
      'Unit,Index Numbers,Index Numbers',
      'Series Type,Original,Original',
      'Series ID,A2325806K,A2325816R',
      'Sep-1948,3.7,3.8',
      'Dec-1948,3.7,3.8',
      'Mar-1949,3.9,3.9'
    ].join('\n')
    const read = await importFile('series.csv', new TextEncoder().encode(series))
    if (!read.ok || !read.value[0]) throw new Error('import failed')
    const whole = prepareTable(read.value[0])
    expect(whole.structure).toMatchObject({ headerRows: 4, headerCols: 1 })
    expect(whole.indexColumns).toEqual([''])
    // A corner naming the row labels keeps its name.
    const named = await importFile('named.csv', new TextEncoder().encode(['Region,2019,2020', 'North,1,2', 'South,3,4'].join('\n')))
    if (!named.ok || !named.value[0]) throw new Error('import failed')
    expect(prepareTable(named.value[0], { headerRows: 1, headerCols: 1, leftHierarchy: 'auto' }).indexColumns).toEqual(['Region'])
  })

  it('refuses a table that arrived without all of its parts', async () => {
    const { head, parts } = splitPrepared(prepareTable(await grid()), 2)
    const joined = joinPrepared(head)
    joined.add(parts[0] ?? { values: [], index: [], indexCells: [], rowSource: [], branches: [] })
    expect(() => joined.finish()).toThrow(/incomplete/)
  })
})

/** The same contract from both readers: the one the app uses (a worker thread) and the in-thread one. */
function readerContract(name: string, make: () => TableReader): void {
  describe(name, () => {
    it('opens a file, keeps its cells, restructures them, and forgets them when told', async () => {
      const reader = make()
      const opened = await reader.open('report.csv', bytes)
      expect(opened.ok).toBe(true)
      if (!opened.ok) return
      const [table] = opened.value
      if (!table) throw new Error('no table')
      const expected = prepareTable(await grid())
      expect(table.parsed.values).toEqual(expected.parsed.values)
      expect(table.parsed.leftTree).toEqual(expected.parsed.leftTree)
      expect(new TextDecoder().decode(table.payload)).toBe(new TextDecoder().decode(expected.payload))
      expect(table.gridName).toBe('report.csv')

      const again = await reader.restructure(table.key, { headerRows: 1, headerCols: 0 }, 'multiindex')
      expect(again.ok && again.value.parsed.values[0]).toEqual(['North', '', '', ''])
      const flat = await reader.restructure(table.key, { headerRows: 1, headerCols: 1 }, 'flatten')
      expect(flat.ok && flat.value.structure).toMatchObject({ headerRows: 1, headerCols: 1 })
      expect(flat.ok && flat.value.view).toBe('flatten')

      const why = await reader.explain(table.key, { headerRows: 1, headerCols: 1 })
      // "Alpha" (sheet row 3) sits under the section "North" (row 2).
      expect(why.ok && why.value.rows.find((p) => p.row === 2)).toMatchObject({ role: 'data', parentRow: 1 })
      expect(why.ok && why.value.rows.find((p) => p.row === 1)).toMatchObject({ role: 'section', parentRow: null })

      reader.forget(table.key)
      const gone = await reader.restructure(table.key, { headerRows: 1, headerCols: 1 }, 'multiindex')
      expect(gone.ok ? null : gone.error.code).toBe('not-found')
      const unknown = await reader.explain(table.key, { headerRows: 1, headerCols: 1 })
      expect(unknown.ok ? null : unknown.error.code).toBe('not-found')
    })

    it.runIf(existsSync(woodland))('opens tables side by side on one sheet as one table each, naming the sheet’s cells', async () => {
      const opened = await make().open('Ch1_Woodland_FS2022.xlsx', new Uint8Array(readFileSync(woodland)))
      if (!opened.ok) throw new Error(opened.error.message)
      const parts = opened.value.filter((t) => t.gridName.includes('› Table_1.6 '))
      expect(parts.map((t) => t.gridName.replace(/.*› /, ''))).toEqual(['Table_1.6 (1 of 3)', 'Table_1.6 (2 of 3)', 'Table_1.6 (3 of 3)'])
      for (const t of parts) {
        expect(t.structure).toMatchObject({ titleRows: 4, headerRows: 1, headerCols: 1 })
        expect(t.parsed.columns).toEqual([['England'], ['Wales'], ['Scotland'], ['Great Britain']])
      }
      expect(parts[2]?.parsed.title).toMatch(/^Table 1\.6c: /)
      // The third table starts in column M (12).
      expect(parts[2]?.parsed.colSource[0]).toBe(13)
    })

    it('passes on the importer’s message for a file that is not a table', async () => {
      const reader = make()
      const bad = await reader.open('noise.csv', new Uint8Array([0, 1, 2, 0, 255, 0]))
      expect(bad.ok).toBe(false)
      if (!bad.ok) expect(bad.error.message).toMatch(/noise\.csv/)
    })
  })
}

readerContract('the in-thread reader', localReader)

describe.runIf(existsSync(script))('the threaded reader', () => {
  readerContract('with the built worker', () => threadedReader(script))

  it('hands over a table of 50,000 rows in parts, answering other work in between', async () => {
    const rows = Array.from({ length: 50_000 }, (_, i) => `r${i},${i},${i * 2}`)
    const big = new TextEncoder().encode(`name,a,b\n${rows.join('\n')}\n`)
    const reader = threadedReader(script)
    let ticks = 0
    const timer = setInterval(() => ticks++, 1)
    const opened = await reader.open('big.csv', big)
    clearInterval(timer)
    const local = await localReader().open('big.csv', big)
    expect(opened.ok && opened.value[0]?.parsed.values.length).toBe(50_000)
    expect(opened.ok && opened.value[0]?.parsed.values).toEqual(local.ok && local.value[0]?.parsed.values)
    expect(opened.ok && opened.value[0]?.parsed.index).toEqual(local.ok && local.value[0]?.parsed.index)
    // The host's own timers ran while the table arrived: it was never one blocking step.
    expect(ticks).toBeGreaterThan(2)
  })
})

describe.runIf(!existsSync(script))('the threaded reader without a build', () => {
  it('is skipped: run `npx electron-vite build` first', () => {
    expect(existsSync(script)).toBe(false)
  })
})
