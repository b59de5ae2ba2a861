import { describe, expect, it } from 'vitest'
import { importFile } from './index'

const enc = (s: string): Uint8Array => new TextEncoder().encode(s)

describe('importHtml', () => {
  it('expands rowspan/colspan into merged regions with text in the top-left cell', async () => {
    const html = `<html><body><p>intro</p><table><caption>Sales  by
      region</caption>
      <tr><th rowspan="2">Region</th><th colspan="2">Sales &amp; returns</th></tr>
      <tr><th>2019</th><th>2020</th></tr>
      <tr><td>North<sup class="reference">[1]</sup></td><td>1<br>000</td><td><span style="display:none">!sort</span>  2,000 </td></tr>
      <tr><td colspan="9">Note: footer wider than the table</td></tr>
      </table></body></html>`
    const r = await importFile('page.html', enc(html))
    expect(r.ok).toBe(true)
    if (!r.ok) return
    const [g] = r.value
    expect(r.value.length).toBe(1)
    expect(g?.name).toBe('page.html')
    expect(g?.cells).toEqual([
      ['Region', 'Sales & returns', ''],
      ['', '2019', '2020'],
      ['North', '1\n000', '2,000'],
      ['Note: footer wider than the table', '', '']
    ])
    expect(g?.merges).toEqual([
      { top: 0, left: 0, bottom: 1, right: 0 },
      { top: 0, left: 1, bottom: 0, right: 2 },
      { top: 3, left: 0, bottom: 3, right: 2 }
    ])
    expect(g?.styles?.['0,0']).toEqual({ bold: true, header: true })
    expect(g?.styles?.['2,0']).toBeUndefined()
    expect(g?.hints?.title).toBe('Sales by region')
  })

  it('imports nested tables separately, in document order, and keeps their text in the outer cell', async () => {
    const html =
      '<table><tr><td>outer</td><td><table><tr><td>in1</td><td>in2</td></tr></table></td></tr><tr><td>a</td><td>b</td></tr></table>'
    const r = await importFile('n.htm', enc(html))
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(r.value.map((g) => g.name)).toEqual(['n.htm › Table 1', 'n.htm › Table 2'])
    expect(r.value[0]?.cells).toEqual([
      ['outer', 'in1\nin2'],
      ['a', 'b']
    ])
    expect(r.value[1]?.cells).toEqual([['in1', 'in2']])
  })

  it('handles a rowspan past the last row and rows without <tr>', async () => {
    const r = await importFile('x.html', enc('<table><td rowspan="50">a</td><td>b</td></table>'))
    expect(r.ok && r.value[0]?.cells).toEqual([['a', 'b']])
    expect(r.ok && r.value[0]?.merges).toEqual([])
  })

  it('caps the number of tables with a warning', async () => {
    const html = '<table><tr><td>x</td></tr></table>'.repeat(205)
    const r = await importFile('many.html', enc(html))
    expect(r.ok && r.value.length).toBe(200)
    expect(r.ok && r.value[0]?.warnings.join(' ')).toMatch(/205 tables; only the first 200/)
  })

  it('reports a page without tables as bad input', async () => {
    const r = await importFile('none.html', enc('<html><body><p>no tables</p></body></html>'))
    expect(!r.ok && r.error.code).toBe('bad-input')
    expect(!r.ok && r.error.message).toMatch(/none\.html has no <table>/)
  })
})
