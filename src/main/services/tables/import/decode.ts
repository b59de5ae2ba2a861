import { fail, ok, type Result } from '../../../../shared/result'

export type DecodedText = { text: string; encoding: string; warnings: string[] }

const SAMPLE = 4096

/** Guess UTF-16 without a BOM from where the NUL bytes sit in mostly-ASCII text. */
function utf16ByNulPattern(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const n = Math.min(bytes.length, SAMPLE) & ~1
  if (n < 4) return null
  let evenNul = 0
  let oddNul = 0
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenNul++
    if (bytes[i + 1] === 0) oddNul++
  }
  const pairs = n / 2
  if (oddNul > pairs * 0.4 && evenNul < pairs * 0.05) return 'utf-16le'
  if (evenNul > pairs * 0.4 && oddNul < pairs * 0.05) return 'utf-16be'
  return null
}

/**
 * Why a byte sample is not text, or null when it looks like text: NUL bytes or many control
 * characters mean a binary file whatever its name says.
 */
export function binaryReason(bytes: Uint8Array): string | null {
  const n = Math.min(bytes.length, 65536)
  let control = 0
  for (let i = 0; i < n; i++) {
    const b = bytes[i] as number
    if (b === 0) return 'it contains NUL bytes'
    if ((b < 0x20 && b !== 9 && b !== 10 && b !== 13 && b !== 12) || b === 0x7f) control++
  }
  if (n > 0 && control / n > 0.05) return `${Math.round((100 * control) / n)}% of its first bytes are control characters`
  return null
}

// Node's TextDecoder treats windows-1252 as ISO-8859-1, so 0x80–0x9F are mapped here.
const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ'

function decodeWindows1252(bytes: Uint8Array): string {
  const parts: string[] = []
  const CHUNK = 8192
  const codes = new Uint16Array(CHUNK)
  for (let start = 0; start < bytes.length; start += CHUNK) {
    const end = Math.min(start + CHUNK, bytes.length)
    for (let i = start; i < end; i++) {
      const b = bytes[i] as number
      codes[i - start] = b >= 0x80 && b < 0xa0 ? CP1252_HIGH.charCodeAt(b - 0x80) : b
    }
    parts.push(String.fromCharCode(...codes.subarray(0, end - start)))
  }
  return parts.join('')
}

function decodeWith(label: string, bytes: Uint8Array, fatal: boolean): string {
  return new TextDecoder(label, { fatal, ignoreBOM: false }).decode(bytes)
}

/**
 * Decode a text file: BOM first, then UTF-16 by NUL pattern, then strict UTF-8, then windows-1252
 * (a superset of Latin-1 for printable text) with a warning, since that last step is a guess.
 */
export function decodeText(name: string, bytes: Uint8Array): Result<DecodedText> {
  const b0 = bytes[0]
  const b1 = bytes[1]
  if (b0 === 0xef && b1 === 0xbb && bytes[2] === 0xbf) {
    return ok({ text: decodeWith('utf-8', bytes, false), encoding: 'UTF-8 (BOM)', warnings: [] })
  }
  const utf16: 'utf-16le' | 'utf-16be' | null =
    b0 === 0xff && b1 === 0xfe ? 'utf-16le' : b0 === 0xfe && b1 === 0xff ? 'utf-16be' : utf16ByNulPattern(bytes)
  if (utf16 !== null) {
    const even = bytes.length % 2 === 0 ? bytes : bytes.subarray(0, bytes.length - 1)
    const text = decodeWith(utf16, even, false)
    const warnings = text.includes('\ufffd') ? [`Some characters of ${name} could not be read as ${utf16.toUpperCase()}.`] : []
    return ok({ text, encoding: utf16.toUpperCase(), warnings })
  }
  const reason = binaryReason(bytes)
  if (reason !== null) {
    return fail('unsupported-format', `${name} does not look like a text table: ${reason}.`)
  }
  try {
    return ok({ text: decodeWith('utf-8', bytes, true), encoding: 'UTF-8', warnings: [] })
  } catch {
    const text = decodeWindows1252(bytes)
    return ok({
      text,
      encoding: 'windows-1252',
      warnings: [`${name} is not valid UTF-8; it was read as Latin-1 (windows-1252). Check accented characters.`]
    })
  }
}
