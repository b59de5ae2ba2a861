import { describe, expect, it } from 'vitest'
import { importFile } from './index'

const enc = (v: unknown): Uint8Array => new TextEncoder().encode(typeof v === 'string' ? v : JSON.stringify(v))

describe('importJson', () => {
  it('reads a HiTab table with merges and its declared header counts', async () => {
    const table = {
      title: 'distance by shipment type',
      texts: [
        ['shipment type', 'kilometres', ''],
        ['', '2019', '2020'],
        ['crude', 110, '120']
      ],
      merged_regions: [
        { first_row: 0, last_row: 0, first_column: 1, last_column: 2 },
        { first_row: 0, last_row: 1, first_column: 0, last_column: 0 }
      ],
      top_header_rows_num: 3,
      left_header_columns_num: 1,
      top_root: { row_index: -1, column_index: -1, children: [] },
      left_root: { row_index: -1, column_index: -1, children: [] }
    }
    const r = await importFile('651.json', enc(table))
    expect(r.ok).toBe(true)
    if (!r.ok) return
    const [g] = r.value
    expect(g?.cells[2]).toEqual(['crude', '110', '120'])
    expect(g?.merges).toEqual([
      { top: 0, left: 1, bottom: 0, right: 2 },
      { top: 0, left: 0, bottom: 1, right: 0 }
    ])
    expect(g?.hints).toEqual({ headerRows: 3, headerCols: 1, title: 'distance by shipment type' })
  })

  it('lays out an AIT-QA table: header levels on top, row header levels on the left, repeated labels merged', async () => {
    const table = {
      id: 'tab-x',
      column_header: [['Year', '2018'], ['Year', '2017'], ['Change']],
      row_header: [['Cost:', 'RSUs'], ['Cost:', 'Options'], ['Total']],
      data: [
        ['$98', '$63', '5'],
        ['2', '8', '1'],
        ['$101', '$73']
      ]
    }
    const r = await importFile('t.json', enc(table))
    expect(r.ok).toBe(true)
    if (!r.ok) return
    const [g] = r.value
    expect(g?.cells).toEqual([
      ['', '', 'Year', '', 'Change'],
      ['', '', '2018', '2017', ''],
      ['Cost:', 'RSUs', '$98', '$63', '5'],
      ['', 'Options', '2', '8', '1'],
      ['Total', '', '$101', '$73', '']
    ])
    expect(g?.merges).toContainEqual({ top: 0, left: 2, bottom: 0, right: 3 })
    expect(g?.merges).toContainEqual({ top: 0, left: 4, bottom: 1, right: 4 })
    expect(g?.merges).toContainEqual({ top: 2, left: 0, bottom: 3, right: 0 })
    expect(g?.merges).toContainEqual({ top: 4, left: 0, bottom: 4, right: 1 })
    expect(g?.merges.length).toBe(4)
    expect(g?.hints).toEqual({ headerRows: 2, headerCols: 2 })
    expect(g?.warnings.join(' ')).toMatch(/1 data rows had fewer cells/)
  })

  it('does not merge equal leaf labels: they are distinct columns', async () => {
    const r = await importFile('t.json', enc({ column_header: [['Q'], ['Q']], row_header: [], data: [['1', '2']] }))
    expect(r.ok && r.value[0]?.merges).toEqual([])
    expect(r.ok && r.value[0]?.cells).toEqual([
      ['Q', 'Q'],
      ['1', '2']
    ])
  })

  it('reads JSON Lines of AIT-QA tables, one grid each named by id', async () => {
    const line = (id: string): string => JSON.stringify({ id, column_header: [['a']], row_header: [], data: [['1']] })
    const r = await importFile('tables.jsonl', enc(`${line('tab-1')}\n${line('tab-2')}\n`))
    expect(r.ok && r.value.map((g) => g.name)).toEqual(['tables.jsonl › tab-1', 'tables.jsonl › tab-2'])
  })

  it('reads plain rows and records', async () => {
    const rows = await importFile(
      'rows.json',
      enc([
        ['a', 'b'],
        [1, null]
      ])
    )
    expect(rows.ok && rows.value[0]?.cells).toEqual([
      ['a', 'b'],
      ['1', '']
    ])
    const records = await importFile('rec.json', enc([{ a: 1 }, { b: true, a: 2 }]))
    expect(records.ok && records.value[0]?.cells).toEqual([
      ['a', 'b'],
      ['1', ''],
      ['2', 'true']
    ])
  })

  it('names the expected layouts when the schema is wrong, and reports invalid JSON', async () => {
    const wrong = await importFile('w.json', enc({ rows: [1, 2] }))
    expect(!wrong.ok && wrong.error.code).toBe('bad-input')
    expect(!wrong.ok && wrong.error.message).toMatch(
      /expected a HiTab table .* an AIT-QA table \(column_header, row_header, data\).*found an object with keys rows/
    )
    const invalid = await importFile('i.json', enc('{"texts": ['))
    expect(!invalid.ok && invalid.error.message).toBe('i.json is not valid JSON.')
  })
})
