import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { RawGrid } from '../../../../shared/table'
import { importFile } from './index'
import { importXls } from './xls'

// ---- building .xls bytes: BIFF8 records in a version-3 compound file -----------------------------

type Bytes = Uint8Array | number[]
const cat = (...parts: Bytes[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}
const u16 = (n: number): number[] => [n & 0xff, (n >> 8) & 0xff]
const u32 = (n: number): number[] => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff]
const f64 = (v: number): Uint8Array => {
  const b = new Uint8Array(8)
  new DataView(b.buffer).setFloat64(0, v, true)
  return b
}
const chars = (s: string, wide: boolean): number[] => [...s].flatMap((c) => (wide ? u16(c.charCodeAt(0)) : [c.charCodeAt(0)]))
/** XLUnicodeString: 16-bit count, flags, characters. */
const str16 = (s: string, wide = false): number[] => [...u16(s.length), wide ? 1 : 0, ...chars(s, wide)]
const record = (type: number, ...parts: Bytes[]): Uint8Array => {
  const data = cat(...parts)
  return cat(u16(type), u16(data.length), data)
}
const cell = (row: number, col: number, xf: number): number[] => [...u16(row), ...u16(col), ...u16(xf)]
const bof = (kind: number, version = 0x0600): Uint8Array => record(0x0809, u16(version), u16(kind), u16(0), u16(0), u32(0), u32(0))
const EOF = record(0x000a)
const rkInt = (n: number): number => ((n << 2) | 2) >>> 0

type Sheet = { name: string; kind?: number; hidden?: number; records: Uint8Array[] }

/** A workbook stream: globals (fonts, formats, XFs, sheets, the given shared-string records) then sheets. */
function workbook(sheets: Sheet[], sst: Uint8Array[], extraGlobals: Uint8Array[] = []): Uint8Array {
  const fonts = [400, 400, 400, 400, 700].map((weight) =>
    record(0x0031, u16(200), u16(0), u16(0x7fff), u16(weight), u16(0), [0, 0, 0, 0], [5, 0], chars('Arial', false))
  )
  const xf = (font: number, format: number, indent = 0): Uint8Array =>
    record(0x00e0, u16(font), u16(format), u16(0), [0, 0, indent, 0], new Uint8Array(10))
  const xfs = [xf(0, 0), xf(5, 0), xf(0, 0, 2), xf(0, 164), xf(0, 14), xf(0, 4)]
  const head = cat(bof(0x0005), ...extraGlobals, record(0x0042, u16(1252)), ...fonts, record(0x041e, u16(164), str16('0.0%')), ...xfs)
  const bodies = sheets.map((s) => cat(bof(s.kind === 2 ? 0x0020 : 0x0010), ...s.records, EOF))
  const boundLength = (s: Sheet): number => 4 + 8 + s.name.length
  let offset = head.length + sheets.reduce((n, s) => n + boundLength(s), 0) + sst.reduce((n, r) => n + r.length, 0) + EOF.length
  const bounds = sheets.map((s, k) => {
    const r = record(0x0085, u32(offset), [s.hidden ?? 0, s.kind ?? 0], [s.name.length, 0], chars(s.name, false))
    offset += (bodies[k] as Uint8Array).length
    return r
  })
  return cat(head, ...bounds, ...sst, EOF, ...bodies)
}

const END = 0xfffffffe
const FREE = 0xffffffff

