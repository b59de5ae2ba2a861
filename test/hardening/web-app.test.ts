/**
 * The browser-mode server (`out/main/web.js`; run `npx electron-vite build` first) under bad conditions:
 * a corrupt history file at start, a 100 MB import, and Python runs that fail.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeBadFiles } from '../fixtures/bad-files/make'
import { startWebApp, type WebApp } from '../support/web-app'
import { probeDuring } from './support/web-app'
import { webClient } from './support/web-client'

const root = mkdtempSync(join(tmpdir(), 'tableqa-hardening-web-'))
const apps: WebApp[] = []

async function start(dataDir: string): Promise<{ app: WebApp; call: ReturnType<typeof webClient> }> {
  const app = await startWebApp(dataDir)
  apps.push(app)
  return { app, call: webClient(app.url) }
}

afterAll(async () => {
  await Promise.all(apps.map((a) => a.stop()))
})

describe('browser-mode server: a corrupt history file', () => {
  it('starts anyway, says where the unreadable file went, and serves an empty history', async () => {
    const dataDir = join(root, 'corrupt')
    mkdirSync(dataDir, { recursive: true })
    writeFileSync(join(dataDir, 'history.json'), '{"runs": [{"id": "cut-off')
    const { app, call } = await start(dataDir)
    expect(app.output()).toMatch(/History file was unreadable \(.+\); it was moved to .+history\.corrupt-.+\.json and a new one started\./)
    expect(readdirSync(dataDir).some((f) => /^history\.corrupt-.+\.json$/.test(f))).toBe(true)
    expect(await call('history:list', undefined)).toEqual({ ok: true, value: [] })
    expect((await call('app:info', undefined)).mode).toBe('web')
  })
})

describe('browser-mode server: staying responsive during a big import', () => {
  let bigCsv = ''
  beforeAll(async () => {
    const dir = join(root, 'files')
    const files = await makeBadFiles(dir)
    bigCsv = files.find((f) => f.name === 'big-100mb.csv')?.path ?? ''
  }, 300_000)

  // The table thread reads, structures and encodes the file; the server takes the result in parts between
  // requests, and the sandbox fetches the JSON over HTTP, so no step holds the event loop for long. The
  // 1 s target is measured by `npm run bench -- robustness` on a quiet machine; here, with other tests
  // running beside it, the bound only catches a step that blocks the loop for the whole structuring again
  // (8.5 s before the table thread, 27.5 s before any thread).
  it('answers every app:info call while a 100 MB CSV is being imported, none held for seconds', async () => {
    const { call } = await start(join(root, 'responsive'))
    const bytes = new Uint8Array(await readFile(bigCsv))
    const opening = call('table:openBytes', { name: 'big-100mb.csv', bytes })
    const probes = await probeDuring(opening, () => call('app:info', undefined, AbortSignal.timeout(30_000)))
    const opened = await opening
    expect(opened.ok).toBe(true)
    expect(probes.length).toBeGreaterThan(0)
    expect(probes.filter((p) => p.error !== null)).toEqual([])
    expect(Math.max(...probes.map((p) => p.ms))).toBeLessThan(5_000)
  }, 300_000)
})

describe('browser-mode server: history survives failing runs', () => {
  it('keeps an entry for every run, whether it fails, times out or is stopped, across a restart', async () => {
    const dataDir = join(root, 'runs')
    const first = await start(dataDir)
    const { call } = first
    for (let k = 0; k < 600; k++) {
      const status = await call('python:status', undefined)
      if (status.state === 'ready') break
      if (status.state === 'error') throw new Error(status.message)
      await new Promise((r) => setTimeout(r, 200))
    }
    const opened = await call('table:openBytes', { name: 'small.csv', bytes: new TextEncoder().encode('a,b\n1,2\n3,4\n') })
    expect(opened.ok).toBe(true)
    if (!opened.ok) return
    const tableId = opened.value[0]?.id ?? ''
    const runs: { runId: string; code: string; timeoutMs?: number; expect: string }[] = [
      { runId: 'ok-1', code: 'answer = len(rows)', expect: 'ok' },
      { runId: 'raise-1', code: 'raise ValueError("nope")', expect: 'python-error' },
      { runId: 'syntax-1', code: 'def (:', expect: 'python-error' },
      { runId: 'timeout-1', code: 'while True:\n    pass', timeoutMs: 800, expect: 'timeout' },
      { runId: 'sleep-1', code: 'import time\ntime.sleep(3600)', timeoutMs: 800, expect: 'timeout' }
    ]
    const codes: Record<string, string> = {}
    for (const run of runs) {
      const result = await call('python:run', {
        runId: run.runId,
        code: run.code,
        tableId,
        ...(run.timeoutMs === undefined ? {} : { timeoutMs: run.timeoutMs })
      })
      expect(result.ok, JSON.stringify(result)).toBe(true)
      if (result.ok) codes[run.runId] = result.value.result.ok ? 'ok' : result.value.result.error.code
    }
    // A run stopped from the UI while it sleeps.
    const stopped = call('python:run', { runId: 'stopped-1', code: 'import time\ntime.sleep(3600)', tableId, timeoutMs: 60_000 })
    await new Promise((r) => setTimeout(r, 500))
    await call('python:stop', { runId: 'stopped-1' })
    const stoppedResult = await stopped
    if (stoppedResult.ok) codes['stopped-1'] = stoppedResult.value.result.ok ? 'ok' : stoppedResult.value.result.error.code
    expect(codes).toMatchObject(Object.fromEntries(runs.map((r) => [r.runId, r.expect])))
    expect(codes['stopped-1']).toBeDefined()
    expect(codes['stopped-1']).not.toBe('ok')
    const ids = ['ok-1', 'raise-1', 'syntax-1', 'timeout-1', 'sleep-1', 'stopped-1']
    const listed = await call('history:list', undefined)
    expect(listed.ok && listed.value.map((r) => r.id).sort()).toEqual([...ids].sort())
    await first.app.stop()
    expect(existsSync(join(dataDir, 'history.json'))).toBe(true)
    const second = await start(dataDir)
    const again = await second.call('history:list', undefined)
    expect(again.ok && again.value.map((r) => `${r.id}:${r.result.ok ? 'ok' : r.result.error.code}`).sort()).toEqual(
      ids.map((id) => `${id}:${codes[id]}`).sort()
    )
  }, 300_000)
})
