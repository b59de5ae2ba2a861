import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { RunRecord } from '../../../shared/python'
import { History, HISTORY_LIMIT } from '../history'
import { openFileStore } from './store'

function record(i: number, stdout = ''): RunRecord {
  return {
    id: `run-${i}`,
    code: `print(${i})`,
    tableName: 't.csv',
    startedAt: new Date(2026, 0, 1, 0, 0, i).toISOString(),
    result: { ok: true, value: { stdout, stderr: '', value: null, truncated: false, durationMs: 1, tableKind: 'none' } }
  }
}

describe('file store and history', () => {
  it('keeps runs across a reopen, newest first', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tableqa-store-'))
    const first = new History(openFileStore(dir, 'history').store)
    first.add(record(1))
    first.add(record(2))
    const reopened = new History(openFileStore(dir, 'history').store)
    expect(reopened.list().map((r) => r.id)).toEqual(['run-2', 'run-1'])
  })

  it('moves a corrupt file aside, reports it, and starts fresh', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tableqa-store-'))
    writeFileSync(join(dir, 'history.json'), '{"runs": [ {"id": "half-writ')
    const opened = openFileStore(dir, 'history')
    expect(opened.recovered?.backup).toMatch(/history\.corrupt-.*\.json$/)
    expect(readFileSync(opened.recovered?.backup ?? '', 'utf8')).toContain('half-writ')
    expect(new History(opened.store).list()).toEqual([])
    new History(opened.store).add(record(1))
    expect(JSON.parse(readFileSync(join(dir, 'history.json'), 'utf8'))).toHaveProperty('runs')
  })

  it('treats a file that is JSON but not an object as corrupt', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tableqa-store-'))
    writeFileSync(join(dir, 'history.json'), '[1, 2, 3]')
    expect(openFileStore(dir, 'history').recovered?.reason).toMatch(/not an object/)
  })

  it('writes atomically: no temporary files are left beside the store', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tableqa-store-'))
    const history = new History(openFileStore(dir, 'history').store)
    for (let i = 0; i < 20; i++) history.add(record(i))
    expect(readdirSync(dir)).toEqual(['history.json'])
    expect(existsSync(join(dir, 'history.json'))).toBe(true)
  })

  it('clears temp files a killed write left behind, keeping the store', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tableqa-store-'))
    new History(openFileStore(dir, 'history').store).add(record(1))
    writeFileSync(join(dir, 'history.json.tmp-6002821288b8bfdb'), '{"runs": [')
    const reopened = new History(openFileStore(dir, 'history').store)
    expect(readdirSync(dir)).toEqual(['history.json'])
    expect(reopened.list().map((r) => r.id)).toEqual(['run-1'])
  })

  it('keeps the newest runs up to the limit and cuts long output', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tableqa-store-'))
    const history = new History(openFileStore(dir, 'history').store)
    for (let i = 0; i < HISTORY_LIMIT + 5; i++) history.add(record(i))
    const runs = history.list()
    expect(runs).toHaveLength(HISTORY_LIMIT)
    expect(runs[0]?.id).toBe(`run-${HISTORY_LIMIT + 4}`)
    history.add(record(9999, 'x'.repeat(50_000)))
    const kept = history.list()[0]?.result
    expect(kept?.ok && kept.value.stdout.length).toBeLessThan(21_000)
  })
})