/** A version-3 compound file holding the given root streams (under 4096 bytes they go to the mini stream). */
function compoundFile(streams: { name: string; data: Uint8Array }[]): Uint8Array {
  const sectors: Uint8Array[] = []
  const fat: number[] = []
  const alloc = (data: Uint8Array, mark?: number): number => {
    const n = Math.max(1, Math.ceil(data.length / 512))
    const first = sectors.length
    for (let k = 0; k < n; k++) {
      const s = new Uint8Array(512)
      s.set(data.subarray(k * 512, (k + 1) * 512))
      sectors.push(s)
      fat.push(mark ?? (k === n - 1 ? END : first + k + 1))
    }
    return first
  }
  const miniParts: Uint8Array[] = []
  const miniFat: number[] = []
  const starts = streams.map((s) => {
    if (s.data.length >= 4096) return alloc(s.data)
    const first = miniFat.length
    const n = Math.max(1, Math.ceil(s.data.length / 64))
    for (let k = 0; k < n; k++) {
      const piece = new Uint8Array(64)
      piece.set(s.data.subarray(k * 64, (k + 1) * 64))
      miniParts.push(piece)
      miniFat.push(k === n - 1 ? END : first + k + 1)
    }
    return first
  })
  const miniStream = cat(...miniParts)
  const rootStart = miniStream.length > 0 ? alloc(miniStream) : END
  const miniFatStart = miniFat.length > 0 ? alloc(cat(...miniFat.map(u32))) : END
  const entry = (name: string, type: number, child: number, right: number, start: number, size: number): Uint8Array => {
    const e = new Uint8Array(128)
    e.set(chars(name, true))
    e.set(u16((name.length + 1) * 2), 64)
    e[66] = type
    e[67] = 1
    e.set(u32(FREE), 68)
    e.set(u32(right), 72)
    e.set(u32(child), 76)
    e.set(u32(start), 116)
    e.set(u32(size), 120)
    return e
  }
  const dir = [entry('Root Entry', 5, streams.length > 0 ? 1 : FREE, FREE, rootStart, miniStream.length)]
  streams.forEach((s, k) => dir.push(entry(s.name, 2, FREE, k + 2 <= streams.length ? k + 2 : FREE, starts[k] as number, s.data.length)))
  const dirStart = alloc(cat(...dir))
  let fatCount = 1
  let difatCount = 0
  for (;;) {
    difatCount = fatCount > 109 ? Math.ceil((fatCount - 109) / 127) : 0
    if (fatCount * 128 >= sectors.length + fatCount + difatCount) break
    fatCount++
  }
  const fatIds = Array.from({ length: fatCount }, (_, k) => sectors.length + k)
  for (let k = 0; k < fatCount; k++) alloc(new Uint8Array(512), 0xfffffffd)
  const difatIds = Array.from({ length: difatCount }, (_, k) => sectors.length + k)
  difatIds.forEach((_, k) => {
    const listed = fatIds.slice(109 + k * 127, 109 + (k + 1) * 127)
    const body = [...listed, ...Array<number>(127 - listed.length).fill(FREE), k + 1 < difatIds.length ? (difatIds[k + 1] as number) : END]
    alloc(cat(...body.map(u32)), 0xfffffffc)
  })
  const fatBytes = cat(...fat.map(u32), ...Array<number[]>(fatCount * 128 - fat.length).fill(u32(FREE)))
  fatIds.forEach((id, k) => (sectors[id] as Uint8Array).set(fatBytes.subarray(k * 512, (k + 1) * 512)))
  const header = new Uint8Array(512)
  header.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])
  header.set([...u16(0x3e), ...u16(3), ...u16(0xfffe), ...u16(9), ...u16(6)], 24)
  header.set([...u32(0), ...u32(fatCount), ...u32(dirStart), ...u32(0), ...u32(4096)], 40)
  header.set([...u32(miniFatStart), ...u32(Math.ceil(miniFat.length / 128)), ...u32(difatIds[0] ?? END), ...u32(difatCount)], 60)
  for (let k = 0; k < 109; k++) header.set(u32(fatIds[k] ?? FREE), 76 + 4 * k)
  return cat(header, ...sectors)
}

/** Set one FAT entry of a compound file made above (FAT sectors listed in the header). */
function setFat(file: Uint8Array, sector: number, value: number): void {
  const view = new DataView(file.buffer, file.byteOffset)
  const fatSector = view.getUint32(76 + 4 * Math.floor(sector / 128), true)
  view.setUint32((fatSector + 1) * 512 + 4 * (sector % 128), value, true)
}

