/**
 * Legacy Excel 97-2003 workbooks (.xls: BIFF8 records in a compound file) → one grid per worksheet,
 * filled like the XLSX reader: displayed numbers through the cell's number format beside their stored values,
 * merged regions, bold and indent. Chart, macro and module sheets are skipped; hidden worksheets are kept with a
 * warning (they often hold the lookup tables the visible ones are built from).
 */
import { VALUE_KIND, type CellStyle, type RawGrid } from '../../../../shared/table'
import type { ErrorCode } from '../../../../shared/result'
import { fail, ok, type Result } from '../../../../shared/result'
import { LIMITS, SheetBuilder, readingValue, type TypedValue } from './grid'
import { BUILTIN_FORMATS, generalNumber, readNumber } from './numfmt'
import { ERROR_TEXT, OLD_BOF, PieceCursor, REC, RecordReader, readSst, rkValue } from './xls-biff'
import { CorruptFile, openCompoundFile } from './xls-cfb'

type Xf = { format: string; style: CellStyle | undefined }
type SheetRef = { name: string; offset: number; hidden: number; kind: number }
type Globals = { sheets: SheetRef[]; strings: string[]; missingStrings: number; xfs: Xf[]; date1904: boolean }

/** A workbook that is intact but cannot be read (encrypted, too old). */
class Refusal extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string
  ) {
    super(message)
  }
}

const BIFF8 = 0x0600
const BIFF5 = 0x0500
const SUBSTREAM_WORKSHEET = 0x0010
const SHEET_KINDS: Record<number, string> = { 1: 'macro sheet', 2: 'chart', 6: 'VBA module' }

function refuseOldBiff(name: string): Refusal {
  return new Refusal(
    'unsupported-format',
    `${name} is an Excel 5.0/95 or older workbook, which cannot be read (only Excel 97-2003 and later). Open it in Excel or LibreOffice and save it as .xlsx.`
  )
}

function checkBof(reader: RecordReader, name: string, where: string): number {
  const bof = reader.next()
  if (bof !== null && OLD_BOF.has(bof.type)) throw refuseOldBiff(name)
  if (bof === null || bof.type !== REC.BOF || bof.length < 4) throw new CorruptFile(`${where} does not start with a BOF record.`)
  const version = reader.view.getUint16(bof.start, true)
  if (version === BIFF5 || version < BIFF5) throw refuseOldBiff(name)
  if (version !== BIFF8) throw new CorruptFile(`${where} declares an unknown BIFF version 0x${version.toString(16)}.`)
  return reader.view.getUint16(bof.start + 2, true)
}

function readGlobals(stream: Uint8Array, name: string): Globals {
  const reader = new RecordReader(stream)
  checkBof(reader, name, 'the workbook stream')
  const g: Globals = { sheets: [], strings: [], missingStrings: 0, xfs: [], date1904: false }
  const formats = new Map<number, string>()
  const bold: boolean[] = []
  const rawXfs: { font: number; format: number; indent: number }[] = []
  for (let rec = reader.next(); rec !== null && rec.type !== REC.EOF; rec = reader.next()) {
    const v = reader.view
    const at = rec.start
    switch (rec.type) {
      case REC.FILEPASS:
        throw new Refusal(
          'unsupported-format',
          `${name} is password-protected (encrypted) and cannot be read. Remove the password in Excel and save it again.`
        )
      case REC.DATEMODE:
        if (rec.length >= 2) g.date1904 = v.getUint16(at, true) === 1
        break
      case REC.BOUNDSHEET:
        if (rec.length < 8) throw new CorruptFile('a sheet entry (BOUNDSHEET) is too short.')
        g.sheets.push({
          offset: v.getUint32(at, true),
          hidden: (stream[at + 4] as number) & 0x03,
          kind: stream[at + 5] as number,
          name: new PieceCursor([stream.subarray(at + 6, at + rec.length)]).string(1, false)
        })
        break
      case REC.SST: {
        const sst = readSst(reader.withContinues(rec))
        g.strings = sst.strings
        g.missingStrings = sst.missing
        break
      }
      case REC.FORMAT:
        if (rec.length >= 5)
          formats.set(v.getUint16(at, true), new PieceCursor([stream.subarray(at + 2, at + rec.length)]).string(2, false))
        break
      case REC.FONT:
        if (rec.length >= 8) bold.push(v.getUint16(at + 6, true) >= 600)
        break
      case REC.XF:
        if (rec.length >= 9)
          rawXfs.push({ font: v.getUint16(at, true), format: v.getUint16(at + 2, true), indent: (stream[at + 8] as number) & 0x0f })
        break
    }
  }
  g.xfs = rawXfs.map((x) => {
    // There is no font 4: indexes from 4 on refer to the record before.
    const isBold = bold[x.font >= 4 ? x.font - 1 : x.font] === true
    const style: CellStyle | undefined =
      isBold || x.indent > 0 ? { ...(isBold ? { bold: true } : {}), ...(x.indent > 0 ? { indent: x.indent } : {}) } : undefined
    return { format: formats.get(x.format) ?? BUILTIN_FORMATS[x.format] ?? 'General', style }
  })
  return g
}

