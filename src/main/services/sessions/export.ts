import type { AnswerTable, AskSummary } from '../../../shared/ask'
import { repairLabel } from '../../../shared/ask'
import type { RunRecord } from '../../../shared/python'
import type { ExportFormat, SessionExport, SessionRecord } from '../../../shared/session'
import { fail, ok, type Result } from '../../../shared/result'
import { redactDeep } from './redact'
import { validateSession } from './validate'

export const EXPORT_FORMAT = 'tableqa-session'
/** Files up to this size travel inside a JSON export so an import can reopen their tables. */
export const EMBED_LIMIT_BYTES = 8 * 1024 * 1024

/** The JSON export: the session and, base64, the bytes of its (smaller) files. */
export type SessionFileJson = {
  format: typeof EXPORT_FORMAT
  version: 1
  exportedAt: string
  session: SessionRecord
  files: Record<string, string>
}

/** Chart answers drawn as SVG, by the askId of their question (the Markdown export embeds them). */
export type ChartImages = ReadonlyMap<string, string>

export function exportSession(
  record: SessionRecord,
  format: ExportFormat,
  bytesOf: (stored: string) => Uint8Array | null,
  known: readonly string[] = [],
  at: Date = new Date(),
  images: ChartImages = new Map()
): SessionExport {
  const session = redactDeep(record, known)
  const base = fileBase(session.name)
  if (format === 'markdown') return { fileName: `${base}.md`, mimeType: 'text/markdown', text: toMarkdown(session, at, images) }
  const files: Record<string, string> = {}
  for (const source of session.sources) {
    if (source.origin.kind !== 'file' || source.origin.bytes > EMBED_LIMIT_BYTES) continue
    const bytes = bytesOf(source.origin.stored)
    if (bytes) files[source.origin.stored] = Buffer.from(bytes).toString('base64')
  }
  const body: SessionFileJson = { format: EXPORT_FORMAT, version: 1, exportedAt: at.toISOString(), session, files }
  return { fileName: `${base}.json`, mimeType: 'application/json', text: `${JSON.stringify(body, null, 2)}\n` }
}

/** Read a JSON export back: the session (ids are replaced by the caller) and the bytes it carried. */
export function parseExport(text: string): Result<{ session: SessionRecord; files: Map<string, Uint8Array>; missing: string[] }> {
  if (typeof text !== 'string' || text.trim() === '') return fail('bad-input', 'The file is empty.')
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    return fail('bad-input', 'The file is not JSON.', error instanceof Error ? error.message : String(error))
  }
  if (typeof parsed !== 'object' || parsed === null || (parsed as { format?: unknown }).format !== EXPORT_FORMAT) {
    return fail('bad-input', 'This is not a TableQA session export (no "format": "tableqa-session").')
  }
  const body = parsed as Partial<SessionFileJson>
  const checked = validateSession(body.session)
  if (!checked.ok) return fail('bad-input', `The session in the file is not valid: ${checked.error.message}`)
  const files = new Map<string, Uint8Array>()
  const missing: string[] = []
  const given = typeof body.files === 'object' && body.files !== null ? body.files : {}
  for (const source of checked.value.sources) {
    if (source.origin.kind !== 'file') continue
    const data = Object.hasOwn(given, source.origin.stored) ? given[source.origin.stored] : undefined
    if (typeof data === 'string' && /^[A-Za-z0-9+/=\s]*$/.test(data))
      files.set(source.origin.stored, new Uint8Array(Buffer.from(data, 'base64')))
    else missing.push(source.origin.fileName)
  }
  return ok({ session: redactDeep(checked.value), files, missing })
}

function fileBase(name: string): string {
  const cleaned = name
    .replace(/[^A-Za-z0-9._ -]+/g, '')
    .trim()
    .replace(/\s+/g, '-')
  return cleaned === '' ? 'session' : cleaned.slice(0, 80)
}

