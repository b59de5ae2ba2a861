import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Handlers } from '../../shared/api'
import { SessionStore } from '../services/sessions'
import { askSummary } from '../../../test/support/session-fixtures'
import { Workspace } from '../services/workspace'
import { createSessionHandlers } from './session-handlers'
import { createTableHandlers, samplesDir } from './table-handlers'

const KEY = 'sk-handler-secret-abcdef123456'
const CSV = new TextEncoder().encode('Name,Score\nAnn,3\nBo,10\nCy,7\n')
// Another file: the same bytes again would give back the tables already open.
const PICKED = new TextEncoder().encode('Name,Score\nDee,4\nEd,9\n')

let dir: string
let sessions: SessionStore
let workspace: Workspace
let handlers: ReturnType<typeof createSessionHandlers>
let events: string[]
let payloads: { event: string; payload: unknown }[]

function make(): void {
  sessions = new SessionStore(join(dir, 'sessions'))
  workspace = new Workspace()
  const executor = { loadTable: () => Promise.resolve(), dropTable: () => Promise.resolve() }
  events = []
  payloads = []
  handlers = createSessionHandlers({
    sessions,
    tables: createTableHandlers({
      workspace,
      executor,
      openDialog: () => Promise.resolve({ ok: true, value: { name: 'picked.csv', bytes: PICKED } }),
      samplesDir: samplesDir()
    }),
    openDialog: () => Promise.resolve({ ok: true, value: { name: 'picked.csv', bytes: PICKED } }),
    events: {
      emit: (event: string, payload: unknown) => {
        events.push(event)
        payloads.push({ event, payload })
      }
    },
    knownSecrets: () => Promise.resolve([KEY])
  })
}

