import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { RunRecord } from '../../src/shared/python'
import { History } from '../../src/main/services/history'
import { openFileStore } from '../../src/main/services/store/store'
import { simulateKills } from './support/kill-history'

const record = (id: string): RunRecord => ({
  id,
  code: 'answer = 1',
  tableName: null,
  startedAt: new Date(0).toISOString(),
  result: { ok: true, value: { stdout: '', stderr: '', value: null, truncated: false, durationMs: 1, tableKind: 'none' } }
})

describe('history store under kills and corruption', () => {
  it('loses no committed entry and always reopens when the writer is killed mid-write 100 times', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tableqa-kill-'))
    const report = await simulateKills(dir, 100)
    expect(report.problems).toEqual([])
    expect(report.corruptOpens).toBe(0)
    expect(report.lost).toBe(0)
    // The simulation is only worth something if the writer got going before most kills.
    expect(report.committed).toBeGreaterThan(100)
    expect(report.emptyRounds).toBe(0)
  }, 600_000)

  const corruptions: [string, Uint8Array][] = [
    ['random bytes', new Uint8Array(Array.from({ length: 4096 }, (_v, k) => (k * 7919) % 256))],
    ['a file cut in half', new TextEncoder().encode(JSON.stringify({ runs: [record('a'), record('b')] }).slice(0, 120))],
    ['an empty file', new Uint8Array(0)],
    ['JSON that is not an object', new TextEncoder().encode('[1, 2, 3]')],
    ['NUL bytes', new Uint8Array(1024)]
  ]

  it.each(corruptions)('detects %s, moves it aside with its bytes and starts a fresh store', (_what, bytes) => {
    const dir = mkdtempSync(join(tmpdir(), 'tableqa-corrupt-'))
    writeFileSync(join(dir, 'history.json'), bytes)
    const opened = openFileStore(dir, 'history')
    expect(opened.recovered).not.toBeNull()
    if (opened.recovered === null) return
    expect(opened.recovered.reason).not.toBe('')
    expect(existsSync(opened.recovered.backup)).toBe(true)
    expect(new Uint8Array(readFileSync(opened.recovered.backup))).toEqual(bytes)
    const history = new History(opened.store)
    expect(history.list()).toEqual([])
    history.add(record('after'))
    const again = openFileStore(dir, 'history')
    expect(again.recovered).toBeNull()
    expect(new History(again.store).list().map((r) => r.id)).toEqual(['after'])
  })
})
