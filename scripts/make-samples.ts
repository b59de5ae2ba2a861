/**
 * Writes the sample tables of the welcome screen into resources/samples (see the README there):
 * a flat CSV, a hierarchical report as XLSX (merged multi-row header, indented row labels) and a
 * two-table SQLite database. The data are made up; a fixed seed makes every run write the same bytes.
 *
 *   npx tsx scripts/make-samples.ts
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { zipSync, strToU8 } from 'fflate'
import initSqlJs from 'sql.js'
import { appRoot } from '../src/main/services/paths'

const OUT = join(appRoot(), 'resources', 'samples')

/** Park–Miller generator: the same numbers on every run. */
function random(seed: number): () => number {
  let state = seed
  return () => {
    state = (state * 48271) % 2147483647
    return state / 2147483647
  }
}

// ---------- orders.csv: wholesale orders of a coffee roaster, one row per order ----------

const CUSTOMERS: [string, string][] = [
  ['Blue Heron Café', 'Halifax'],
  ['Café Ouest, Ltd.', 'Montréal'],
  ['Driftwood Bakery', 'Victoria'],
  ['Granite & Grain', 'Calgary'],
  ['Harbourfront Deli', 'Toronto'],
  ['Maple Row Grocers', 'Ottawa'],
  ['Northern Lights Diner', 'Whitehorse'],
  ['Prairie Cup', 'Regina']
]
const PRODUCTS: [string, number][] = [
  ['Espresso blend 1 kg', 31.5],
  ['House blend 1 kg', 27.0],
  ['Single origin Huila 1 kg', 38.75],
  ['Decaf Swiss water 1 kg', 33.25],
  ['Earl Grey tea 500 g', 18.4],
  ['Green sencha tea 500 g', 21.9]
]

