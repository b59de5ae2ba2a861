import { describe, expect, it } from 'vitest'
import type { RawGrid } from '../../../../shared/table'
import { parseCsv, sniffDialect, type CsvDialect } from './csv'
import { importFile } from './index'

const RFC: CsvDialect = { delimiter: ',', quote: '"', escape: 'double' }
const enc = (s: string): Uint8Array => new TextEncoder().encode(s)

async function grids(name: string, bytes: Uint8Array): Promise<RawGrid[]> {
  const r = await importFile(name, bytes)
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`)
  return r.value
}

function utf16(s: string, littleEndian: boolean, bom: boolean): Uint8Array {
  const out = new Uint8Array((s.length + (bom ? 1 : 0)) * 2)
  const view = new DataView(out.buffer)
  let k = 0
  if (bom) view.setUint16(k++ * 2, 0xfeff, littleEndian)
  for (let i = 0; i < s.length; i++) view.setUint16(k++ * 2, s.charCodeAt(i), littleEndian)
  return out
}

describe('parseCsv', () => {
  it('reads RFC 4180 doubled quotes, delimiters and newlines inside quotes, CRLF', () => {
    const rows = parseCsv('a,"b ""q"", c","line1\r\nline2"\r\n1,2,3\r\n', RFC)
    expect(rows).toEqual([
      ['a', 'b "q", c', 'line1\r\nline2'],
      ['1', '2', '3']
    ])
  })

  it('reads backslash-escaped quotes and backslashes (WikiTQ style)', () => {
    const rows = parseCsv('"Time","Path"\n"5h 29\' 10\\"","C:\\\\dir"\n', { ...RFC, escape: 'backslash' })
    expect(rows).toEqual([
      ['Time', 'Path'],
      ['5h 29\' 10"', 'C:\\dir']
    ])
  })

  it('keeps empty fields, a trailing delimiter and skips blank lines', () => {
    expect(parseCsv('a,,c,\n\n\n,,\n', RFC)).toEqual([
      ['a', '', 'c', ''],
      ['', '', '']
    ])
  })

  it('keeps an unterminated quoted field instead of failing', () => {
    expect(parseCsv('a,"open\nstill', RFC)).toEqual([['a', 'open\nstill']])
  })
})

describe('sniffDialect', () => {
  it.each([
    [';', 'name;value;unit\nx;1,5;kg\ny;2,25;kg\n'],
    ['\t', 'name\tvalue, note\nx\t1, a, b\ny\t2\n'],
    ['|', 'a|b|c\n1|2|3\n4|5|6\n'],
    [',', 'a,b,c\n1,"2;3",4\n5,6,7\n']
  ])('picks %j', (delimiter, text) => {
    expect(sniffDialect(text, ',').delimiter).toBe(delimiter)
  })

  it('detects single-quoted fields', () => {
    expect(sniffDialect("'a,b',c\n'd,e',f\n", ',').quote).toBe("'")
  })

  it('chooses backslash escaping only when the text has an escaped quote', () => {
    expect(sniffDialect('"a","b \\"x\\""\n', ',').escape).toBe('backslash')
    expect(sniffDialect('"a","b ""x"""\n', ',').escape).toBe('double')
  })
})

describe('importFile on delimited text', () => {
  it('imports a CSV with a UTF-8 BOM and no warnings', async () => {
    const [g] = await grids('t.csv', new Uint8Array([0xef, 0xbb, 0xbf, ...enc('Größe,Wert\nä,1\n')]))
    expect(g?.cells).toEqual([
      ['Größe', 'Wert'],
      ['ä', '1']
    ])
    expect(g?.warnings).toEqual([])
  })

  it.each([
    ['LE with BOM', true, true],
    ['BE with BOM', false, true],
    ['LE without BOM', true, false],
    ['BE without BOM', false, false]
  ])('decodes UTF-16 %s', async (_label, le, bom) => {
    const [g] = await grids('u.csv', utf16('city,pop\nZürich,421878\n', le, bom))
    expect(g?.cells).toEqual([
      ['city', 'pop'],
      ['Zürich', '421878']
    ])
  })

  it('falls back to windows-1252 with a warning when the bytes are not UTF-8', async () => {
    const bytes = new Uint8Array([...enc('name,price\nCaf'), 0xe9, ...enc(','), 0x80, ...enc('5\n')])
    const [g] = await grids('latin.csv', bytes)
    expect(g?.cells[1]).toEqual(['Café', '€5'])
    expect(g?.warnings.join(' ')).toMatch(/not valid UTF-8.*Latin-1/)
  })

  it('pads ragged rows to the widest row and says so', async () => {
    const [g] = await grids('r.csv', enc('a,b,c\n1\n2,3,4,5\n'))
    expect(g?.cells).toEqual([
      ['a', 'b', 'c', ''],
      ['1', '', '', ''],
      ['2', '3', '4', '5']
    ])
    expect(g?.warnings.join(' ')).toMatch(/2 of 3 rows .* padded/)
  })

  it('uses the TSV extension as the tie-break delimiter', async () => {
    const [g] = await grids('x.tsv', enc('a\tb\n1\t2\n'))
    expect(g?.cells).toEqual([
      ['a', 'b'],
      ['1', '2']
    ])
  })

  it('rejects an empty or blank file as bad input naming the file', async () => {
    for (const bytes of [new Uint8Array(0), enc('  \n\r\n'), new Uint8Array([0xef, 0xbb, 0xbf])]) {
      const r = await importFile('empty.csv', bytes)
      expect(r.ok).toBe(false)
      if (!r.ok) {
        expect(r.error.code).toBe('bad-input')
        expect(r.error.message).toBe('empty.csv is empty.')
      }
    }
  })

  it('rejects binary garbage named .csv as an unsupported format', async () => {
    let seed = 7
    const noise = Uint8Array.from({ length: 4096 }, () => ((seed = (seed * 1103515245 + 12345) % 2147483648) >> 16) & 0xff)
    const controls = Uint8Array.from({ length: 2000 }, (_v, k) => (k % 3 === 0 ? 0x01 : 0x41))
    for (const bytes of [noise, controls]) {
      const r = await importFile('data.csv', bytes)
      expect(r.ok).toBe(false)
      if (!r.ok) {
        expect(r.error.code).toBe('unsupported-format')
        expect(r.error.message).toMatch(/data\.csv does not look like a text table/)
      }
    }
  })

  it('imports 10,000 columns and a 1×1 file', async () => {
    const header = Array.from({ length: 10_000 }, (_v, k) => `c${k}`).join(',')
    const [wide] = await grids('wide.csv', enc(`${header}\n${header}\n`))
    expect(wide?.cells.length).toBe(2)
    expect(wide?.cells[1]?.length).toBe(10_000)
    expect(wide?.cells[1]?.[9999]).toBe('c9999')
    const [one] = await grids('one.csv', enc('x'))
    expect(one?.cells).toEqual([['x']])
  })

  it('imports a generated 200,000 × 20 CSV', async () => {
    const lines = [Array.from({ length: 20 }, (_v, j) => `col ${j}`).join(',')]
    for (let i = 0; i < 200_000; i++) {
      const row = [`row ${i}`]
      for (let j = 1; j < 20; j++) row.push(j % 5 === 0 ? `"${(i * j).toLocaleString('en-US')}"` : ((i * 31 + j * 7) % 1000).toFixed(2))
      lines.push(row.join(','))
    }
    const bytes = enc(lines.join('\n'))
    const start = performance.now()
    const [g] = await grids('big.csv', bytes)
    const ms = performance.now() - start
    console.log(`200,000 × 20 CSV (${(bytes.length / 1e6).toFixed(1)} MB) imported in ${ms.toFixed(0)} ms`)
    expect(g?.cells.length).toBe(200_001)
    expect(g?.cells[200_000]?.[0]).toBe('row 199999')
    expect(g?.cells[200_000]?.[5]).toBe((199_999 * 5).toLocaleString('en-US'))
    expect(g?.warnings).toEqual([])
  })
})