function readSheet(stream: Uint8Array, ref: SheetRef, g: Globals, name: string): SheetBuilder | null {
  if (ref.offset >= stream.length)
    throw new CorruptFile(`sheet "${ref.name}" starts at byte ${ref.offset}, past the end of the workbook stream.`)
  const reader = new RecordReader(stream, ref.offset)
  if (checkBof(reader, name, `sheet "${ref.name}"`) !== SUBSTREAM_WORKSHEET) return null
  const sheet = new SheetBuilder()
  const v = reader.view
  let depth = 1
  let badStrings = 0
  let pending: { row: number; col: number; xf: Xf | undefined } | null = null
  const put = (row: number, col: number, text: string, xf: Xf | undefined, value?: TypedValue): void =>
    sheet.set(row, col, text, xf?.style, value)
  const putNumber = (row: number, col: number, value: number, xf: Xf | undefined): void => {
    const reading =
      xf === undefined ? { text: generalNumber(value), kind: 'number' as const, value } : readNumber(value, xf.format, g.date1904)
    put(row, col, reading.text, xf, readingValue(reading))
  }
  const putBool = (row: number, col: number, value: number, xf: Xf | undefined): void =>
    put(row, col, value === 0 ? 'FALSE' : 'TRUE', xf, { kind: value === 0 ? VALUE_KIND.false : VALUE_KIND.true })
  const putError = (row: number, col: number, code: number, xf: Xf | undefined): void =>
    put(row, col, ERROR_TEXT[code] ?? '#ERROR', xf, { kind: VALUE_KIND.missing })
  for (;;) {
    const rec = reader.next()
    if (rec === null) throw new CorruptFile(`sheet "${ref.name}" ends without its EOF record: the file is truncated.`)
    if (rec.type === REC.BOF) depth++
    else if (rec.type === REC.EOF && --depth === 0) break
    // Embedded chart substreams sit inside a worksheet's; their records are not cells.
    if (depth !== 1) continue
    const at = rec.start
    const len = rec.length
    const row = len >= 4 ? v.getUint16(at, true) : 0
    const col = len >= 4 ? v.getUint16(at + 2, true) : 0
    const xf = len >= 6 ? g.xfs[v.getUint16(at + 4, true)] : undefined
    switch (rec.type) {
      case REC.LABELSST: {
        if (len < 10) break
        const text = g.strings[v.getUint32(at + 6, true)]
        if (text === undefined) badStrings++
        put(row, col, text ?? '', xf)
        break
      }
      case REC.LABEL:
      case REC.RSTRING:
        if (len >= 9)
          put(row, col, new PieceCursor(reader.withContinues(rec).map((p, k) => (k === 0 ? p.subarray(6) : p))).string(2, false), xf)
        break
      case REC.NUMBER:
        if (len >= 14) putNumber(row, col, v.getFloat64(at + 6, true), xf)
        break
      case REC.RK:
        if (len >= 10) putNumber(row, col, rkValue(v.getUint32(at + 6, true)), xf)
        break
      case REC.MULRK:
        for (let k = 0, off = at + 4; off + 6 <= at + len - 2; k++, off += 6) {
          putNumber(row, col + k, rkValue(v.getUint32(off + 2, true)), g.xfs[v.getUint16(off, true)])
        }
        break
      case REC.BOOLERR:
        if (len >= 8) {
          const value = stream[at + 6] as number
          if (stream[at + 7] === 1) putError(row, col, value, xf)
          else putBool(row, col, value, xf)
        }
        break
      case REC.FORMULA: {
        pending = null
        if (len < 20) break
        if (v.getUint16(at + 12, true) !== 0xffff) {
          putNumber(row, col, v.getFloat64(at + 6, true), xf)
          break
        }
        const kind = stream[at + 6] as number
        const value = stream[at + 8] as number
        if (kind === 0) pending = { row, col, xf }
        else if (kind === 1) putBool(row, col, value, xf)
        else if (kind === 2) putError(row, col, value, xf)
        break
      }
      case REC.STRING:
        if (pending !== null) put(pending.row, pending.col, new PieceCursor(reader.withContinues(rec)).string(2, false), pending.xf)
        pending = null
        break
      case REC.MERGECELLS: {
        const count = len >= 2 ? v.getUint16(at, true) : 0
        for (let k = 0, off = at + 2; k < count && off + 8 <= at + len; k++, off += 8) {
          const top = v.getUint16(off, true)
          const bottom = v.getUint16(off + 2, true)
          const left = v.getUint16(off + 4, true)
          const right = v.getUint16(off + 6, true)
          if (top <= bottom && left <= right) sheet.merges.push({ top, left, bottom, right })
        }
        break
      }
    }
  }
  if (badStrings > 0) sheet.warnings.push(`${badStrings} cells refer to shared strings the workbook does not hold; they were left empty.`)
  return sheet
}

