import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SessionStore } from './store'
import { currentSessionStore, adoptOldHistory } from './history-store'
import { askSummary, runRecord } from '../../../../test/support/session-fixtures'
import { History } from '../history'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tableqa-sessions-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

function files(): string[] {
  return readdirSync(dir).sort()
}

describe('session store', () => {
  it('starts with one empty current session, one file per session plus an index', () => {
    const store = new SessionStore(dir)
    const current = store.current()
    expect(current.sources).toEqual([])
    expect(files()).toEqual([`${current.id}.json`, 'index.json'])
    const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as { currentId: string }
    expect(index.currentId).toBe(current.id)
  })

  it('keeps sessions across restarts and remembers the current one', () => {
    const first = new SessionStore(dir)
    const a = first.current()
    const b = first.create('Second')
    first.update(a.id, (r) => ({ ...r, questions: [askSummary('how many?', '3')] }))
    first.setCurrent(a.id)
    const again = new SessionStore(dir)
    expect(again.current().id).toBe(a.id)
    expect(again.current().questions.map((q) => q.question)).toEqual(['how many?'])
    expect(again.get(b.id)?.name).toBe('Second')
  })

  it('moves a corrupt session file aside, reports it, and still starts with the others', () => {
    const first = new SessionStore(dir)
    const good = first.create('Good')
    writeFileSync(join(dir, 'broken-one.json'), '{"version": 1, "id": "broken-one", "na')
    writeFileSync(join(dir, 'wrong-shape.json'), JSON.stringify({ version: 1, id: 'wrong-shape' }))
    const store = new SessionStore(dir)
    expect(store.problems.map((p) => p.file).sort()).toEqual([join(dir, 'broken-one.json'), join(dir, 'wrong-shape.json')])
    expect(store.problems.every((p) => existsSync(p.movedTo) && p.movedTo.includes('.corrupt-'))).toBe(true)
    expect(existsSync(join(dir, 'broken-one.json'))).toBe(false)
    expect(store.get(good.id)?.name).toBe('Good')
    expect(store.listing().problems).toHaveLength(2)
    // Quarantined files are not read again.
    expect(new SessionStore(dir).problems).toEqual([])
  })

  it('rebuilds a lost or corrupt index from the session files', () => {
    // A clock that moves on every reading: two sessions made in the same millisecond are not ordered.
    let tick = Date.parse('2026-01-01T00:00:00Z')
    const clock = (): Date => new Date((tick += 1000))
    const first = new SessionStore(dir, clock)
    const newest = first.create('Newest')
    writeFileSync(join(dir, 'index.json'), 'not json')
    const store = new SessionStore(dir, clock)
    expect(store.current().id).toBe(newest.id)
    expect(store.listing().sessions).toHaveLength(2)
  })

  it('ignores a half-written temp file left by a killed write and keeps the previous version', () => {
    const store = new SessionStore(dir)
    const id = store.current().id
    store.rename(id, 'Before the crash')
    writeFileSync(join(dir, `${id}.json.1234-abcd.tmp`), '{"version":1,"id":"')
    const again = new SessionStore(dir)
    expect(again.current().name).toBe('Before the crash')
    expect(files().some((f) => f.endsWith('.tmp'))).toBe(false)
    expect(again.problems).toEqual([])
  })

  it('loses nothing when the writing process is killed mid-write', async () => {
    const script = resolve(import.meta.dirname, '../../../../test/support/session-writer.ts')
    const child = spawn(process.execPath, ['--import', 'tsx', script, dir], { stdio: ['ignore', 'pipe', 'inherit'] })
    // Kill it once it has written a few dozen times (it prints a dot per write).
    await new Promise<void>((done) => {
      let dots = 0
      child.stdout.on('data', (chunk: Buffer) => {
        dots += chunk.toString().length
        if (dots >= 40 && child.exitCode === null) {
          child.kill('SIGKILL')
          done()
        }
      })
    })
    await new Promise((done) => child.once('exit', done))
    const store = new SessionStore(dir)
    expect(store.problems).toEqual([])
    const session = store.current()
    // Every version written holds 2,000 runs: a torn file would fail to parse or hold fewer.
    expect(session.runs.length).toBe(2_000)
    expect(session.name).toMatch(/^Version \d+$/)
  }, 60_000)

  it('searches names, tables, questions and answers', () => {
    const store = new SessionStore(dir)
    const a = store.create('Budget 2023')
    store.update(a.id, (r) => ({ ...r, questions: [askSummary('Which region grew most?', 'North')] }))
    const b = store.create('Coffee')
    store.update(b.id, (r) => ({
      ...r,
      sources: [{ id: 's1', origin: { kind: 'sample', sample: 'orders-csv' }, tables: [{ name: 'orders.csv' }] }]
    }))
    expect(store.listing('region').sessions.map((s) => s.id)).toEqual([a.id])
    expect(store.listing('north budget').sessions.map((s) => s.id)).toEqual([a.id])
    expect(store.listing('ORDERS').sessions.map((s) => s.id)).toEqual([b.id])
    expect(store.listing('nothing-like-this').sessions).toEqual([])
    expect(store.listing().sessions.find((s) => s.id === b.id)?.tableNames).toEqual(['orders.csv'])
  })

  it('deleting the current session makes another current and removes its files', () => {
    const store = new SessionStore(dir)
    const a = store.current()
    const b = store.create('B')
    const stored = store.saveBytes(b.id, new Uint8Array([1, 2, 3]))
    expect(store.readBytes(b.id, stored)).toEqual(new Uint8Array([1, 2, 3]))
    store.delete(b.id)
    expect(store.current().id).toBe(a.id)
    expect(existsSync(join(dir, b.id))).toBe(false)
    expect(existsSync(join(dir, `${b.id}.json`))).toBe(false)
  })

  it('never writes an API key that an error message echoed', () => {
    const store = new SessionStore(dir)
    const leaked = askSummary('q', 'a', {
      answer: null,
      problem: {
        code: 'model-http',
        message: 'HTTP 401: invalid key sk-test-abcdefghijklmnop1234 (Authorization: Bearer sk-test-abcdefghijklmnop1234)'
      }
    })
    store.update(store.current().id, (r) => ({ ...r, questions: [leaked] }))
    const text = readFileSync(join(dir, `${store.current().id}.json`), 'utf8')
    expect(text).not.toContain('abcdefghijklmnop1234')
    expect(text).toContain('[redacted]')
  })
})

describe('run history over the current session', () => {
  it('shows the runs and questions of whichever session is current', () => {
    const store = new SessionStore(dir)
    const history = new History(currentSessionStore(store))
    history.add(runRecord('len(rows)', '3'))
    history.addQuestion(askSummary('how many?', '3'))
    const first = store.current().id
    store.create('Other')
    expect(history.list()).toEqual([])
    history.add(runRecord('1 + 1', '2'))
    store.setCurrent(first)
    expect(history.list().map((r) => r.code)).toEqual(['len(rows)'])
    expect(history.questions().map((q) => q.question)).toEqual(['how many?'])
    expect(new SessionStore(dir).get(first)?.runs).toHaveLength(1)
  })

  it('moves the old history file into the first session once', () => {
    const values = new Map<string, unknown>([['runs', [runRecord('old()', '1')]]])
    const old = {
      path: 'old',
      get: <T>(k: string) => values.get(k) as T | undefined,
      set: (k: string, v: unknown) => void values.set(k, v)
    }
    const store = new SessionStore(dir)
    adoptOldHistory(store, old)
    adoptOldHistory(store, old)
    expect(store.current().runs.map((r) => r.code)).toEqual(['old()'])
  })
})
