import { describe, expect, it } from 'vitest'
import { makeOds } from '../../../../../test/fixtures/import/workbooks'
import { importFile } from './index'

const STYLES =
  '<style:style style:name="ceBold" style:family="table-cell"><style:text-properties fo:font-weight="bold"/></style:style>' +
  '<style:style style:name="ceIndent" style:family="table-cell"><style:paragraph-properties fo:margin-left="0.706cm"/></style:style>' +
  '<style:style style:name="ceChild" style:family="table-cell" style:parent-style-name="ceBold"/>'

const TABLE =
  '<table:table table:name="Main">' +
  '<table:table-column table:number-columns-repeated="1024"/>' +
  '<table:table-row><table:table-cell table:style-name="ceBold" table:number-columns-spanned="3" office:value-type="string"><text:p>Title</text:p></table:table-cell>' +
  '<table:covered-table-cell table:number-columns-repeated="2"/><table:table-cell table:number-columns-repeated="1021"/></table:table-row>' +
  '<table:table-row><table:table-cell table:number-rows-spanned="2"><text:p>Region</text:p></table:table-cell>' +
  '<table:table-cell office:value-type="float" office:value="1234.5"><text:p>1,234.50</text:p></table:table-cell>' +
  '<table:table-cell><text:p>a<text:s text:c="2"/>b</text:p><text:p>second</text:p><office:annotation><text:p>comment</text:p></office:annotation></table:table-cell></table:table-row>' +
  '<table:table-row><table:covered-table-cell/><table:table-cell table:style-name="ceIndent" table:number-columns-repeated="2"><text:p>x</text:p></table:table-cell></table:table-row>' +
  '<table:table-row table:number-rows-repeated="1048000"><table:table-cell table:number-columns-repeated="1024"/></table:table-row>' +
  '<table:table-row><table:table-cell table:style-name="ceChild" office:value-type="float" office:value="5"/></table:table-row>' +
  '</table:table>'

describe('importOds', () => {
  it('reads displayed text, spans, repeated cells, inherited bold and indent; skips comments', async () => {
    const r = await importFile('book.ods', makeOds(TABLE + '<table:table table:name="Empty"/>', STYLES))
    expect(r.ok).toBe(true)
    if (!r.ok) return
    const [main, empty] = r.value
    expect(main?.name).toBe('book.ods › Main')
    expect(main?.cells.length).toBe(1048004)
    expect(main?.cells.slice(0, 3)).toEqual([
      ['Title', '', ''],
      ['Region', '1,234.50', 'a  b\nsecond'],
      ['', 'x', 'x']
    ])
    expect(main?.cells[1048003]).toEqual(['5', '', ''])
    expect(main?.merges).toEqual([
      { top: 0, left: 0, bottom: 0, right: 2 },
      { top: 1, left: 0, bottom: 2, right: 0 }
    ])
    expect(main?.styles).toEqual({ '0,0': { bold: true }, '2,1': { indent: 2 }, '2,2': { indent: 2 }, '1048003,0': { bold: true } })
    expect(empty?.cells).toEqual([])
    expect(empty?.warnings.join(' ')).toMatch(/empty/)
  })

  it('keeps the value each cell stores beside its text: numbers, percentages, dates, times, truth values, errors', async () => {
    const cell = (attrs: string, text: string): string => `<table:table-cell ${attrs}><text:p>${text}</text:p></table:table-cell>`
    const table =
      '<table:table table:name="T"><table:table-row>' +
      cell('office:value-type="float" office:value="15.141"', '15') +
      cell('office:value-type="percentage" office:value="0.12"', '12 %') +
      cell('office:value-type="currency" office:currency="GBP" office:value="1234"', '£1,234') +
      cell('office:value-type="date" office:date-value="2020-01-02"', '02/01/2020') +
      cell('office:value-type="date" office:date-value="2020-01-02T10:30:00"', '02/01/2020 10:30') +
      cell('office:value-type="time" office:time-value="PT10H30M00S"', '10:30') +
      cell('office:value-type="time" office:time-value="PT36H00M00S"', '36:00') +
      cell('office:value-type="boolean" office:boolean-value="true"', 'TRUE') +
      cell('office:value-type="string" calcext:value-type="error"', '#DIV/0!') +
      cell('office:value-type="float" office:value="2016"', '2016') +
      cell('office:value-type="string"', '2017') +
      '</table:table-row></table:table>'
    const r = await importFile('kinds.ods', makeOds(table))
    const grid = r.ok ? r.value[0] : undefined
    expect(grid?.cells[0]?.[1]).toBe('12 %')
    const v = grid?.values
    const kinds = Array.from(v?.kinds ?? [], (k) => (k === 0 ? '.' : String.fromCharCode(k))).join('')
    expect(kinds).toBe('NNNddhet0n.')
    expect(Array.from(v?.numbers ?? []).slice(0, 7)).toEqual([
      15.141,
      0.12,
      1234,
      Date.UTC(2020, 0, 2),
      Date.UTC(2020, 0, 2, 10, 30),
      10.5 * 3_600_000,
      36 * 3_600_000
    ])
  })

  it('caps non-empty repeated rows with a warning', async () => {
    const table =
      '<table:table table:name="T"><table:table-row table:number-rows-repeated="5000"><table:table-cell><text:p>same</text:p></table:table-cell></table:table-row></table:table>'
    const r = await importFile('rep.ods', makeOds(table))
    expect(r.ok && r.value[0]?.cells.length).toBe(1000)
    expect(r.ok && r.value[0]?.warnings.join(' ')).toMatch(/beyond 1000 copies/)
  })

  it('reports a missing content.xml and broken XML as bad input', async () => {
    const broken = await importFile('b.ods', makeOds('<table:table><table:table-row></table:table>'))
    expect(!broken.ok && broken.error.code).toBe('bad-input')
  })
})
