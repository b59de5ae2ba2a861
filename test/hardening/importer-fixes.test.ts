import { describe, expect, it } from 'vitest'
import { importFileSync } from '../../src/main/services/tables/import'
import { readZip } from '../../src/main/services/tables/import/zip'
import { repeatedEntry, writeZip } from '../fixtures/bad-files/zip-writer'

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s)

describe('importer fixes found by the bad-files corpus', () => {
  it('refuses an archive over the total limit before inflating any part', () => {
    const part = repeatedEntry('a.xml', 32, 3 * 1024 * 1024)
    // The first part cannot be inflated at all: reading it would end in "damaged", so "too large" proves no part was inflated.
    const broken = { ...part, data: new Uint8Array(part.data.length).fill(0xff) }
    const zip = writeZip([broken, { ...part, name: 'b.xml' }, { ...part, name: 'c.xml' }])
    const result = readZip('t.xlsx', zip, () => true, { maxEntryBytes: 4 * 1024 * 1024, maxTotalBytes: 5 * 1024 * 1024 })
    expect(result.ok).toBe(false)
    if (!result.ok)
      expect(result.error).toMatchObject({ code: 'too-large', message: 't.xlsx was not opened because it unpacks to more than 5 MB.' })
    expect(readZip('t.xlsx', zip, () => true, { maxEntryBytes: 4 * 1024 * 1024, maxTotalBytes: 10 * 1024 * 1024 })).toMatchObject({
      ok: false,
      error: { code: 'bad-input' }
    })
  })

  it('gives a clear message for JSON nested too deeply instead of an internal error', () => {
    const deep = `[${'['.repeat(100_000)}1${']'.repeat(100_000)}]`
    const result = importFileSync('deep.json', utf8(deep))
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'bad-input', message: 'deep.json is nested too deeply to be read as a table.' }
    })
    expect(importFileSync('fine.json', utf8('[["a"],[{"b":{"c":1}}]]')).ok).toBe(true)
  })

  it('bounds an HTML table by its whole size, so wide colspans in many rows stay within the cell limit and fast', () => {
    const html = `<table>${`<tr>${'<td colspan="1000">w</td>'.repeat(20)}</tr>`.repeat(2_000)}</table>`
    const started = performance.now()
    const result = importFileSync('storm.html', utf8(html))
    const ms = performance.now() - started
    expect(result.ok).toBe(true)
    if (!result.ok) return
    const grid = result.value[0]
    const cells = (grid?.cells.length ?? 0) * (grid?.cells[0]?.length ?? 0)
    expect(cells).toBeLessThanOrEqual(20_000_000)
    expect(grid?.warnings).toContain('Some cells were left out because the table would be too large.')
    expect(ms).toBeLessThan(8_000)
  })
})
