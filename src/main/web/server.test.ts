import { mkdtempSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ResponseOf } from '../../shared/api'
import { decodeWire, encodeWire } from '../../shared/wire'
import { composeServices } from '../app/compose'
import { createHandlers } from '../app/handlers'
import { openFileStore } from '../services/store/store'
import { startWebServer } from './server'
import { MemorySecretStore } from '../services/model'

const TOKEN = 'test-token-0123456789'
let server: Server
let base = ''

/** The executor is not under test here: a factory that cannot start gives `executor-unavailable`. */
const noExecutor = () => Promise.reject(new Error('no executor in this test'))

beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tableqa-web-'))
  const services = composeServices({
    mode: 'web',
    dataDir,
    historyStore: openFileStore(dataDir, 'history').store,
    settingsStore: openFileStore(dataDir, 'settings').store,
    secrets: new MemorySecretStore(),
    channelFactory: noExecutor,
    openDialog: null
  })
  const started = await startWebServer({
    handlers: createHandlers(services),
    events: services.events,
    rendererDir: join(dataDir, 'no-renderer'),
    token: TOKEN,
    port: 0,
    maxBodyBytes: 64 * 1024 * 1024
  })
  server = started.server
  base = started.url.replace(/\/#token=.*$/, '')
})

afterAll(() => {
  server?.close()
})

type Reply = { status: number; body: Buffer }

function send(path: string, options: { token?: string; host?: string; body?: Uint8Array; method?: string } = {}): Promise<Reply> {
  const url = new URL(path, base)
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? 'POST',
        headers: { host: options.host ?? url.host, ...(options.token === undefined ? {} : { 'x-tableqa-token': options.token }) }
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }))
      }
    )
    req.on('error', reject)
    if (options.method === 'GET') req.end()
    else req.end(options.body ?? encodeWire(null))
  })
}

async function call<T>(channel: string, payload: unknown): Promise<T> {
  const reply = await send(`/api/${channel}`, { token: TOKEN, body: encodeWire(payload) })
  expect(reply.status).toBe(200)
  return decodeWire(new Uint8Array(reply.body)) as T
}

function csvBytes(text: string): Uint8Array {
  return new TextEncoder().encode(text)
}

describe('browser-mode server', () => {
  it('refuses calls without the token, from another Host, and to unknown channels', async () => {
    expect((await send('/api/app:info')).status).toBe(401)
    expect((await send('/api/app:info', { token: 'wrong-token-0123456789' })).status).toBe(401)
    expect((await send('/api/app:info', { token: TOKEN, host: 'evil.example:80' })).status).toBe(421)
    expect((await send('/api/fs:readAnything', { token: TOKEN })).status).toBe(404)
    expect((await send('/api/events?token=nope', { method: 'GET' })).status).toBe(401)
  })

  it('serves only the UI files, never other paths', async () => {
    expect((await send('/../package.json', { method: 'GET' })).status).toBe(404)
    expect((await send('/executor.html', { method: 'GET' })).status).toBe(404)
  })

  it('opens a CSV sent as raw bytes and pages through its rows', async () => {
    const rows = Array.from({ length: 1000 }, (_, i) => `r${i},${i}`).join('\n')
    const opened = await call<ResponseOf<'table:openBytes'>>('table:openBytes', { name: 'n.csv', bytes: csvBytes(`name,n\n${rows}\n`) })
    expect(opened.ok).toBe(true)
    if (!opened.ok) return
    const table = opened.value[0]
    expect(table?.rowCount).toBe(1000)
    const block = await call<ResponseOf<'table:rows'>>('table:rows', { tableId: table?.id, start: 998, count: 10 })
    expect(block.ok && block.value.rows).toEqual([
      ['r998', '998'],
      ['r999', '999']
    ])
  })

  it('gives clear messages for an empty file and for binary garbage', async () => {
    const empty = await call<ResponseOf<'table:openBytes'>>('table:openBytes', { name: 'empty.csv', bytes: new Uint8Array() })
    expect(empty.ok).toBe(false)
    if (!empty.ok) expect(empty.error.message).toMatch(/empty/i)
    const garbage = new Uint8Array(4096).map((_, i) => (i * 7919) % 256)
    const binary = await call<ResponseOf<'table:openBytes'>>('table:openBytes', { name: 'garbage.csv', bytes: garbage })
    expect(binary.ok).toBe(false)
    if (!binary.ok) expect(binary.error.code).toMatch(/unsupported-format|bad-input/)
  })

  it('reads Latin-1 text with a warning and pads ragged rows with a warning', async () => {
    const latin1 = Uint8Array.from(
      [...'city,pop\nZ']
        .map((c) => c.charCodeAt(0))
        .concat(
          [0xfc],
          [...'rich,1\n'].map((c) => c.charCodeAt(0))
        )
    )
    const opened = await call<ResponseOf<'table:openBytes'>>('table:openBytes', { name: 'latin1.csv', bytes: latin1 })
    expect(opened.ok).toBe(true)
    if (!opened.ok) return
    expect(opened.value[0]?.warnings.join(' ')).toMatch(/Latin-1|windows-1252|encoding/i)
    const block = await call<ResponseOf<'table:rows'>>('table:rows', { tableId: opened.value[0]?.id, start: 0, count: 1 })
    expect(block.ok && block.value.rows[0]?.[0]).toBe('Zürich')

    const ragged = await call<ResponseOf<'table:openBytes'>>('table:openBytes', {
      name: 'ragged.csv',
      bytes: csvBytes('a,b,c\n1,2\n3,4,5,6\n')
    })
    expect(ragged.ok).toBe(true)
    if (ragged.ok) expect(ragged.value[0]?.warnings.join(' ')).toMatch(/row/i)
  })

  it('opens a 50 MB CSV', async () => {
    const line = 'alpha,beta,gamma,1234567,8901234,0.5,some longer text here,xyz\n'
    const count = Math.ceil((50 * 1024 * 1024) / line.length)
    const bytes = csvBytes(`c1,c2,c3,c4,c5,c6,c7,c8\n${line.repeat(count)}`)
    const opened = await call<ResponseOf<'table:openBytes'>>('table:openBytes', { name: 'big.csv', bytes })
    expect(opened.ok).toBe(true)
    if (opened.ok) expect(opened.value[0]?.rowCount).toBe(count)
  })

  it('answers a run with executor-unavailable data when Python cannot start, and keeps it in history', async () => {
    const run = await call<ResponseOf<'python:run'>>('python:run', { runId: 'r1', code: '1 + 1', tableId: null })
    expect(run.ok).toBe(true)
    if (run.ok) expect(run.value.result.ok).toBe(false)
    const history = await call<ResponseOf<'history:list'>>('history:list', null)
    expect(history.ok && history.value.map((r) => r.id)).toContain('r1')
  })

  it('refuses empty code with bad-input', async () => {
    const run = await call<ResponseOf<'python:run'>>('python:run', { runId: 'r2', code: '   ', tableId: null })
    expect(run.ok).toBe(false)
    if (!run.ok) expect(run.error.code).toBe('bad-input')
  })
})
