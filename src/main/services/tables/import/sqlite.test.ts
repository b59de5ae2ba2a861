import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import initSqlJs from 'sql.js'
import { describe, expect, it } from 'vitest'
import type { RawGrid } from '../../../../shared/table'
import { pandasAvailable, runPython } from '../../../../../test/support/python'
import { datasetsDir } from '../../paths'
import { structureGrid } from '../structure'
import { importFile } from './index'

/** The kind letters of a grid row, and the numbers its typed cells store. */
function typed(grid: RawGrid | undefined, row: number): { kinds: string; numbers: number[] } {
  const v = grid?.values
  if (v === undefined) return { kinds: '', numbers: [] }
  const at = row * v.width
  const kinds = Array.from(v.kinds.subarray(at, at + v.width), (k) => (k === 0 ? '.' : String.fromCharCode(k))).join('')
  return { kinds, numbers: Array.from(v.numbers.subarray(at, at + v.width)) }
}

async function makeDb(sql: string): Promise<Uint8Array> {
  const SQL = await initSqlJs()
  const db = new SQL.Database()
  db.exec(sql)
  const bytes = db.export()
  db.close()
  return bytes
}

describe('importSqlite', () => {
  it('imports every table with column names as the header row and its keys', async () => {
    const bytes = await makeDb(`
      CREATE TABLE singer (singer_id INTEGER PRIMARY KEY, name TEXT, net_worth REAL, photo BLOB);
      CREATE TABLE concert (concert_id INT, year TEXT, PRIMARY KEY (year, concert_id));
      CREATE TABLE singer_in_concert (concert_id INT, year TEXT, singer_id INT,
        FOREIGN KEY (singer_id) REFERENCES singer(singer_id),
        FOREIGN KEY (year, concert_id) REFERENCES concert(year, concert_id));
      INSERT INTO singer VALUES (1, 'Joe', 30.5, x'0102'), (2, NULL, 0.1 + 0.2, NULL);
      INSERT INTO concert VALUES (10, '2014');
    `)
    const r = await importFile('music.sqlite', bytes)
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(r.value.map((g) => g.name)).toEqual(['music.sqlite › singer', 'music.sqlite › concert', 'music.sqlite › singer_in_concert'])
    const [singer, concert, link] = r.value
    expect(singer?.cells).toEqual([
      ['singer_id', 'name', 'net_worth', 'photo'],
      ['1', 'Joe', '30.5', '<binary 2 bytes>'],
      ['2', '', '0.3', '']
    ])
    // Numbers as stored (0.1 + 0.2 keeps its last digits), TEXT and BLOB as text, NULL as no value.
    expect(typed(singer, 0).kinds).toBe('....')
    expect(typed(singer, 1)).toEqual({ kinds: 'nsns', numbers: [1, 0, 30.5, 0] })
    expect(typed(singer, 2)).toEqual({ kinds: 'n0N0', numbers: [2, 0, 0.1 + 0.2, 0] })
    expect(singer?.relational).toEqual({ table: 'singer', primaryKey: ['singer_id'], foreignKeys: [] })
    expect(concert?.relational?.primaryKey).toEqual(['year', 'concert_id'])
    expect(link?.cells).toEqual([['concert_id', 'year', 'singer_id']])
    expect(link?.relational?.foreignKeys).toContainEqual({ columns: ['singer_id'], refTable: 'singer', refColumns: ['singer_id'] })
    expect(link?.relational?.foreignKeys).toContainEqual({
      columns: ['year', 'concert_id'],
      refTable: 'concert',
      refColumns: ['year', 'concert_id']
    })
  })

  it('keeps text that reads as a number as text, and an empty text apart from NULL', async () => {
    const r = await importFile('t.db', await makeDb("CREATE TABLE t (a, b); INSERT INTO t VALUES ('18', ''), (18, NULL);"))
    const grid = r.ok ? r.value[0] : undefined
    expect(grid?.cells).toEqual([
      ['a', 'b'],
      ['18', ''],
      ['18', '']
    ])
    expect([typed(grid, 1).kinds, typed(grid, 2).kinds]).toEqual(['ss', 'n0'])
  })

  const spider = join(datasetsDir(), 'spider', 'database', 'cre_Doc_Template_Mgt', 'cre_Doc_Template_Mgt.sqlite')
  it.runIf(existsSync(spider) && pandasAvailable())(
    "gives programs a Spider database's NULLs as missing values, as pandas.read_sql does",
    async () => {
      const r = await importFile('cre_Doc_Template_Mgt.sqlite', new Uint8Array(readFileSync(spider)))
      expect(r.ok).toBe(true)
      const grid = r.ok ? r.value.find((g) => g.relational?.table === 'Paragraphs') : undefined
      if (grid === undefined) throw new Error('no Paragraphs table')
      const table = structureGrid(grid, { headerRows: 1, headerCols: 0, leftHierarchy: 'none' })
      expect(table.values[0]).toEqual(['7', '2394', 'Korea', ''])
      expect(table.stored?.map((c) => c?.kinds.slice(0, 2))).toEqual(['nn', 'nn', 'ss', '00'])
      const run = runPython(
        [
          'import sqlite3',
          'import pandas as pd',
          `con = sqlite3.connect(${JSON.stringify(spider)})`,
          'ref = pd.read_sql("SELECT * FROM Paragraphs", con)',
          'same = df.equals(ref) or (df.fillna(-1).astype(str).values == ref.fillna(-1).astype(str).values).all()',
          'answer = [bool(same), bool(df["Other_Details"].isna().all()), df["Other_Details"].iloc[0] is None,',
          '          str(df["Paragraph_ID"].dtype), int(sqldf("SELECT count(*) FROM df WHERE Other_Details IS NULL").iloc[0, 0])]'
        ].join('\n'),
        table
      )
      expect(run.ok ? run.value.value?.repr : run.error.message).toBe("[True, True, True, 'int64', 15]")
    }
  )

  it('finds a database by its header whatever the extension', async () => {
    const r = await importFile('data.bin', await makeDb('CREATE TABLE t (a); INSERT INTO t VALUES (1);'))
    expect(r.ok && r.value[0]?.cells).toEqual([['a'], ['1']])
  })

  it('caps the number of tables with a warning', async () => {
    const sql = Array.from({ length: 205 }, (_v, k) => `CREATE TABLE t${k} (a);`).join('\n')
    const r = await importFile('many.db', await makeDb(sql))
    expect(r.ok && r.value.length).toBe(200)
    expect(r.ok && r.value[0]?.warnings.join(' ')).toMatch(/first 200 of 205 tables/)
  })

  it('reports a damaged database and one without tables as bad input', async () => {
    const good = await makeDb('CREATE TABLE t (a); INSERT INTO t VALUES (1);')
    const damaged = good.slice(0, 100)
    const r1 = await importFile('cut.sqlite', damaged)
    expect(!r1.ok && r1.error.code).toBe('bad-input')
    const r2 = await importFile('empty.db', await makeDb('SELECT 1;'))
    expect(!r2.ok && r2.error.code).toBe('bad-input')
  })
})
