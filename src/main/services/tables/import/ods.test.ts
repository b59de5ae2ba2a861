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