/** Import every worksheet of a legacy Excel 97-2003 (BIFF8) workbook as one grid each. */
export function importXls(name: string, bytes: Uint8Array): Result<RawGrid[]> {
  try {
    const cfb = openCompoundFile(bytes)
    const stream = cfb.read('Workbook')
    if (stream === null) {
      if (cfb.read('Book') !== null) throw refuseOldBiff(name)
      if (cfb.rootNames.some((n) => n === 'EncryptedPackage')) {
        throw new Refusal(
          'unsupported-format',
          `${name} is a password-protected (encrypted) workbook and cannot be read. Remove the password in Excel and save it again.`
        )
      }
      throw new Refusal(
        'unsupported-format',
        `${name} is an OLE compound file but not an Excel workbook: it has no Workbook stream (is it a Word or PowerPoint file?).`
      )
    }
    const g = readGlobals(stream, name)
    const grids: RawGrid[] = []
    const notes: string[] = []
    for (const ref of g.sheets) {
      if (ref.kind !== 0) {
        notes.push(`Sheet "${ref.name}" was skipped: it is a ${SHEET_KINDS[ref.kind] ?? 'non-worksheet sheet'}, not a worksheet.`)
        continue
      }
      if (grids.length >= LIMITS.maxGrids) {
        notes.push(`Only the first ${LIMITS.maxGrids} worksheets were imported.`)
        break
      }
      const sheet = readSheet(stream, ref, g, name)
      if (sheet === null) {
        notes.push(`Sheet "${ref.name}" was skipped: it is not a worksheet.`)
        continue
      }
      const grid = sheet.build(`${name} › ${ref.name}`)
      if (ref.hidden !== 0) grid.warnings.unshift(`Sheet "${ref.name}" is hidden in the workbook.`)
      if (grid.cells.length === 0) grid.warnings.push(`Sheet "${ref.name}" is empty.`)
      grids.push(grid)
    }
    if (g.missingStrings > 0) notes.push(`The shared string table ends ${g.missingStrings} strings early.`)
    if (grids.length === 0) return fail('bad-input', `${name} has no worksheets to import.`, notes.join('\n') || undefined)
    grids[0]?.warnings.push(...notes)
    return ok(grids)
  } catch (e) {
    if (e instanceof Refusal) return fail(e.code, e.message)
    if (e instanceof CorruptFile) return fail('bad-input', `${name} is damaged or truncated: ${e.message}`)
    return fail('bad-input', `${name} is damaged: its workbook records cannot be read.`, e instanceof Error ? e.message : String(e))
  }
}