function fence(code: string, lang = ''): string {
  const longest = Math.max(2, ...(code.match(/`+/g) ?? []).map((m) => m.length))
  const ticks = '`'.repeat(longest + 1)
  return `${ticks}${lang}\n${code.replace(/\n$/, '')}\n${ticks}`
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ')
}

function score(value: number | null): string {
  return value === null ? '–' : value.toFixed(3)
}

/** Rows of a table answer the Markdown export shows. */
const MARKDOWN_TABLE_ROWS = 50

function tableMarkdown(table: AnswerTable): string[] {
  const header = [...table.indexNames.map((n) => cell(n)), ...table.columns.map((c) => cell(c.filter((p) => p !== '').join(' › ')))]
  const lines = [`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`]
  table.rows.slice(0, MARKDOWN_TABLE_ROWS).forEach((row, i) => {
    const index = table.indexNames.length > 0 ? (table.index[i] ?? []) : []
    lines.push(`| ${[...index, ...row.map((v) => (v === null ? '' : String(v)))].map(cell).join(' | ')} |`)
  })
  const shown = Math.min(table.rows.length, MARKDOWN_TABLE_ROWS)
  if (shown < table.rowCount) lines.push('', `_The first ${shown} of ${table.rowCount.toLocaleString('en-US')} rows._`)
  return [...lines, '']
}

function questionMarkdown(q: AskSummary, n: number, images: ChartImages): string {
  const lines = [`### ${n}. ${q.question.replace(/\r?\n/g, ' ')}`, '']
  const image = images.get(q.askId)
  if (q.answer?.chart) {
    lines.push(`**Answer:** ${q.answer.text}`, '')
    if (image !== undefined)
      lines.push(
        `![${cell(q.answer.chart.summary).replace(/[[\]]/g, '')}](data:image/svg+xml;base64,${Buffer.from(image).toString('base64')})`,
        ''
      )
    else lines.push('_The chart could not be drawn for this export._', '')
  } else if (q.answer) {
    const types = [...new Set(q.answer.items.map((i) => i.type))].join(', ')
    if (q.answer.table) lines.push('**Answer:**', '', ...tableMarkdown(q.answer.table))
    else lines.push(`**Answer:** ${q.answer.text}${types ? ` _(${types})_` : ''}`, '')
  } else {
    lines.push(`**No answer.** ${q.problem?.message ?? ''}`.trim(), '')
  }
  lines.push(
    `Model: ${q.endpoint.name} (${q.endpoint.model}, ${q.endpoint.api}) · ${q.candidates.length} candidates · ${Math.round(q.timings.totalMs)} ms`,
    ''
  )
  if (q.program !== null) lines.push(`Chosen program (candidate ${(q.chosen ?? 0) + 1}):`, '', fence(q.program, 'python'), '')
  if (q.candidates.length > 0) {
    lines.push('| # | log-prob (sum) | result |', '| --- | --- | --- |')
    for (const c of q.candidates) {
      const repaired = repairLabel(c.repairedFrom)
      const result = `${c.result.ok ? c.result.answer.text : `error: ${c.result.error.message}`}${repaired === null ? '' : ` (${repaired})`}`
      lines.push(`| ${c.index + 1}${c.index === q.chosen ? ' ✓' : ''} | ${score(c.logprobSum)} | ${cell(result)} |`)
    }
    lines.push('')
  }
  return lines.join('\n')
}

function runMarkdown(run: RunRecord): string {
  const result = run.result.ok
    ? (run.result.value.value?.repr ?? run.result.value.stdout.trim())
    : `${run.result.error.code}: ${run.result.error.message}`
  return [
    `- ${run.startedAt} on ${run.tableName ?? 'no table'}`,
    '',
    fence(run.code, 'python'),
    '',
    `  Result: ${cell(result).slice(0, 500)}`,
    ''
  ].join('\n')
}

export function toMarkdown(session: SessionRecord, at: Date = new Date(), images: ChartImages = new Map()): string {
  const lines = [`# ${session.name}`, '', `Created ${session.createdAt} · exported ${at.toISOString()}`, '', '## Tables', '']
  if (session.sources.length === 0) lines.push('No tables.')
  for (const s of session.sources) {
    const from = s.origin.kind === 'file' ? `file ${s.origin.fileName}` : `sample ${s.origin.sample}`
    for (const t of s.tables) lines.push(`- ${t.name} (${from})`)
  }
  lines.push('', '## Questions', '')
  if (session.questions.length === 0) lines.push('No questions.', '')
  session.questions.forEach((q, i) => lines.push(questionMarkdown(q, i + 1, images)))
  lines.push('## Python runs', '')
  if (session.runs.length === 0) lines.push('No runs.', '')
  for (const run of session.runs) lines.push(runMarkdown(run))
  return `${lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`
}