async function value<T>(promise: Promise<{ ok: true; value: T } | { ok: false; error: { message: string } }>): Promise<T> {
  const result = await promise
  if (!result.ok) throw new Error(result.error.message)
  return result.value
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tableqa-session-handlers-'))
  make()
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

describe('session handlers', () => {
  it('records opened files (bytes kept in the session folder) and samples, and forgets closed tables', async () => {
    const [scores] = await value(handlers['table:openBytes']({ name: 'scores.csv', bytes: CSV }))
    await value(handlers['table:openSample']({ name: 'bookshop-sqlite' }))
    await value(handlers['table:openDialog']())
    const current = sessions.current()
    expect(current.sources.map((s) => (s.origin.kind === 'file' ? s.origin.fileName : s.origin.sample))).toEqual([
      'scores.csv',
      'bookshop-sqlite',
      'picked.csv'
    ])
    const stored = current.sources[0]?.origin
    if (stored?.kind !== 'file') throw new Error('expected a file origin')
    expect(readFileSync(join(sessions.dir, current.id, stored.stored))).toEqual(Buffer.from(CSV))
    await value(handlers['table:close']({ tableId: scores?.id ?? '' }))
    expect(sessions.current().sources.map((s) => s.id)).not.toContain(current.sources[0]?.id)
    expect(readdirSync(join(sessions.dir, current.id))).toHaveLength(1)
  })

  it('keeps the session card current: every open and close sends the card; a file opened again is not recorded twice', async () => {
    const cards = (): string[][] =>
      payloads.filter((p) => p.event === 'session:updated').map((p) => (p.payload as { tableNames: string[] }).tableNames)
    const [scores] = await value(handlers['table:openBytes']({ name: 'scores.csv', bytes: CSV }))
    expect(cards()).toEqual([['scores.csv']])
    const again = await value(handlers['table:openBytes']({ name: 'scores (1).csv', bytes: CSV }))
    expect(again.map((t) => t.id)).toEqual([scores?.id])
    expect(sessions.current().sources).toHaveLength(1)
    expect(readdirSync(join(sessions.dir, sessions.current().id))).toHaveLength(1)
    await value(handlers['table:openSample']({ name: 'bookshop-sqlite' }))
    await value(handlers['table:openSample']({ name: 'bookshop-sqlite' }))
    expect(sessions.current().sources).toHaveLength(2)
    await value(handlers['table:close']({ tableId: scores?.id ?? '' }))
    expect(cards().at(-1)).toEqual(['bookshop.sqlite › authors', 'bookshop.sqlite › books'])
    expect(cards()).toHaveLength(3)
  })

  it('reopens a session: its tables come back with their saved header layout, others close', async () => {
    const [scores] = await value(handlers['table:openBytes']({ name: 'scores.csv', bytes: CSV }))
    const books = await value(handlers['table:openSample']({ name: 'bookshop-sqlite' }))
    const authors = books.find((t) => t.name.includes('authors'))
    await value(handlers['table:close']({ tableId: authors?.id ?? '' }))
    await value(
      handlers['table:restructure']({
        tableId: scores?.id ?? '',
        options: { ...(scores?.structure ?? { headerRows: 1, headerCols: 0 }), headerCols: 1 }
      })
    )
    const first = sessions.current().id
    await value(handlers['session:new']({ name: 'Empty' }))
    expect(workspace.list()).toEqual([])
    expect(events).toContain('session:changed')

    // A restart: new process state, same folder.
    make()
    const opened = await value(handlers['session:open']({ id: first }))
    expect(opened.warnings).toEqual([])
    const names = workspace.list().map((t) => t.summary.name)
    expect(names).toHaveLength(2)
    expect(names.some((n) => n.includes('authors'))).toBe(false)
    const reopened = workspace.list().find((t) => t.summary.name === scores?.name)
    expect(reopened?.summary.structure.headerCols).toBe(1)
    expect(sessions.current().id).toBe(first)
  })

  it('sets a layout set by hand again when the same bytes are opened again, in another session and under another name', async () => {
    const [scores] = await value(handlers['table:openBytes']({ name: 'scores.csv', bytes: CSV }))
    expect(scores?.structure.headerCols).toBe(0)
    await value(
      handlers['table:restructure']({ tableId: scores?.id ?? '', options: { headerRows: 1, headerCols: 1, leftHierarchy: 'none' } })
    )
    await value(handlers['session:new']({ name: 'Later' }))
    // A restart: the layout is found in the sessions on disk.
    make()
    const [again] = await value(handlers['table:openBytes']({ name: 'scores copy.csv', bytes: CSV }))
    expect(again?.structure).toEqual({ headerRows: 1, headerCols: 1, leftHierarchy: 'none' })
    expect(workspace.get(again?.id ?? '')?.parsed.index).toEqual([['Ann'], ['Bo'], ['Cy']])
    // Saved with the new session too, so it reopens with it.
    const source = sessions.current().sources[0]
    expect(source?.origin).toMatchObject({ kind: 'file', fileName: 'scores copy.csv', sha256: again?.source.sha256 })
    expect(source?.tables).toEqual([{ name: again?.name, structure: again?.structure, view: 'multiindex' }])
    // Other bytes under the first name are another table: detected afresh.
    const [other] = await value(handlers['table:openBytes']({ name: 'scores.csv', bytes: new TextEncoder().encode('Name,Score\nAnn,4\n') }))
    expect(other?.structure.headerCols).toBe(0)
  })

  it('keeps a layout set by hand for the file after its table is closed', async () => {
    const [scores] = await value(handlers['table:openBytes']({ name: 'scores.csv', bytes: CSV }))
    await value(handlers['table:restructure']({ tableId: scores?.id ?? '', options: { headerRows: 1, headerCols: 1 } }))
    await value(handlers['table:close']({ tableId: scores?.id ?? '' }))
    expect(sessions.current().sources).toEqual([])
    // Also after a restart, and without the store taking the layouts for a broken session.
    make()
    const [again] = await value(handlers['table:openBytes']({ name: 'scores.csv', bytes: CSV }))
    expect(again?.structure).toMatchObject({ headerRows: 1, headerCols: 1 })
    expect(sessions.listing().problems).toEqual([])
  })

  it('keeps rows moved by hand with the layout: set again on the same bytes under another name, after a restart, and given to Python', async () => {
    const [scores] = await value(handlers['table:openBytes']({ name: 'scores.csv', bytes: CSV }))
    const move = { row: 3, label: 'Cy', under: 1, underLabel: 'Ann' }
    const moved = await value(
      handlers['table:restructure']({
        tableId: scores?.id ?? '',
        options: { headerRows: 1, headerCols: 1, leftHierarchy: 'none', rowMoves: [move] }
      })
    )
    expect(moved.structure.rowMoves).toEqual([move])
    expect(workspace.get(moved.id)?.parsed.index).toEqual([
      ['Ann', ''],
      ['Bo', ''],
      ['Ann', 'Cy']
    ])
    await value(handlers['table:close']({ tableId: moved.id }))
    make()
    const [again] = await value(handlers['table:openBytes']({ name: 'renamed.csv', bytes: CSV }))
    expect(again?.structure.rowMoves).toEqual([move])
    expect(again?.warnings).toEqual([])
    const payload = JSON.parse(new TextDecoder().decode(workspace.get(again?.id ?? '')?.payload)) as { index: string[][] }
    expect(payload.index).toEqual([
      ['Ann', ''],
      ['Bo', ''],
      ['Ann', 'Cy']
    ])
    expect(sessions.current().sources[0]?.tables[0]?.structure?.rowMoves).toEqual([move])
    // The session reopened later sets the move again on its own copy of the file.
    const first = sessions.current().id
    await value(handlers['session:new']({ name: 'Later' }))
    const opened = await value(handlers['session:open']({ id: first }))
    expect(opened.warnings).toEqual([])
    expect(workspace.get(opened.tableIds[0] ?? '')?.parsed.index).toEqual([
      ['Ann', ''],
      ['Bo', ''],
      ['Ann', 'Cy']
    ])
  })

  it('drops a saved move that no longer fits with a notice, and refuses a move that is not one', async () => {
    const [scores] = await value(handlers['table:openBytes']({ name: 'scores.csv', bytes: CSV }))
    sessions.rememberLayout(scores?.source.sha256 ?? '', '', {
      name: 'scores.csv',
      structure: {
        headerRows: 1,
        headerCols: 1,
        leftHierarchy: 'none',
        rowMoves: [{ row: 3, label: 'Cyril', under: 1, underLabel: 'Ann' }]
      }
    })
    await value(handlers['table:close']({ tableId: scores?.id ?? '' }))
    const [again] = await value(handlers['table:openBytes']({ name: 'scores.csv', bytes: CSV }))
    expect(again?.structure).toEqual({ headerRows: 1, headerCols: 1, leftHierarchy: 'none' })
    expect(again?.warnings).toEqual(["scores.csv: a row moved by hand no longer fit and was dropped: Row 4 ('Cyril')."])
    expect(workspace.get(again?.id ?? '')?.parsed.warnings).toContain(
      "Row 4 ('Cyril') was moved under row 2 ('Ann') by hand; that no longer fits (the row now reads 'Cy'), so it was dropped."
    )
    // The layout kept for the file no longer carries it.
    expect(sessions.savedLayout(again?.source.sha256 ?? '', '')?.structure?.rowMoves).toBeUndefined()

    const refused = await handlers['table:restructure']({
      tableId: again?.id ?? '',
      options: { headerRows: 1, headerCols: 1, rowMoves: [{ row: 2, label: 'Bo', under: 2, underLabel: 'Bo' }] }
    })
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'bad-input', message: 'The moved rows are not valid: move 1: row 3 cannot go under itself.' }
    })
  })

  it('lists, renames, searches and deletes sessions', async () => {
    const a = sessions.current().id
    await value(handlers['session:rename']({ id: a, name: 'Scores work' }))
    await value(handlers['session:new']({}))
    expect((await value(handlers['session:list']({ query: 'scores' }))).sessions.map((s) => s.id)).toEqual([a])
    const rename = await handlers['session:rename']({ id: a, name: '  ' })
    expect(rename.ok).toBe(false)
    await value(handlers['session:delete']({ id: a }))
    expect((await value(handlers['session:list']({}))).sessions.map((s) => s.id)).not.toContain(a)
    expect((await handlers['session:open']({ id: a })).ok).toBe(false)
  })

  it('exports JSON and Markdown without the API key, and imports the JSON back with its files', async () => {
    await value(handlers['table:openBytes']({ name: 'scores.csv', bytes: CSV }))
    const id = sessions.current().id
    sessions.update(id, (r) => ({ ...r, questions: [askSummary('Who scored most?', 'Bo', { notes: [`the server said: ${KEY}`] })] }))
    const json = await value(handlers['session:export']({ id, format: 'json' }))
    const md = await value(handlers['session:export']({ id, format: 'markdown' }))
    for (const text of [json.text, md.text, readFileSync(join(sessions.dir, `${id}.json`), 'utf8')]) expect(text).not.toContain(KEY)
    expect(md.text).toContain('Who scored most?')
    const imported = await value(handlers['session:import']({ text: json.text }))
    expect(imported.session.name).toMatch(/\(imported\)$/)
    expect(imported.warnings).toEqual([])
    const opened = await value(handlers['session:open']({ id: imported.session.id }))
    expect(opened.tableIds).toHaveLength(1)
    expect((await value(handlers['history:questions']())).map((q) => q.question)).toEqual(['Who scored most?'])
    const bad = await handlers['session:import']({ text: '{"format":"tableqa-session","session":{}}' })
    expect(bad.ok ? '' : bad.error.message).toMatch(/not valid/)
  })

  it('reports a stored file that went missing instead of failing the whole session', async () => {
    await value(handlers['table:openBytes']({ name: 'scores.csv', bytes: CSV }))
    await value(handlers['table:openSample']({ name: 'orders-csv' }))
    const record = sessions.current()
    const origin = record.sources[0]?.origin
    if (origin?.kind !== 'file') throw new Error('expected a file origin')
    rmSync(join(sessions.dir, record.id, origin.stored))
    make()
    const opened = await value(handlers['session:open']({ id: record.id }))
    expect(opened.warnings).toEqual([expect.stringContaining('scores.csv')])
    expect(opened.tableIds).toHaveLength(1)
  })
})

// The contract and this module agree on the channels.
const channels: (keyof Handlers)[] = [
  'session:list',
  'session:new',
  'session:open',
  'session:rename',
  'session:delete',
  'session:export',
  'session:import',
  'history:questions'
]
it('implements every session channel', () => {
  for (const channel of channels) expect(typeof handlers[channel as keyof typeof handlers]).toBe('function')
})
