import { deflateSync, strToU8, zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { makeXlsx, patchDeclaredSizes } from '../../../../../test/fixtures/import/workbooks'
import type { RawGrid } from '../../../../shared/table'
import { importFile } from './index'
import { importXlsx } from './xlsx'

/** A cell's kind letter ('.' untyped) and, where the kind carries one, its number. */
function stored(grid: RawGrid | undefined, row: number, col: number): [string, number] | string {
  const v = grid?.values
  const k = v?.kinds[row * v.width + col] ?? 0
  const kind = k === 0 ? '.' : String.fromCharCode(k)
  return 'Ndhe'.includes(kind) ? [kind, v?.numbers[row * (v?.width ?? 0) + col] ?? Number.NaN] : kind
}

const SHEET1 =
  '<sheetData>' +
  '<row r="1"><c r="A1" t="s" s="1"><v>0</v></c></row>' +
  '<row r="2"><c r="A2" t="s"><v>1</v></c><c r="B2" t="inlineStr"><is><t>2018</t></is></c><c r="C2" t="inlineStr"><is><r><t>20</t></r><r><t>19</t></r></is></c></row>' +
  '<row r="3"><c r="A3" t="s" s="2"><v>2</v></c><c r="B3"><v>1234</v></c><c r="C3" s="3"><v>1234.5</v></c></row>' +
  '<row r="4"><c r="A4" t="str"><f>A3</f><v>Total_x000D_</v></c><c r="B4" s="4"><v>0.256</v></c><c r="C4" s="5"><v>43831</v></c><c r="D4" t="b"><v>1</v></c></row>' +
  '<row r="1048576"/>' +
  '</sheetData><mergeCells count="2"><mergeCell ref="A1:D1"/><mergeCell ref="B2:B2"/></mergeCells>'

describe('importXlsx', () => {
  it("reads each row's level in the sheet's row outline, and leaves it out when no row is grouped", async () => {
    const grouped =
      '<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Revenue</t></is></c></row>' +
      '<row r="2" outlineLevel="1"><c r="A2" t="inlineStr"><is><t>Sales</t></is></c></row>' +
      '<row r="3" outlineLevel="2" hidden="1"><c r="A3" t="inlineStr"><is><t>Online</t></is></c></row>' +
      '<row r="4" outlineLevel="0"><c r="A4" t="inlineStr"><is><t>Costs</t></is></c></row></sheetData>'
    const r = await importFile(
      'book.xlsx',
      makeXlsx([
        { name: 'Grouped', xml: grouped },
        { name: 'Plain', xml: SHEET1 }
      ])
    )
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(r.value[0]?.outline).toEqual([0, 1, 2, 0])
    expect(r.value[1]?.outline).toBeUndefined()
  })

  it('reads every sheet with shared/inline strings, displayed numbers, merges, bold and indent', async () => {
    const bytes = makeXlsx(
      [
        { name: 'Data', xml: SHEET1 },
        { name: 'Notes', xml: '<sheetData><row r="2"><c r="C2" t="s"><v>3</v></c></row></sheetData>' }
      ],
      ['Title &amp; more', 'Region', 'Cars', 'See <note>'.replace(/</g, '&lt;').replace(/>/g, '&gt;')]
    )
    const r = await importFile('book.xlsx', bytes)
    expect(r.ok).toBe(true)
    if (!r.ok) return
    const [data, notes] = r.value
    expect(data?.name).toBe('book.xlsx › Data')
    expect(data?.cells).toEqual([
      ['Title & more', '', '', ''],
      ['Region', '2018', '2019', ''],
      ['Cars', '1234', '1,234.50', ''],
      ['Total\r', '25.6%', '1/1/2020', 'TRUE']
    ])
    // Beside the text: the value each cell stores. Strings are untyped; a number shown as itself reads from its
    // text; a percentage keeps its fraction and a date its day.
    expect([stored(data, 0, 0), stored(data, 1, 1), stored(data, 2, 1), stored(data, 2, 2)]).toEqual(['.', '.', 'n', 'n'])
    expect([stored(data, 3, 0), stored(data, 3, 1), stored(data, 3, 2), stored(data, 3, 3)]).toEqual([
      '.',
      ['N', 0.256],
      ['d', Date.UTC(2020, 0, 1)],
      't'
    ])
    expect(data?.merges).toEqual([{ top: 0, left: 0, bottom: 0, right: 3 }])
    expect(data?.styles).toEqual({ '0,0': { bold: true }, '2,0': { indent: 2 } })
    expect(notes?.name).toBe('book.xlsx › Notes')
    expect(notes?.cells).toEqual([
      ['', '', ''],
      ['', '', 'See <note>']
    ])
  })

  it('keeps the stored value of rounded numbers, times, durations, ISO dates and errors beside their text', async () => {
    const row =
      '<row r="1"><c r="A1" s="8"><v>15.141</v></c><c r="B1" s="3"><v>-2.5E-3</v></c><c r="C1" s="6"><v>0.75</v></c>' +
      '<c r="D1" s="7"><v>1.5</v></c><c r="E1" t="d"><v>2021-03-04T05:06:07</v></c><c r="F1" t="e"><v>#DIV/0!</v></c>' +
      '<c r="G1" t="b"><v>0</v></c><c r="H1" s="6"><v>45000.25</v></c></row>'
    const r = await importFile('kinds.xlsx', makeXlsx([{ name: 'S', xml: `<sheetData>${row}</sheetData>` }]))
    const grid = r.ok ? r.value[0] : undefined
    expect(grid?.cells).toEqual([['15', '0.00', '18:00', '36:00:00', '2021-03-04T05:06:07', '#DIV/0!', 'FALSE', '6:00']])
    expect(Array.from({ length: 8 }, (_, c) => stored(grid, 0, c))).toEqual([
      ['N', 15.141],
      ['N', -0.0025],
      ['h', 18 * 3_600_000],
      ['e', 36 * 3_600_000],
      ['d', Date.UTC(2021, 2, 4, 5, 6, 7)],
      '0',
      'f',
      // A time format over a serial with a date part: the date and time it stands for.
      ['d', Date.UTC(2023, 2, 15, 6)]
    ])
  })

  it('opens a workbook passed under a .csv name by its zip signature', async () => {
    const r = await importFile(
      'renamed.csv',
      makeXlsx([{ name: 'S', xml: '<sheetData><row r="1"><c r="A1"><v>7</v></c></row></sheetData>' }])
    )
    expect(r.ok && r.value[0]?.cells).toEqual([['7']])
  })

  it('reports a truncated workbook as bad input', async () => {
    const bytes = makeXlsx([{ name: 'S', xml: SHEET1 }])
    for (const cut of [bytes.subarray(0, bytes.length - 40), bytes.subarray(0, 200)]) {
      const r = await importFile('cut.xlsx', cut)
      expect(r.ok).toBe(false)
      if (!r.ok) {
        expect(r.error.code).toBe('bad-input')
        expect(r.error.message).toMatch(/cut\.xlsx is (damaged or truncated|not a format)/)
      }
    }
  })

  it('refuses a zip whose parts declare a huge unpacked size, before inflating', async () => {
    const bomb = patchDeclaredSizes(makeXlsx([{ name: 'S', xml: SHEET1 }]), 0xfffffff0)
    const r = await importFile('bomb.xlsx', bomb)
    expect(r.ok).toBe(false)
    if (!r.ok) {
      expect(r.error.code).toBe('too-large')
      expect(r.error.message).toMatch(/bomb\.xlsx was not opened because .* unpacks to/)
    }
  })

  it('refuses a small zip that really inflates past the limit', () => {
    const zeros = new Uint8Array(8 * 1024 * 1024)
    const bomb = zipSync({ 'xl/workbook.xml': zeros, 'xl/worksheets/sheet1.xml': zeros })
    expect(bomb.length).toBeLessThan(100_000)
    const r = importXlsx('bomb.xlsx', bomb, { maxEntryBytes: 4 * 1024 * 1024, maxTotalBytes: 10 * 1024 * 1024 })
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error.code).toBe('too-large')
    expect(deflateSync(zeros).length).toBeLessThan(50_000)
  })

  it('cuts an entry that inflates past its declared size instead of growing it', async () => {
    const zeros = new Uint8Array(16 * 1024 * 1024)
    const liar = patchDeclaredSizes(zipSync({ 'xl/workbook.xml': zeros }), 64)
    const r = await importFile('liar.xlsx', liar)
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error.code).toBe('bad-input')
  })

  it('reports malformed sheet XML and a zip without a workbook as bad input', async () => {
    const broken = await importFile('broken.xlsx', makeXlsx([{ name: 'S', xml: '<sheetData><row><c><v>1</c></row>' }]))
    expect(!broken.ok && broken.error.code).toBe('bad-input')
    const other = await importFile('other.xlsx', zipSync({ 'readme.txt': strToU8('hello') }))
    expect(!other.ok && other.error.code).toBe('bad-input')
  })

  it('hands an OLE compound file to the legacy .xls reader, which reports an empty header as damaged', async () => {
    const ole = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, ...new Array<number>(504).fill(0)])
    const r = await importFile('old.xls', ole)
    expect(r.ok).toBe(false)
    if (!r.ok) {
      expect(r.error.code).toBe('bad-input')
      expect(r.error.message).toMatch(/old\.xls is damaged or truncated/)
    }
  })
})
