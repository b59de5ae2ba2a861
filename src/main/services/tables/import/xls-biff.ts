/**
 * BIFF8 ([MS-XLS]) record level: walking records, strings that continue across CONTINUE records,
 * the shared string table and RK numbers.
 */
import { CorruptFile } from './xls-cfb'

export const REC = {
  BOF: 0x0809,
  EOF: 0x000a,
  CONTINUE: 0x003c,
  FILEPASS: 0x002f,
  CODEPAGE: 0x0042,
  DATEMODE: 0x0022,
  BOUNDSHEET: 0x0085,
  SST: 0x00fc,
  FORMAT: 0x041e,
  XF: 0x00e0,
  FONT: 0x0031,
  DIMENSIONS: 0x0200,
  LABELSST: 0x00fd,
  LABEL: 0x0204,
  RSTRING: 0x00d6,
  RK: 0x027e,
  MULRK: 0x00bd,
  NUMBER: 0x0203,
  BOOLERR: 0x0205,
  FORMULA: 0x0006,
  STRING: 0x0207,
  BLANK: 0x0201,
  MULBLANK: 0x00be,
  MERGECELLS: 0x00e5,
  SHRFMLA: 0x04bc,
  ARRAY: 0x0221,
  TABLE: 0x0236
} as const

/** BOF records of BIFF2, BIFF3 and BIFF4, which carry their version in the record type. */
export const OLD_BOF = new Set([0x0009, 0x0209, 0x0409])

export const ERROR_TEXT: Record<number, string> = {
  0x00: '#NULL!',
  0x07: '#DIV/0!',
  0x0f: '#VALUE!',
  0x17: '#REF!',
  0x1d: '#NAME?',
  0x24: '#NUM!',
  0x2a: '#N/A',
  0x2b: '#GETTING_DATA'
}

/** One record: its type and where its data lies in the stream. */
export type BiffRecord = { type: number; start: number; length: number }

/** Walks the records of a stream from an offset; bounds every read by the stream. */
export class RecordReader {
  readonly view: DataView
  pos: number

  constructor(
    readonly bytes: Uint8Array,
    start = 0
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    this.pos = start
  }

  /** The next record, or null at the end of the stream; throws when a record runs past the end. */
  next(): BiffRecord | null {
    if (this.pos + 4 > this.bytes.length) return null
    const type = this.view.getUint16(this.pos, true)
    const length = this.view.getUint16(this.pos + 2, true)
    const start = this.pos + 4
    if (start + length > this.bytes.length) {
      throw new CorruptFile(
        `the workbook stream is truncated: a record (type 0x${type.toString(16).padStart(4, '0')}) at byte ${this.pos} runs past its end.`
      )
    }
    this.pos = start + length
    return { type, start, length }
  }

  /** The record's data followed by the data of the CONTINUE records right after it, as separate pieces. */
  withContinues(rec: BiffRecord): Uint8Array[] {
    const pieces = [this.bytes.subarray(rec.start, rec.start + rec.length)]
    while (this.pos + 4 <= this.bytes.length && this.view.getUint16(this.pos, true) === REC.CONTINUE) {
      const cont = this.next() as BiffRecord
      pieces.push(this.bytes.subarray(cont.start, cont.start + cont.length))
    }
    return pieces
  }
}

const LATIN1 = new TextDecoder('latin1')
const UTF16 = new TextDecoder('utf-16le')

/**
 * Characters of a BIFF8 string. An 8-bit ("compressed") string is UTF-16 with every high byte zero
 * ([MS-XLS] 2.5.294), so it is Latin-1 whatever the CODEPAGE record says; the code page only applies to
 * BIFF5 and older, which are not read.
 */
function decodeChars(bytes: Uint8Array, wide: boolean): string {
  return wide ? UTF16.decode(bytes) : LATIN1.decode(bytes)
}

/**
 * A cursor over record pieces (a record and its CONTINUEs) read as one byte sequence, except inside a
 * string's characters: there a piece boundary starts with a fresh high-byte flag.
 */
export class PieceCursor {
  private piece = 0
  private off = 0

  constructor(private readonly pieces: Uint8Array[]) {}

  private current(): Uint8Array | null {
    while (this.piece < this.pieces.length && this.off >= (this.pieces[this.piece] as Uint8Array).length) {
      this.piece++
      this.off = 0
    }
    return this.pieces[this.piece] ?? null
  }

  atEnd(): boolean {
    return this.current() === null
  }

  u8(): number {
    const p = this.current()
    if (p === null) throw new CorruptFile('a record ends in the middle of a value.')
    return p[this.off++] as number
  }

  u16(): number {
    return this.u8() | (this.u8() << 8)
  }

  u32(): number {
    return (this.u16() + this.u16() * 0x10000) >>> 0
  }

  skip(n: number): void {
    let left = n
    while (left > 0) {
      const p = this.current()
      if (p === null) throw new CorruptFile('a record ends in the middle of a string.')
      const step = Math.min(left, p.length - this.off)
      this.off += step
      left -= step
    }
  }

  /** An XLUnicodeString-family string: count (8 or 16 bits), flags, optional rich/phonetic parts. */
  string(countBytes: 1 | 2, extended: boolean): string {
    const cch = countBytes === 1 ? this.u8() : this.u16()
    let flags = this.u8()
    const runs = extended && (flags & 0x08) !== 0 ? this.u16() : 0
    const ext = extended && (flags & 0x04) !== 0 ? this.u32() : 0
    const parts: string[] = []
    let left = cch
    let first = true
    while (left > 0) {
      let p = this.current()
      if (p === null) throw new CorruptFile(`a string of ${cch} characters ends after ${cch - left}.`)
      if (!first && this.off === 0) {
        // A continued string: the first byte of the new piece repeats the high-byte flag.
        flags = this.u8()
        p = this.current()
        if (p === null) throw new CorruptFile(`a string of ${cch} characters ends after ${cch - left}.`)
      }
      first = false
      const wide = (flags & 0x01) !== 0
      const width = wide ? 2 : 1
      const n = Math.min(left, Math.floor((p.length - this.off) / width))
      if (n === 0) throw new CorruptFile('a string character is split across records.')
      parts.push(decodeChars(p.subarray(this.off, this.off + n * width), wide))
      this.off += n * width
      left -= n
      if (left > 0 && this.off < p.length) throw new CorruptFile('a string character is split across records.')
    }
    this.skip(runs * 4 + ext)
    return parts.join('')
  }
}

/** The shared string table: SST and its CONTINUE records. Reads as many strings as are really there. */
export function readSst(pieces: Uint8Array[]): { strings: string[]; missing: number } {
  const cursor = new PieceCursor(pieces)
  cursor.u32()
  const unique = cursor.u32()
  const strings: string[] = []
  while (strings.length < unique && !cursor.atEnd()) strings.push(cursor.string(2, true))
  return { strings, missing: unique - strings.length }
}

const RK_VIEW = new DataView(new ArrayBuffer(8))

/** An RK number: a 30-bit integer or the top 30 bits of a double, optionally divided by 100. */
export function rkValue(rk: number): number {
  let v: number
  if ((rk & 0x02) !== 0) v = rk >> 2
  else {
    RK_VIEW.setUint32(4, (rk & 0xfffffffc) >>> 0, true)
    v = RK_VIEW.getFloat64(0, true)
  }
  return (rk & 0x01) !== 0 ? v / 100 : v
}