function csvField(text: string): string {
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

function ordersCsv(): string {
  const next = random(20240101)
  const lines = ['order_id,date,customer,city,product,bags,price_per_bag,total']
  let day = 0
  for (let i = 0; i < 60; i++) {
    day += 1 + Math.floor(next() * 6)
    const date = new Date(Date.UTC(2024, 0, 1 + day)).toISOString().slice(0, 10)
    const [customer, city] = CUSTOMERS[Math.floor(next() * CUSTOMERS.length)] ?? ['', '']
    const [product, price] = PRODUCTS[Math.floor(next() * PRODUCTS.length)] ?? ['', 0]
    const bags = 2 + Math.floor(next() * 24)
    const total = (bags * price).toFixed(2)
    lines.push([`A-${1001 + i}`, date, customer, city, product, String(bags), price.toFixed(2), total].map(csvField).join(','))
  }
  return `${lines.join('\n')}\n`
}

// ---------- regional-report.xlsx: revenue and units by region and product line ----------

const REGIONS = ['Atlantic', 'Central', 'Prairies', 'Pacific']
const LINES = ['Whole-bean coffee', 'Ground coffee', 'Tea', 'Brewing equipment']
const LINE_SCALE = [420, 260, 110, 70]
const REGION_SCALE = [0.55, 1.6, 0.8, 1.1]

type Cell = { text?: string; value?: number; style: number }
type Merge = [number, number, number, number]

/** [H1, H2] of revenue ($ thousands) and of units (thousands), for 2023 then 2024. */
type Figures = { revenue: number[]; units: number[] }

function reportFigures(): Map<string, Figures> {
  const next = random(7321)
  const out = new Map<string, Figures>()
  REGIONS.forEach((region, r) => {
    LINES.forEach((line, l) => {
      const base = (LINE_SCALE[l] ?? 100) * (REGION_SCALE[r] ?? 1)
      const growth = 0.96 + next() * 0.16
      const revenue = [0.47, 0.53, 0.47 * growth, 0.53 * growth].map((share) => Math.round(base * share * (0.95 + next() * 0.1) * 10) / 10)
      const price = l === 3 ? 95 : l === 2 ? 14 : 22
      const units = revenue.map((v) => Math.round((v * 1000) / price / 100) / 10)
      out.set(`${region}|${line}`, { revenue, units })
    })
  })
  return out
}

function add(a: Figures, b: Figures): Figures {
  const sum = (x: number[], y: number[]): number[] => x.map((v, i) => Math.round((v + (y[i] ?? 0)) * 10) / 10)
  return { revenue: sum(a.revenue, b.revenue), units: sum(a.units, b.units) }
}

const STYLE = { text: 0, header: 1, bold: 2, indented: 3, revenue: 4, units: 5, boldRevenue: 6, boldUnits: 7, change: 8, boldChange: 9 }

function figureRow(label: string, f: Figures, bold: boolean): Cell[] {
  const [r1, r2, r3, r4] = f.revenue as [number, number, number, number]
  const [u1, u2, u3, u4] = f.units as [number, number, number, number]
  const change = Math.round(((r3 + r4) / (r1 + r2) - 1) * 1000) / 10
  const rev = bold ? STYLE.boldRevenue : STYLE.revenue
  const uni = bold ? STYLE.boldUnits : STYLE.units
  return [
    { text: label, style: bold ? STYLE.bold : STYLE.indented },
    { value: r1, style: rev },
    { value: r2, style: rev },
    { value: u1, style: uni },
    { value: u2, style: uni },
    { value: r3, style: rev },
    { value: r4, style: rev },
    { value: u3, style: uni },
    { value: u4, style: uni },
    { value: change, style: bold ? STYLE.boldChange : STYLE.change }
  ]
}

function reportSheet(): { rows: Cell[][]; merges: Merge[] } {
  const h = (text: string): Cell => ({ text, style: STYLE.header })
  const blank: Cell = { style: STYLE.header }
  const rows: Cell[][] = [
    [h('Region / product line'), h('2023'), blank, blank, blank, h('2024'), blank, blank, blank, h('Revenue change, 2023 to 2024 (%)')],
    [
      blank,
      h('Revenue ($ thousands)'),
      blank,
      h('Units sold (thousands)'),
      blank,
      h('Revenue ($ thousands)'),
      blank,
      h('Units sold (thousands)'),
      blank,
      blank
    ],
    [blank, h('H1'), h('H2'), h('H1'), h('H2'), h('H1'), h('H2'), h('H1'), h('H2'), blank]
  ]
  // [top, left, bottom, right], 0-based
  const merges: Merge[] = [
    [0, 0, 2, 0],
    [0, 1, 0, 4],
    [0, 5, 0, 8],
    [0, 9, 2, 9],
    [1, 1, 1, 2],
    [1, 3, 1, 4],
    [1, 5, 1, 6],
    [1, 7, 1, 8]
  ]
  const figures = reportFigures()
  const zero: Figures = { revenue: [0, 0, 0, 0], units: [0, 0, 0, 0] }
  let all = zero
  for (const region of REGIONS) {
    let total = zero
    const lines: Cell[][] = []
    for (const line of LINES) {
      const f = figures.get(`${region}|${line}`) ?? zero
      total = add(total, f)
      lines.push(figureRow(line, f, false))
    }
    all = add(all, total)
    rows.push(figureRow(region, total, true), ...lines)
  }
  rows.push(figureRow('All regions', all, true))
  return { rows, merges }
}

function columnName(c: number): string {
  let name = ''
  for (let n = c + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name
  return name
}

function xmlEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'

function sheetXml(rows: Cell[][], merges: Merge[]): string {
  const body = rows
    .map((cells, r) => {
      const xml = cells
        .map((cell, c) => {
          const ref = `${columnName(c)}${r + 1}`
          if (cell.value !== undefined) return `<c r="${ref}" s="${cell.style}"><v>${cell.value}</v></c>`
          if (cell.text !== undefined) return `<c r="${ref}" s="${cell.style}" t="inlineStr"><is><t>${xmlEscape(cell.text)}</t></is></c>`
          return `<c r="${ref}" s="${cell.style}"/>`
        })
        .join('')
      return `<row r="${r + 1}">${xml}</row>`
    })
    .join('')
  const ref = ([t, l, b, rt]: Merge): string => `${columnName(l)}${t + 1}:${columnName(rt)}${b + 1}`
  return (
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="${NS}" xmlns:r="${REL}">` +
    `<cols><col min="1" max="1" width="26" customWidth="1"/><col min="2" max="9" width="12" customWidth="1"/><col min="10" max="10" width="18" customWidth="1"/></cols>` +
    `<sheetData>${body}</sheetData><mergeCells count="${merges.length}">${merges.map((m) => `<mergeCell ref="${ref(m)}"/>`).join('')}</mergeCells></worksheet>`
  )
}

const STYLES_XML =
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<styleSheet xmlns="${NS}">` +
  `<numFmts count="2"><numFmt numFmtId="164" formatCode="#,##0.0"/><numFmt numFmtId="165" formatCode="0.0"/></numFmts>` +
  `<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>` +
  `<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>` +
  `<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>` +
  `<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>` +
  `<cellXfs count="10">` +
  `<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>` +
  `<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1" applyAlignment="1"><alignment horizontal="center" vertical="center" wrapText="1"/></xf>` +
  `<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>` +
  `<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0" applyAlignment="1"><alignment indent="1"/></xf>` +
  `<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>` +
  `<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>` +
  `<xf numFmtId="164" fontId="1" fillId="0" borderId="0" xfId="0" applyNumberFormat="1" applyFont="1"/>` +
  `<xf numFmtId="164" fontId="1" fillId="0" borderId="0" xfId="0" applyNumberFormat="1" applyFont="1"/>` +
  `<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>` +
  `<xf numFmtId="165" fontId="1" fillId="0" borderId="0" xfId="0" applyNumberFormat="1" applyFont="1"/>` +
  `</cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`

function reportXlsx(): Uint8Array {
  const { rows, merges } = reportSheet()
  const xml = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
  const files: Record<string, string> = {
    '[Content_Types].xml':
      `${xml}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>` +
      `<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>` +
      `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>` +
      `<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`,
    '_rels/.rels': `${xml}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    'xl/workbook.xml': `${xml}<workbook xmlns="${NS}" xmlns:r="${REL}"><sheets><sheet name="Revenue by region" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    'xl/_rels/workbook.xml.rels':
      `${xml}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
      `<Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL}/styles" Target="styles.xml"/></Relationships>`,
    'xl/styles.xml': STYLES_XML,
    'xl/worksheets/sheet1.xml': sheetXml(rows, merges)
  }
  const mtime = new Date('2024-01-01T00:00:00Z')
  return zipSync(Object.fromEntries(Object.entries(files).map(([path, text]) => [path, [strToU8(text), { mtime }]])), { level: 9 })
}

// ---------- bookshop.sqlite: authors and the books they wrote ----------

const AUTHORS: [string, string, number][] = [
  ['Mirela Vantu', 'Romania', 1968],
  ['Tomás Ibarra', 'Chile', 1975],
  ['Edith Marchbank', 'Canada', 1952],
  ['Kofi Asante-Mensah', 'Ghana', 1981],
  ['Ines Lindqvist', 'Sweden', 1990],
  ['Hiroshi Tanabe', 'Japan', 1963]
]
const GENRES = ['novel', 'short stories', 'essays', 'mystery', 'poetry']
const TITLE_WORDS = ['Salt', 'Winter', 'Harbour', 'Lantern', 'Orchard', 'Glass', 'River', 'Quiet', 'Northern', 'Paper', 'Iron', 'Summer']
const TITLE_NOUNS = ['Letters', 'Houses', 'Crossing', 'Season', 'Maps', 'Garden', 'Hours', 'Tides', 'Ledger', 'Voices']

async function bookshopSqlite(): Promise<Uint8Array> {
  const SQL = await initSqlJs()
  const db = new SQL.Database()
  db.run(`CREATE TABLE authors (author_id INTEGER PRIMARY KEY, name TEXT NOT NULL, country TEXT, born INTEGER);
CREATE TABLE books (book_id INTEGER PRIMARY KEY, title TEXT NOT NULL, author_id INTEGER NOT NULL REFERENCES authors(author_id),
  genre TEXT, year INTEGER, pages INTEGER, price REAL, copies_sold INTEGER);`)
  AUTHORS.forEach(([name, country, born], i) => db.run('INSERT INTO authors VALUES (?, ?, ?, ?)', [i + 1, name, country, born]))
  const next = random(4242)
  const used = new Set<string>()
  for (let id = 1; id <= 24; id++) {
    let title = ''
    do title = `The ${TITLE_WORDS[Math.floor(next() * TITLE_WORDS.length)]} ${TITLE_NOUNS[Math.floor(next() * TITLE_NOUNS.length)]}`
    while (used.has(title))
    used.add(title)
    const author = 1 + Math.floor(next() * AUTHORS.length)
    const born = AUTHORS[author - 1]?.[2] ?? 1970
    const year = Math.max(born + 24, 1990) + Math.floor(next() * 30)
    const genre = GENRES[Math.floor(next() * GENRES.length)] ?? 'novel'
    const pages = genre === 'poetry' ? 60 + Math.floor(next() * 60) : 180 + Math.floor(next() * 320)
    const price = Math.round((14 + next() * 22) * 100) / 100 - 0.01
    const sold = Math.round(800 + next() * next() * 42_000)
    db.run('INSERT INTO books VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [
      id,
      title,
      author,
      genre,
      Math.min(year, 2024),
      pages,
      Math.round(price * 100) / 100,
      sold
    ])
  }
  const bytes = db.export()
  db.close()
  return bytes
}

writeFileSync(join(OUT, 'orders.csv'), ordersCsv())
writeFileSync(join(OUT, 'regional-report.xlsx'), reportXlsx())
writeFileSync(join(OUT, 'bookshop.sqlite'), await bookshopSqlite())
console.log(`samples written to ${OUT}`)
