/**
 * The `session:*` channels and `history:questions`, plus the bookkeeping that ties open tables to the
 * current session: the table handlers are wrapped so every open, close and new header layout is recorded.
 */

import type { Handlers, TableSummary } from '../../shared/api'
import type { AskSummary } from '../../shared/ask'
import { rowName, type RowMove } from '../../shared/corrections'
import { chartSvg } from '../services/charts/svg'
import { fail, ok, type Result } from '../../shared/result'
import type { SessionRecord, SessionSource, SessionSummary, SessionTable } from '../../shared/session'
import type { SessionStore } from '../services/sessions'
import { exportSession, parseExport, summarize, tablePart } from '../services/sessions'
import type { OpenDialog } from './table-handlers'

type TableChannel = Extract<keyof Handlers, `table:${string}`>
type TableHandlers = Pick<Handlers, TableChannel>
export type SessionChannel = Extract<keyof Handlers, `session:${string}`> | 'history:questions'

export type SessionHandlerDeps = {
  sessions: SessionStore
  /** The table handlers, as createTableHandlers makes them. */
  tables: TableHandlers
  openDialog: OpenDialog | null
  events: {
    emit(event: 'history:changed', payload: { count: number }): void
    emit(event: 'session:changed', payload: { currentId: string }): void
    emit(event: 'session:updated', payload: SessionSummary): void
  }
  /** The API keys in use, so exports can be checked for them. */
  knownSecrets: () => Promise<string[]>
}

/** Where an open table is recorded: its session and source, and its name there. */
type Tracked = { sessionId: string; sourceId: string; name: string }

/** The API keys of the configured endpoints, so an export can be checked against them. */
export async function storedKeys(
  endpoints: { apiKeyRef?: string }[],
  secrets: { get(ref: string): Promise<string | null> }
): Promise<string[]> {
  const keys: string[] = []
  for (const e of endpoints) {
    const key = e.apiKeyRef === undefined ? null : await secrets.get(e.apiKeyRef)
    if (key !== null) keys.push(key)
  }
  return keys
}

const MAX_IMPORT_CHARS = 200 * 1024 * 1024

/** A notice for the rows moved by hand in a saved layout that no longer fit the table (its warnings say why). */
function droppedMoves(saved: readonly RowMove[] | undefined, table: TableSummary): string[] {
  const kept = new Set((table.structure.rowMoves ?? []).map((m) => m.row))
  const lost = (saved ?? []).filter((m) => !kept.has(m.row))
  if (lost.length === 0) return []
  const rows = lost.map((m) => rowName(m.row, m.label)).join(', ')
  return [
    `${table.name}: ${lost.length === 1 ? 'a row' : `${lost.length} rows`} moved by hand no longer fit and ${lost.length === 1 ? 'was' : 'were'} dropped: ${rows}.`
  ]
}

/** The chart answers of a session drawn as SVG, for the Markdown export; a chart that cannot be drawn is left out. */
async function chartImages(questions: readonly AskSummary[]): Promise<Map<string, string>> {
  const images = new Map<string, string>()
  for (const q of questions) {
    if (!q.answer?.chart) continue
    const svg = await chartSvg(q.answer.chart.spec)
    if (svg.ok) images.set(q.askId, svg.value)
  }
  return images
}

