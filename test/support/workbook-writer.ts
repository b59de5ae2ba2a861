/**
 * Writes XLSX workbooks for tests: sheets of cell text (plain numbers stored as numbers) with their
 * merged regions. Enough of the format for the app's importer and for spreadsheet programs to open.
 */
import { strToU8, zipSync } from 'fflate'
import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { importFileSync } from '../../src/main/services/tables/import'

export type SheetData = { name: string; rows: readonly (readonly string[])[]; merges?: readonly MergeRange[] }
type MergeRange = { top: number; left: number; bottom: number; right: number }

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
const PACKAGE_REL = 'http://schemas.openxmlformats.org/package/2006/relationships'
const CONTENT = 'application/vnd.openxmlformats-officedocument.spreadsheetml'
const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
const PLAIN_NUMBER = /^-?(\d+\.?\d*|\.\d+)(E[-+]?\d+)?$/i

function columnName(c: number): string {
  let name = ''
  for (let n = c + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name
  return name
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}

function sheetXml(sheet: SheetData): string {
  const rows = sheet.rows
    .map((cells, r) => {
      const xml = cells
        .map((text, c) => {
          if (text === '') return ''
          const ref = `${columnName(c)}${r + 1}`
          if (PLAIN_NUMBER.test(text)) return `<c r="${ref}"><v>${text}</v></c>`
          return `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${escape(text)}</t></is></c>`
        })
        .join('')
      return `<row r="${r + 1}">${xml}</row>`
    })
    .join('')
  const merges = sheet.merges ?? []
  const ref = (m: MergeRange): string => `${columnName(m.left)}${m.top + 1}:${columnName(m.right)}${m.bottom + 1}`
  const mergeXml =
    merges.length > 0
      ? `<mergeCells count="${merges.length}">${merges.map((m) => `<mergeCell ref="${ref(m)}"/>`).join('')}</mergeCells>`
      : ''
  return `${XML}<worksheet xmlns="${NS}" xmlns:r="${REL}"><sheetData>${rows}</sheetData>${mergeXml}</worksheet>`
}

/** An XLSX workbook of the given sheets, in order. */
export function writeXlsx(sheets: readonly SheetData[]): Uint8Array {
  const files: Record<string, string> = {
    '[Content_Types].xml':
      `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>` +
      `<Override PartName="/xl/workbook.xml" ContentType="${CONTENT}.sheet.main+xml"/>` +
      sheets.map((_s, k) => `<Override PartName="/xl/worksheets/sheet${k + 1}.xml" ContentType="${CONTENT}.worksheet+xml"/>`).join('') +
      '</Types>',
    '_rels/.rels': `${XML}<Relationships xmlns="${PACKAGE_REL}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    'xl/workbook.xml':
      `${XML}<workbook xmlns="${NS}" xmlns:r="${REL}"><sheets>` +
      sheets.map((s, k) => `<sheet name="${escape(s.name)}" sheetId="${k + 1}" r:id="rId${k + 1}"/>`).join('') +
      '</sheets></workbook>',
    'xl/_rels/workbook.xml.rels':
      `${XML}<Relationships xmlns="${PACKAGE_REL}">` +
      sheets.map((_s, k) => `<Relationship Id="rId${k + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${k + 1}.xml"/>`).join('') +
      '</Relationships>'
  }
  sheets.forEach((s, k) => (files[`xl/worksheets/sheet${k + 1}.xml`] = sheetXml(s)))
  return zipSync(Object.fromEntries(Object.entries(files).map(([path, text]) => [path, strToU8(text)])))
}

/**
 * The tables of real workbooks as sheets of one new workbook: each table (a sheet, or one of the tables
 * side by side on a sheet) becomes a sheet named "<title> – <its sheet>", in the order of `sources`.
 */
export function sheetsOf(sources: readonly { path: string; title: string }[]): SheetData[] {
  return sources.flatMap(({ path, title }) => {
    const grids = importFileSync(basename(path), new Uint8Array(readFileSync(path)))
    if (!grids.ok) throw new Error(`${path} did not import: ${grids.error.message}`)
    return grids.value.map((grid) => ({
      name: `${title} – ${grid.name.slice(grid.name.indexOf(' › ') + 3)}`,
      rows: grid.cells,
      merges: grid.merges
    }))
  })
}