// ---- the sample workbook ------------------------------------------------------------------------

/** SST: "Title" (plain), "Region" (rich, 1 run), "Ab" + continued "ΩΣ…" (the CONTINUE switches to 16-bit), "x" (with phonetic data). */
const SST = [
  record(
    0x00fc,
    u32(5),
    u32(4),
    str16('Title'),
    [...u16(6), 0x08, ...u16(1), ...chars('Region', false), ...u16(0), ...u16(5)],
    [...u16(6), 0x00, ...chars('Ab', false)]
  ),
  record(0x003c, [0x01, ...chars('ΩΣcd', true)], [...u16(1), 0x04, ...u32(3), ...chars('x', false), 1, 2, 3])
]

const DATA_SHEET: Uint8Array[] = [
  record(0x0200, u32(0), u32(5), u16(0), u16(5), u16(0)),
  record(0x00fd, cell(0, 0, 1), u32(0)),
  record(0x00fd, cell(1, 0, 0), u32(1)),
  record(0x00fd, cell(1, 1, 0), u32(2)),
  record(0x0204, cell(2, 0, 2), str16('Cars ü', false)),
  record(0x027e, cell(2, 1, 0), u32(rkInt(2018))),
  record(0x00bd, u16(2), u16(2), u16(0), u32((1234 << 2) | 3), u16(3), u32(rkInt(0)), u16(3)),
  record(0x0203, cell(3, 0, 5), f64(1234.5)),
  record(0x0203, cell(3, 1, 3), f64(0.256)),
  record(0x0203, cell(3, 2, 4), f64(43831)),
  record(0x0205, cell(3, 3, 0), [1, 0]),
  record(0x0205, cell(3, 4, 0), [0x07, 1]),
  record(0x0006, cell(4, 0, 0), f64(42), u16(0), u32(0), u16(0)),
  record(0x0006, cell(4, 1, 0), [0, 0, 0, 0, 0, 0, 0xff, 0xff], u16(0), u32(0), u16(0)),
  record(0x0207, str16('Σum', true)),
  record(0x0006, cell(4, 2, 0), [1, 0, 1, 0, 0, 0, 0xff, 0xff], u16(0), u32(0), u16(0)),
  record(0x0201, cell(4, 4, 1)),
  bof(0x0020),
  record(0x00fd, cell(0, 4, 0), u32(0)),
  EOF,
  record(0x00e5, u16(2), u16(0), u16(0), u16(0), u16(3), u16(1), u16(1), u16(1), u16(2))
]

function sample(extraGlobals: Uint8Array[] = []): Uint8Array {
  return workbook(
    [
      { name: 'Data', records: DATA_SHEET },
      { name: 'Chart1', kind: 2, records: [] },
      { name: 'Lookup', hidden: 1, records: [record(0x00fd, cell(0, 1, 0), u32(3))] }
    ],
    SST,
    extraGlobals
  )
}