/** The session part of the contract, and the table handlers wrapped to record into the current session. */
export function createSessionHandlers(deps: SessionHandlerDeps): Pick<Handlers, SessionChannel> & TableHandlers {
  const { sessions, tables: inner } = deps
  const tracked = new Map<string, Tracked>()
  let sourceSeq = 0

  // The session card in the UI follows every change of the current session's tables.
  const updated = (sessionId: string): void => {
    const current = sessions.current()
    if (current.id === sessionId) deps.events.emit('session:updated', summarize(current))
  }

  const record = (origin: SessionSource['origin'], opened: TableSummary[], saved?: ReadonlyMap<string, SessionTable>): void => {
    const sessionId = sessions.current().id
    const sourceId = `s${Date.now().toString(36)}${(sourceSeq++).toString(36)}`
    sessions.update(sessionId, (r) => ({
      ...r,
      sources: [...r.sources, { id: sourceId, origin, tables: opened.map((t) => saved?.get(t.name) ?? { name: t.name }) }]
    }))
    for (const t of opened) tracked.set(t.id, { sessionId, sourceId, name: t.name })
    updated(sessionId)
  }

  const openBytes = async (name: string, bytes: Uint8Array): Promise<Result<TableSummary[]>> => {
    const opened = await inner['table:openBytes']({ name, bytes })
    if (!opened.ok || opened.value.length === 0) return opened
    // The file was open already: its tables are back in front, nothing new to record.
    if (opened.value.every((t) => tracked.has(t.id))) return opened
    const sha256 = opened.value[0]?.source.sha256
    // A layout set by hand on these bytes before (in this session or another) is set again.
    const saved = new Map<string, SessionTable>()
    const tables: TableSummary[] = []
    for (const table of opened.value) {
      if (tracked.has(table.id)) {
        tables.push(table)
        continue
      }
      const layout = sha256 === undefined ? undefined : sessions.savedLayout(sha256, tablePart(table.name, name))
      const again =
        layout?.structure === undefined
          ? null
          : await inner['table:restructure']({
              tableId: table.id,
              options: layout.structure,
              ...(layout.view ? { view: layout.view } : {})
            })
      if (again?.ok === true) saved.set(table.name, { name: table.name, structure: again.value.structure, view: again.value.view })
      const part = tablePart(table.name, name)
      const notes = sha256 === undefined ? [] : sessions.savedLayoutNotes(sha256, part)
      const dropped = again?.ok === true ? droppedMoves(layout?.structure?.rowMoves, again.value) : []
      // Kept for the file without what no longer fits or was damaged: the notice is given once.
      if (again?.ok === true && (dropped.length > 0 || notes.length > 0) && sha256 !== undefined)
        sessions.rememberLayout(sha256, part, { name: table.name, structure: again.value.structure, view: again.value.view })
      notes.push(...dropped)
      const summary = again?.ok === true ? again.value : table
      tables.push(notes.length === 0 ? summary : { ...summary, warnings: [...summary.warnings, ...notes] })
    }
    const stored = sessions.saveBytes(sessions.current().id, bytes)
    record(
      { kind: 'file', fileName: name, stored, bytes: bytes.byteLength, ...(sha256 === undefined ? {} : { sha256 }) },
      tables.filter((t) => !tracked.has(t.id)),
      saved
    )
    return ok(tables)
  }

  const forget = (tableId: string): void => {
    const where = tracked.get(tableId)
    tracked.delete(tableId)
    if (!where) return
    sessions.update(where.sessionId, (r) => {
      const sources: SessionSource[] = []
      for (const s of r.sources) {
        if (s.id !== where.sourceId) sources.push(s)
        else {
          const left = s.tables.filter((t) => t.name !== where.name)
          if (left.length > 0) sources.push({ ...s, tables: left })
          else if (s.origin.kind === 'file') sessions.dropBytes(r.id, s.origin.stored)
        }
      }
      return { ...r, sources }
    })
    updated(where.sessionId)
  }

  const closeAll = async (): Promise<void> => {
    const open = await inner['table:list']()
    if (open.ok) for (const t of open.value) await inner['table:close']({ tableId: t.id })
    tracked.clear()
  }

  const announce = (): void => {
    const current = sessions.current()
    deps.events.emit('session:changed', { currentId: current.id })
    deps.events.emit('history:changed', { count: current.runs.length })
  }

  /** Open a session's tables again, as they were recorded. */
  const reopen = async (record: SessionRecord): Promise<{ tableIds: string[]; warnings: string[] }> => {
    const tableIds: string[] = []
    const warnings: string[] = [...sessions.takeNotes(record.id)]
    for (const source of record.sources) {
      let opened: Result<TableSummary[]>
      if (source.origin.kind === 'sample') opened = await inner['table:openSample']({ name: source.origin.sample })
      else {
        const bytes = sessions.readBytes(record.id, source.origin.stored)
        if (bytes === null) {
          warnings.push(`${source.origin.fileName}: the file's copy is missing from the session folder; open it again.`)
          continue
        }
        opened = await inner['table:openBytes']({ name: source.origin.fileName, bytes })
      }
      if (!opened.ok) {
        warnings.push(`${source.origin.kind === 'file' ? source.origin.fileName : source.origin.sample}: ${opened.error.message}`)
        continue
      }
      for (const table of opened.value) {
        const kept = source.tables.find((t) => t.name === table.name)
        if (!kept) {
          await inner['table:close']({ tableId: table.id })
          continue
        }
        tracked.set(table.id, { sessionId: record.id, sourceId: source.id, name: table.name })
        tableIds.push(table.id)
        if (kept.structure) {
          const again = await inner['table:restructure']({
            tableId: table.id,
            options: kept.structure,
            ...(kept.view ? { view: kept.view } : {})
          })
          if (!again.ok) warnings.push(`${table.name}: the saved header layout could not be applied (${again.error.message}).`)
          else warnings.push(...droppedMoves(kept.structure.rowMoves, again.value))
        }
      }
    }
    return { tableIds, warnings }
  }

  return {
    ...inner,
    'table:openBytes': (request) => openBytes(request?.name, request?.bytes),
    'table:openDialog': async () => {
      if (!deps.openDialog) return inner['table:openDialog']()
      const picked = await deps.openDialog()
      if (!picked.ok) return picked
      return picked.value === null ? ok([]) : openBytes(picked.value.name, picked.value.bytes)
    },
    'table:openSample': async (request) => {
      const opened = await inner['table:openSample'](request)
      if (opened.ok && opened.value.length > 0 && !opened.value.every((t) => tracked.has(t.id)))
        record(
          { kind: 'sample', sample: request.name },
          opened.value.filter((t) => !tracked.has(t.id))
        )
      return opened
    },
    'table:close': async (request) => {
      const closed = await inner['table:close'](request)
      if (closed.ok) forget(request.tableId)
      return closed
    },
    'table:restructure': async (request) => {
      const result = await inner['table:restructure'](request)
      const where = tracked.get(request.tableId)
      if (result.ok && where) {
        const { structure, view, source } = result.value
        sessions.rememberLayout(source.sha256, tablePart(where.name, source.fileName), { name: where.name, structure, view })
        sessions.update(where.sessionId, (r) => ({
          ...r,
          sources: r.sources.map((s) =>
            s.id !== where.sourceId ? s : { ...s, tables: s.tables.map((t) => (t.name === where.name ? { ...t, structure, view } : t)) }
          )
        }))
      }
      return result
    },
    'session:list': (request) => Promise.resolve(ok(sessions.listing(typeof request?.query === 'string' ? request.query : ''))),
    'session:new': async (request) => {
      await closeAll()
      const created = sessions.create(typeof request?.name === 'string' ? request.name : undefined)
      announce()
      return ok(summarize(created))
    },
    'session:open': async (request) => {
      const found = sessions.get(request?.id)
      if (!found) return fail('not-found', 'That session no longer exists.')
      await closeAll()
      sessions.setCurrent(found.id)
      const { tableIds, warnings } = await reopen(found)
      announce()
      return ok({ session: summarize(sessions.current()), tableIds, warnings })
    },
    'session:rename': (request) => {
      if (typeof request?.name !== 'string' || request.name.trim() === '')
        return Promise.resolve(fail('bad-input', 'A session needs a name.'))
      if (request.name.length > 200) return Promise.resolve(fail('bad-input', 'That name is longer than 200 characters.'))
      const renamed = sessions.rename(request.id, request.name)
      return Promise.resolve(renamed ? ok(summarize(renamed)) : fail('not-found', 'That session no longer exists.'))
    },
    'session:delete': async (request) => {
      const wasCurrent = sessions.current().id === request?.id
      if (!sessions.get(request?.id)) return fail('not-found', 'That session no longer exists.')
      if (wasCurrent) await closeAll()
      sessions.delete(request.id)
      if (wasCurrent) announce()
      return ok(null)
    },
    'session:export': async (request) => {
      const found = sessions.get(request?.id)
      if (!found) return fail('not-found', 'That session no longer exists.')
      if (request.format !== 'json' && request.format !== 'markdown') return fail('bad-input', 'Export as "json" or "markdown".')
      const known = await deps.knownSecrets()
      const images = request.format === 'markdown' ? await chartImages(found.questions) : new Map<string, string>()
      return ok(exportSession(found, request.format, (stored) => sessions.readBytes(found.id, stored), known, new Date(), images))
    },
    'session:import': (request) => {
      if (typeof request?.text !== 'string') return Promise.resolve(fail('bad-input', 'Expected the text of a session export.'))
      if (request.text.length > MAX_IMPORT_CHARS)
        return Promise.resolve(fail('too-large', 'That file is too large to be a session export.'))
      const parsed = parseExport(request.text)
      if (!parsed.ok) return Promise.resolve(parsed)
      const { session, files, missing } = parsed.value
      const added = sessions.add({ ...session, name: `${session.name} (imported)` }, files)
      const notes = missing.map((name) => `${name}: the export did not carry this file; reopen it by hand.`)
      return Promise.resolve(ok({ session: summarize(added), tableIds: [], warnings: notes }))
    },
    'history:questions': () => Promise.resolve(ok([...sessions.current().questions].reverse()))
  }
}
