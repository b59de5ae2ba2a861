import initSqlJs from 'sql.js'
import { describe, expect, it } from 'vitest'
import { importFile } from './index'

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
