import type { RawGrid } from '../../../../shared/table'
import { assertNever, fail, type Result } from '../../../../shared/result'
import { importDelimited } from './csv'
import { importHtml } from './html'
import { importJson } from './json'
import { importOds } from './ods'
import { importSqlite } from './sqlite'
import { importXls } from './xls'
import { importXlsx } from './xlsx'
import { listZip } from './zip'

export type ImportFormat = 'csv' | 'tsv' | 'xlsx' | 'ods' | 'xls' | 'html' | 'json' | 'sqlite'

const BY_EXTENSION: Record<string, ImportFormat> = {
  csv: 'csv',
  txt: 'csv',
  tsv: 'tsv',
  tab: 'tsv',
  xlsx: 'xlsx',
  xlsm: 'xlsx',
  ods: 'ods',
  xls: 'xls',
  html: 'html',
  htm: 'html',
  xhtml: 'html',
  json: 'json',
  jsonl: 'json',
  sqlite: 'sqlite',
  sqlite3: 'sqlite',
  db: 'sqlite'
}

const SQLITE_MAGIC = 'SQLite format 3\0'
const OLE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]

function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  if (bytes.length < magic.length) return false
  for (let k = 0; k < magic.length; k++) if (bytes[k] !== magic[k]) return false
  return true
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.')
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase()
}

function zipKind(bytes: Uint8Array): ImportFormat | null {
  const names = listZip(bytes)
  if (names === null) return null
  if (names.includes('xl/workbook.xml')) return 'xlsx'
  if (names.includes('content.xml')) return 'ods'
  return null
}

/**
 * The format of a file: magic bytes win over the extension (an .xlsx renamed .csv is still a
 * workbook); text formats are taken from the extension, else from the first character.
 */
export function detectFormat(name: string, bytes: Uint8Array): ImportFormat | null {
  const ext = BY_EXTENSION[extensionOf(name)]
  if (bytes.length >= 16 && new TextDecoder('latin1').decode(bytes.subarray(0, 16)) === SQLITE_MAGIC) return 'sqlite'
  if (startsWith(bytes, OLE_MAGIC)) return 'xls'
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) return zipKind(bytes) ?? (ext === 'xlsx' || ext === 'ods' ? ext : null)
  if (ext !== undefined) return ext
  const head = new TextDecoder('utf-8')
    .decode(bytes.subarray(0, 1024))
    .replace(/^\ufeff/, '')
    .trimStart()
  if (head.startsWith('<')) return 'html'
  if (head.startsWith('{') || head.startsWith('[')) return 'json'
  return 'csv'
}

/**
 * Import a file's bytes into one raw grid per sheet/table. Asynchronous because SQLite is read with
 * sql.js, whose WebAssembly module loads asynchronously; every other format is read synchronously.
 */
export async function importFile(name: string, bytes: Uint8Array): Promise<Result<RawGrid[]>> {
  if (bytes.length > 0 && detectFormat(name, bytes) === 'sqlite') return importSqlite(name, bytes)
  return importFileSync(name, bytes)
}

/** The synchronous importer for every format except SQLite (which needs `importFile`). */
export function importFileSync(name: string, bytes: Uint8Array): Result<RawGrid[]> {
  if (bytes.length === 0) return fail('bad-input', `${name} is empty.`)
  const format = detectFormat(name, bytes)
  if (format === null) {
    return fail(
      'unsupported-format',
      `${name} is not a format that can be imported: expected CSV, TSV, XLSX, XLS, ODS, HTML, JSON or SQLite.`
    )
  }
  switch (format) {
    case 'csv':
      return importDelimited(name, bytes, ',')
    case 'tsv':
      return importDelimited(name, bytes, '\t')
    case 'xlsx':
      return importXlsx(name, bytes)
    case 'ods':
      return importOds(name, bytes)
    case 'xls':
      return importXls(name, bytes)
    case 'html':
      return importHtml(name, bytes)
    case 'json':
      return importJson(name, bytes)
    case 'sqlite':
      return fail('unsupported-format', `${name} is a SQLite database; it can only be read asynchronously (importFile).`)
    default:
      return assertNever(format)
  }
}
