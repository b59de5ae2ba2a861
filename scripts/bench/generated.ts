/**
 * Generated tables for the benchmarks: a CSV of 200,000 × 20 (labels, decimals, numbers with thousands
 * separators) and a workbook of the same shape whose numbers have formats (rounded decimals, percentages,
 * thousands, dates), both from a fixed seed.
 */
import { strToU8, zipSync } from 'fflate'

export const ROWS = 200_000
export const COLS = 20

function random(): () => number {
  let seed = 12345
  return () => {
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed / 2147483648
  }
}

export function generatedCsv(rows = ROWS, cols = COLS): Uint8Array {
  const lines: string[] = [['region', ...Array.from({ length: cols - 1 }, (_, j) => `measure ${j + 1}`)].join(',')]
  const next = random()
  for (let i = 0; i < rows; i++) {
    const row = [`region ${i % 97}`]
    for (let j = 1; j < cols; j++)
      row.push(j % 5 === 0 ? `"${Math.floor(next() * 1e6).toLocaleString('en-US')}"` : (next() * 1000).toFixed(2))
    lines.push(row.join(','))
  }
  return new TextEncoder().encode(lines.join('\n'))
}

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'

/** Column j's style: 1 "#,##0", 2 "0.0%", 3 "0.0" (the stored value has more decimals), 4 a date, 0 General. */
function styleOf(j: number): number {
  return j % 5 === 0 ? 1 : j % 4 === 1 ? 2 : j % 4 === 2 ? 3 : j % 4 === 3 ? 4 : 0
}

/** A one-sheet workbook: a header row, a label column of shared strings, numbers with the formats above. */
export function generatedXlsx(rows = ROWS, cols = COLS): Uint8Array {
  const next = random()
  const regions = Array.from({ length: 97 }, (_, k) => `region ${k}`)
  const header = ['region', ...Array.from({ length: cols - 1 }, (_, j) => `measure ${j + 1}`)]
  const strings = [...regions, ...header]
  const parts: string[] = [`<?xml version="1.0"?><worksheet xmlns="${NS}"><sheetData>`]
  parts.push(`<row r="1">${header.map((_, j) => `<c t="s"><v>${regions.length + j}</v></c>`).join('')}</row>`)
  for (let i = 0; i < rows; i++) {
    const cells = [`<c t="s"><v>${i % 97}</v></c>`]
    for (let j = 1; j < cols; j++) {
      const s = styleOf(j)
      const v = s === 1 ? Math.floor(next() * 1e6) : s === 2 ? next() : s === 4 ? 40000 + Math.floor(next() * 3000) : next() * 1000
      cells.push(`<c s="${s}"><v>${v}</v></c>`)
    }
    parts.push(`<row r="${i + 2}">${cells.join('')}</row>`)
  }
  parts.push('</sheetData></worksheet>')
  const rel = (id: string, type: string, target: string): string => `<Relationship Id="${id}" Type="${REL}/${type}" Target="${target}"/>`
  const rels = (body: string): Uint8Array =>
    strToU8(
      `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${body}</Relationships>`
    )
  return zipSync({
    '[Content_Types].xml': strToU8('<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
    '_rels/.rels': rels(rel('r1', 'officeDocument', 'xl/workbook.xml')),
    'xl/workbook.xml': strToU8(
      `<?xml version="1.0"?><workbook xmlns="${NS}" xmlns:r="${REL}"><sheets><sheet name="Data" sheetId="1" r:id="r1"/></sheets></workbook>`
    ),
    'xl/_rels/workbook.xml.rels': rels(
      rel('r1', 'worksheet', 'worksheets/sheet1.xml') + rel('r2', 'sharedStrings', 'sharedStrings.xml') + rel('r3', 'styles', 'styles.xml')
    ),
    'xl/sharedStrings.xml': strToU8(`<?xml version="1.0"?><sst xmlns="${NS}">${strings.map((s) => `<si><t>${s}</t></si>`).join('')}</sst>`),
    'xl/styles.xml': strToU8(
      `<?xml version="1.0"?><styleSheet xmlns="${NS}"><numFmts count="2"><numFmt numFmtId="164" formatCode="0.0%"/>` +
        '<numFmt numFmtId="165" formatCode="0.0"/></numFmts><fonts count="1"><font/></fonts><cellXfs count="5"><xf numFmtId="0"/>' +
        '<xf numFmtId="3"/><xf numFmtId="164"/><xf numFmtId="165"/><xf numFmtId="14"/></cellXfs></styleSheet>'
    ),
    'xl/worksheets/sheet1.xml': strToU8(parts.join(''))
  })
}
