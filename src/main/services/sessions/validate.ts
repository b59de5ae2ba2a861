import type { SampleName, SessionOrigin, SessionRecord, SessionSource, SessionTable } from '../../../shared/session'
import { readRowMoves } from '../../../shared/corrections'
import { fail, ok, type Result } from '../../../shared/result'
import type { StructureOptions } from '../../../shared/table'

const SAMPLES: readonly SampleName[] = ['orders-csv', 'regional-report-xlsx', 'bookshop-sqlite']
const ID = /^[A-Za-z0-9_-]{1,80}$/
const STORED = /^[A-Za-z0-9_-]{1,80}\.bin$/

type Check<T> = Result<T>

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isTime(value: unknown): value is string {
  return typeof value === 'string' && !Number.isNaN(Date.parse(value))
}

export function isSessionId(value: unknown): value is string {
  return typeof value === 'string' && ID.test(value)
}

function origin(value: unknown, where: string): Check<SessionOrigin> {
  if (!isObject(value)) return fail('bad-input', `${where}: the origin is missing.`)
  if (value['kind'] === 'sample') {
    const sample = value['sample']
    return SAMPLES.includes(sample as SampleName)
      ? ok({ kind: 'sample', sample: sample as SampleName })
      : fail('bad-input', `${where}: unknown sample ${JSON.stringify(sample)}.`)
  }
  if (value['kind'] === 'file') {
    const { fileName, stored, bytes, sha256 } = value
    if (typeof fileName !== 'string' || fileName === '' || fileName.length > 500)
      return fail('bad-input', `${where}: the file name is missing.`)
    if (typeof stored !== 'string' || !STORED.test(stored)) return fail('bad-input', `${where}: the stored file name is not valid.`)
    if (typeof bytes !== 'number' || !Number.isInteger(bytes) || bytes < 0)
      return fail('bad-input', `${where}: the file size is not valid.`)
    if (sha256 !== undefined && (typeof sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(sha256)))
      return fail('bad-input', `${where}: the file's SHA-256 is not valid.`)
    return ok({ kind: 'file', fileName, stored, bytes, ...(sha256 === undefined ? {} : { sha256 }) })
  }
  return fail('bad-input', `${where}: the origin kind must be "file" or "sample".`)
}

/**
 * A table of a session: its name, and its header layout when it is valid. Rows moved by hand that are not
 * valid are left out, each with a line in `problems`; the rest of the layout still holds.
 */
export function validateTable(value: unknown, where: string, problems: string[] = []): Check<SessionTable> {
  if (!isObject(value) || typeof value['name'] !== 'string') return fail('bad-input', `${where}: a table has no name.`)
  const out: SessionTable = { name: value['name'] }
  const structure = value['structure']
  if (isObject(structure) && Number.isInteger(structure['headerRows']) && Number.isInteger(structure['headerCols'])) {
    const { rowMoves, ...layout } = structure as StructureOptions & Record<string, unknown>
    const moves = readRowMoves(rowMoves)
    for (const problem of moves.problems) problems.push(`${where}, ${value['name']}: ${problem}`)
    out.structure = moves.moves.length > 0 ? { ...layout, rowMoves: moves.moves } : layout
  }
  if (value['view'] === 'multiindex' || value['view'] === 'flatten') out.view = value['view']
  return ok(out)
}

function source(value: unknown, index: number, problems: string[]): Check<SessionSource> {
  const where = `Table source ${index + 1}`
  if (!isObject(value) || !isSessionId(value['id'])) return fail('bad-input', `${where}: the id is missing or not valid.`)
  const from = origin(value['origin'], where)
  if (!from.ok) return from
  if (!Array.isArray(value['tables'])) return fail('bad-input', `${where}: the table list is missing.`)
  const tables: SessionTable[] = []
  for (const t of value['tables']) {
    const checked = validateTable(t, where, problems)
    if (!checked.ok) return checked
    tables.push(checked.value)
  }
  return ok({ id: value['id'], origin: from.value, tables })
}

/**
 * Check that parsed JSON is a session record; every problem gets a message that names the field. What is left
 * out without failing the record (a table's damaged moves) is said in `problems`.
 */
export function validateSession(value: unknown, problems: string[] = []): Check<SessionRecord> {
  if (!isObject(value)) return fail('bad-input', 'A session must be a JSON object.')
  if (value['version'] !== 1) return fail('bad-input', `Unsupported session version ${JSON.stringify(value['version'])}.`)
  if (!isSessionId(value['id'])) return fail('bad-input', 'The session id is missing or not valid.')
  if (typeof value['name'] !== 'string' || value['name'].length > 500) return fail('bad-input', 'The session name is missing.')
  if (!isTime(value['createdAt']) || !isTime(value['updatedAt'])) return fail('bad-input', 'The session times are missing or not valid.')
  if (!Array.isArray(value['sources']) || !Array.isArray(value['questions']) || !Array.isArray(value['runs'])) {
    return fail('bad-input', 'The session must list its sources, questions and runs.')
  }
  const sources: SessionSource[] = []
  for (const [i, s] of value['sources'].entries()) {
    const checked = source(s, i, problems)
    if (!checked.ok) return checked
    sources.push(checked.value)
  }
  for (const [i, q] of value['questions'].entries()) {
    if (!isObject(q) || typeof q['question'] !== 'string' || typeof q['askId'] !== 'string' || !Array.isArray(q['candidates'])) {
      return fail('bad-input', `Question ${i + 1} is not a question record.`)
    }
  }
  for (const [i, r] of value['runs'].entries()) {
    if (!isObject(r) || typeof r['code'] !== 'string' || typeof r['id'] !== 'string' || !isObject(r['result']))
      return fail('bad-input', `Run ${i + 1} is not a run record.`)
  }
  return ok({
    version: 1,
    id: value['id'],
    name: value['name'],
    createdAt: value['createdAt'],
    updatedAt: value['updatedAt'],
    sources,
    questions: value['questions'] as SessionRecord['questions'],
    runs: value['runs'] as SessionRecord['runs']
  })
}