async function open(bytes: Uint8Array, name = 'book.xls'): Promise<RawGrid[]> {
  const r = await importFile(name, bytes)
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`)
  return r.value
}

describe('importXls', () => {
  it('reads worksheets with shared strings across CONTINUE, numbers as formatted, booleans, errors, formulas, merges, bold and indent', async () => {
    const grids = await open(compoundFile([{ name: 'Workbook', data: sample() }]))
    expect(grids.map((g) => g.name)).toEqual(['book.xls › Data', 'book.xls › Lookup'])
    const [data, lookup] = grids
    expect(data?.cells).toEqual([
      ['Title', '', '', '', ''],
      ['Region', 'AbΩΣcd', '', '', ''],
      ['Cars ü', '2018', '12.34', '0.0%', ''],
      ['1,234.50', '25.6%', '1/1/2020', 'TRUE', '#DIV/0!'],
      ['42', 'Σum', 'TRUE', '', '']
    ])
    expect(data?.merges).toEqual([
      { top: 0, left: 0, bottom: 0, right: 3 },
      { top: 1, left: 1, bottom: 1, right: 2 }
    ])
    expect(data?.styles).toEqual({ '0,0': { bold: true }, '2,0': { indent: 2 } })
    expect(data?.warnings).toEqual(['Sheet "Chart1" was skipped: it is a chart, not a worksheet.'])
    expect(lookup?.cells).toEqual([['', 'x']])
    expect(lookup?.warnings).toEqual(['Sheet "Lookup" is hidden in the workbook.'])
  })

  it('reads the stream from regular sectors, and through DIFAT sectors when the FAT outgrows the header', async () => {
    const small = await open(compoundFile([{ name: 'Workbook', data: sample() }]))
    const regular = await open(compoundFile([{ name: 'Workbook', data: cat(sample(), new Uint8Array(6000)) }]))
    // Past 109 × 128 sectors (7 MB), the FAT sectors that map the stream's tail are listed in DIFAT sectors.
    const huge = compoundFile([{ name: 'Workbook', data: cat(sample(), new Uint8Array(7_300_000)) }])
    expect(new DataView(huge.buffer).getUint32(72, true)).toBeGreaterThan(0)
    const difat = await open(huge)
    const lost = huge.slice()
    lost.set(u32(END), 68)
    expect(importXls('lost.xls', lost)).toMatchObject({
      ok: false,
      error: { code: 'bad-input', message: expect.stringMatching(/DIFAT chain ends after 109 of 11\d FAT sectors/) as unknown }
    })
    expect(regular.map((g) => g.cells)).toEqual(small.map((g) => g.cells))
    expect(difat.map((g) => g.cells)).toEqual(small.map((g) => g.cells))
  })

  it('finds the stream among others, whatever the case of its name', async () => {
    const file = compoundFile([
      { name: '\u0005SummaryInformation', data: new Uint8Array(200) },
      { name: 'WORKBOOK', data: sample() }
    ])
    expect((await open(file))[0]?.cells[0]?.[0]).toBe('Title')
  })

  it('reports truncated and corrupt containers as bad input, without hanging', () => {
    const file = compoundFile([{ name: 'Workbook', data: cat(sample(), new Uint8Array(6000)) }])
    for (const cut of [300, 2048, file.length - 1024]) {
      const r = importXls('cut.xls', file.subarray(0, cut))
      expect(r.ok, `cut at ${cut}`).toBe(false)
      if (!r.ok)
        expect(r.error).toMatchObject({
          code: 'bad-input',
          message: expect.stringMatching(/^cut\.xls is damaged or truncated: /) as unknown
        })
    }
    const looping = file.slice()
    setFat(looping, 3, 1)
    const r = importXls('loop.xls', looping)
    expect(!r.ok && r.error.message).toMatch(/loops back on itself/)
    const outside = file.slice()
    setFat(outside, 2, 50_000)
    const o = importXls('far.xls', outside)
    expect(!o.ok && o.error.message).toMatch(/outside the file/)
  })

  it('answers every one of 400 randomly damaged copies with a result, quickly', () => {
    const file = compoundFile([{ name: 'Workbook', data: cat(sample(), new Uint8Array(5000)) }])
    let seed = 7
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff
      return seed % n
    }
    const codes = new Set<string>()
    for (let k = 0; k < 400; k++) {
      const copy = file.slice()
      // Half the copies are damaged in the header, FAT and directory, half anywhere.
      for (let j = 0, n = 1 + random(12); j < n; j++) copy[random(k % 2 === 0 ? 1536 : copy.length)] = random(256)
      const started = performance.now()
      const r = importXls('f.xls', copy)
      expect(performance.now() - started).toBeLessThan(1000)
      codes.add(r.ok ? 'ok' : r.error.code)
    }
    expect([...codes].every((c) => ['ok', 'bad-input', 'unsupported-format'].includes(c))).toBe(true)
    expect(codes.has('bad-input')).toBe(true)
  })

  it('reports a workbook stream cut inside a record as bad input', () => {
    const stream = sample()
    const r = importXls('short.xls', compoundFile([{ name: 'Workbook', data: stream.subarray(0, stream.length - 30) }]))
    expect(r.ok).toBe(false)
    if (!r.ok)
      expect(r.error).toMatchObject({
        code: 'bad-input',
        message: expect.stringMatching(/damaged or truncated: .*(truncated|EOF)/) as unknown
      })
  })

  it('refuses encrypted, BIFF5 and non-Excel compound files with a specific message', () => {
    const encrypted = importXls(
      'secret.xls',
      compoundFile([{ name: 'Workbook', data: sample([record(0x002f, u16(1), new Uint8Array(52))]) }])
    )
    expect(!encrypted.ok && encrypted.error).toMatchObject({
      code: 'unsupported-format',
      message: expect.stringMatching(/password-protected/) as unknown
    })
    const biff5Stream = cat(bof(0x0005, 0x0500), EOF)
    for (const name of ['Book', 'Workbook']) {
      const old = importXls('old.xls', compoundFile([{ name, data: biff5Stream }]))
      expect(!old.ok && old.error).toMatchObject({
        code: 'unsupported-format',
        message: expect.stringMatching(/Excel 5\.0\/95 or older.*save it as \.xlsx/) as unknown
      })
    }
    const biff4 = importXls('older.xls', compoundFile([{ name: 'Workbook', data: cat(record(0x0409, u16(0), u16(0x10)), EOF) }]))
    expect(!biff4.ok && biff4.error.code).toBe('unsupported-format')
    const doc = importXls('letter.xls', compoundFile([{ name: 'WordDocument', data: new Uint8Array(5000) }]))
    expect(!doc.ok && doc.error).toMatchObject({
      code: 'unsupported-format',
      message: expect.stringMatching(/not an Excel workbook/) as unknown
    })
    const ooxml = importXls('locked.xlsx', compoundFile([{ name: 'EncryptedPackage', data: new Uint8Array(5000) }]))
    expect(!ooxml.ok && ooxml.error.message).toMatch(/password-protected/)
  })

  it('reports a shared-string index past the table and a string cut short', async () => {
    const sheet = { name: 'S', records: [record(0x00fd, cell(0, 0, 0), u32(9)), record(0x00fd, cell(0, 1, 0), u32(0))] }
    const [g] = await open(compoundFile([{ name: 'Workbook', data: workbook([sheet], [record(0x00fc, u32(1), u32(1), str16('ok'))]) }]))
    expect(g?.cells).toEqual([['', 'ok']])
    expect(g?.warnings).toEqual(['1 cells refer to shared strings the workbook does not hold; they were left empty.'])
    const cut = importXls(
      's.xls',
      compoundFile([
        { name: 'Workbook', data: workbook([sheet], [record(0x00fc, u32(1), u32(1), [...u16(10), 0, ...chars('abc', false)])]) }
      ])
    )
    expect(!cut.ok && cut.error.message).toMatch(/string of 10 characters ends after 3/)
  })
})

// ---- the real legacy workbooks of the shared datasets --------------------------------------------

const DATA = process.env.TABLEQA_DATA ?? resolve(import.meta.dirname, '../../../../../../shared/datasets')
const SHEETS = join(DATA, 'spreadsheets')

/** Expected values read with xlrd 2.0.2 (`formatting_info=True`); numbers as their number format shows them. */
const REAL: {
  path: string
  sheets: number
  names: string[]
  sheet: string
  cells: [number, number, string][]
  merges: [number, number, number, number][]
}[] = [
  {
    path: 'census-govfinances/10slsstab1a.xls',
    sheets: 1,
    names: ['2010_US_MS'],
    sheet: '2010_US_MS',
    cells: [
      [8, 1, 'United States Total'],
      [13, 1, '3,180,023,050'],
      [13, 2, '0.08'],
      [20, 0, '     From local governments1'],
      [20, 1, '0']
    ],
    merges: [
      [8, 116, 8, 120],
      [8, 121, 8, 125]
    ]
  },
  {
    path: 'ons-databaker/2018internationaltradeinservicesdatatables.xls',
    sheets: 11,
    names: ['Notes', 'Index', '1. NUTS1, industry'],
    sheet: '9. Tidy format',
    cells: [
      [0, 0, 'Total value of trade in services in tidy format, 2018'],
      [1, 0, 'figures in £ millions'],
      [7709, 0, 'www.ons.gov.uk/methodology/classificationsandstandards/ukstandardindustrialclassificationofeconomicactivities/uksic2007']
    ],
    merges: []
  },
  {
    path: 'ons-databaker/ashe_rev_cv_2013.xls',
    sheets: 10,
    names: ['CV notes', 'All', 'Male'],
    sheet: 'Male',
    cells: [
      [3, 2, 'of jobsb'],
      [2, 4, 'Annual']
    ],
    merges: [
      [223, 0, 223, 16],
      [224, 0, 224, 16]
    ]
  },
  {
    path: 'ons-databaker/balanceofpayments2020q1.xls',
    sheets: 16,
    names: ['Index', 'Records', 'Table A'],
    sheet: 'Table A',
    cells: [
      [0, 1, ' Summary of balance of payments'],
      [2, 12, ' £ million'],
      [3, 3, '2018']
    ],
    merges: []
  },
  {
    path: 'ons-databaker/bulletindataset2v2.xls',
    sheets: 20,
    names: ['Cover Sheet', 'Contents', 'Table 1a'],
    sheet: 'Table 1a',
    cells: [
      [5, 2, 'New Housing'],
      [10, 0, '1997'],
      [10, 2, '35.7'],
      [10, 3, '46.9']
    ],
    merges: [
      [1, 0, 3, 1],
      [1, 2, 3, 12],
      [5, 2, 5, 3]
    ]
  },
  {
    path: 'ons-databaker/ott.xls',
    sheets: 6,
    names: ['Index', 'Table 1', 'Table 2'],
    sheet: 'Table 2',
    cells: [
      [0, 1, "Purpose of overseas resident's visits to the UK by month"],
      [6, 1, 'Jan'],
      [6, 2, '2,246'],
      [7, 2, '1,736']
    ],
    merges: [
      [2, 2, 2, 4],
      [2, 6, 2, 12]
    ]
  }
]

describe.skipIf(!existsSync(SHEETS))(`legacy .xls workbooks of the datasets (${SHEETS})`, () => {
  it.each(REAL.map((f) => [f.path, f] as const))('%s opens with its sheets, cells and merges', async (_path, f) => {
    const name = f.path.split('/').pop() ?? f.path
    const started = performance.now()
    const grids = await open(new Uint8Array(readFileSync(join(SHEETS, f.path))), name)
    const ms = performance.now() - started
    expect(grids.length).toBe(f.sheets)
    expect(grids.slice(0, f.names.length).map((g) => g.name)).toEqual(f.names.map((n) => `${name} › ${n}`))
    const g = grids.find((x) => x.name === `${name} › ${f.sheet}`)
    for (const [row, col, text] of f.cells) expect(g?.cells[row]?.[col], `${f.sheet}!R${row + 1}C${col + 1}`).toBe(text)
    for (const [top, left, bottom, right] of f.merges) expect(g?.merges).toContainEqual({ top, left, bottom, right })
    for (const grid of grids) for (const row of grid.cells) expect(row.length).toBe(grid.cells[0]?.length)
    expect(ms).toBeLessThan(10_000)
  })
})
