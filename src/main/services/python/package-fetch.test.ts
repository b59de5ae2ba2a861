import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDistributionServer, type DistributionServer } from '../../../../test/support/distribution-server'
import { testDistribution, testLockPackages, testWheelsNote, testWheelsPresent, missingTestWheels } from '../../../../test/support/wheels'
import { copyFile, downloadFile, sha256File } from './package-fetch'

/** One real wheel (pytz, about 500 KB) fetched from a local distribution server through every fault. */
const present = testWheelsPresent()
const pytz = testLockPackages().pytz
if (!pytz) throw new Error('the test lock names pytz')
const FILE = pytz.file_name
const SHA = pytz.sha256

let server: DistributionServer
let dist = ''

beforeAll(async () => {
  if (!present) return
  dist = testDistribution(mkdtempSync(join(tmpdir(), 'tableqa-dist-')))
  server = await startDistributionServer(dist)
})

afterAll(async () => {
  await server?.close()
})

const fresh = (): string => mkdtempSync(join(tmpdir(), 'tableqa-cache-'))

describe.runIf(!present)('downloading package files', () => {
  it('is not run here, and says why', () => {
    expect(missingTestWheels().length, testWheelsNote(missingTestWheels())).toBeGreaterThan(0)
  })
})

describe.runIf(present)('downloading package files', () => {
  it('stores a file whose sha256 matches the lock, reporting its bytes as they come', async () => {
    const cache = fresh()
    const seen: [number, number | null][] = []
    const got = await downloadFile(`${server.url}${FILE}`, cache, FILE, SHA, { stallMs: 5_000, onBytes: (b, t) => seen.push([b, t]) })
    expect(got).toEqual({ ok: true, value: { bytes: statSync(join(dist, FILE)).size, resumedFrom: 0 } })
    expect(await sha256File(join(cache, FILE))).toBe(SHA)
    expect(existsSync(join(cache, `${FILE}.part`))).toBe(false)
    const size = statSync(join(dist, FILE)).size
    expect(seen.at(-1)).toEqual([size, size])
    expect(seen.length).toBeGreaterThan(2)
  })

  it('rejects an altered file, names it, and keeps nothing of it', async () => {
    const cache = fresh()
    server.fault(FILE, { kind: 'tamper' }, 1)
    const got = await downloadFile(`${server.url}${FILE}`, cache, FILE, SHA, { stallMs: 5_000 })
    expect(got.ok).toBe(false)
    if (got.ok) return
    expect(got.error.code).toBe('package-bad-hash')
    expect(got.error.message).toContain(FILE)
    expect(got.error.message).toContain(SHA)
    expect(existsSync(join(cache, FILE))).toBe(false)
    expect(existsSync(join(cache, `${FILE}.part`))).toBe(false)
  })

  it('resumes an interrupted download where it broke off (HTTP Range)', async () => {
    const cache = fresh()
    server.fault(FILE, { kind: 'cut', afterBytes: 200_000 }, 1)
    const first = await downloadFile(`${server.url}${FILE}`, cache, FILE, SHA, { stallMs: 5_000 })
    expect(first.ok).toBe(false)
    if (!first.ok) expect(first.error.message).toMatch(/resumes/)
    const kept = statSync(join(cache, `${FILE}.part`)).size
    expect(kept).toBeGreaterThan(0)
    const before = server.requests.length
    const second = await downloadFile(`${server.url}${FILE}`, cache, FILE, SHA, { stallMs: 5_000 })
    expect(second).toEqual({ ok: true, value: { bytes: statSync(join(dist, FILE)).size, resumedFrom: kept } })
    expect(server.requests.slice(before)).toEqual([{ path: expect.any(String) as string, file: FILE, range: `bytes=${kept}-` }])
    expect(await sha256File(join(cache, FILE))).toBe(SHA)
  })

  it('starts again from the first byte when the server ignores the range', async () => {
    const cache = fresh()
    writeFileSync(join(cache, `${FILE}.part`), readFileSync(join(dist, FILE)).subarray(0, 1000))
    server.ignoreRange(true)
    try {
      const got = await downloadFile(`${server.url}${FILE}`, cache, FILE, SHA, { stallMs: 5_000 })
      expect(got.ok && got.value.resumedFrom).toBe(0)
      expect(await sha256File(join(cache, FILE))).toBe(SHA)
    } finally {
      server.ignoreRange(false)
    }
  })

  it('finishes a part that is already whole (the server answers 416)', async () => {
    const cache = fresh()
    writeFileSync(join(cache, `${FILE}.part`), readFileSync(join(dist, FILE)))
    const got = await downloadFile(`${server.url}${FILE}`, cache, FILE, SHA, { stallMs: 5_000 })
    expect(got.ok).toBe(true)
    expect(await sha256File(join(cache, FILE))).toBe(SHA)
  })

  it('gives up on a server that never answers, saying how long it waited', async () => {
    server.fault(FILE, { kind: 'hang' }, 1)
    const started = Date.now()
    const got = await downloadFile(`${server.url}${FILE}`, fresh(), FILE, SHA, { stallMs: 400 })
    expect(got).toEqual({ ok: false, error: { code: 'timeout', message: `${server.url}${FILE} did not answer within 0.4 s.` } })
    expect(Date.now() - started).toBeLessThan(10_000)
  })

  it('gives up on a body that stops coming, and keeps what came for the next attempt', async () => {
    const cache = fresh()
    server.fault(FILE, { kind: 'stall', afterBytes: 100_000 }, 1)
    const got = await downloadFile(`${server.url}${FILE}`, cache, FILE, SHA, { stallMs: 400 })
    expect(got.ok).toBe(false)
    if (!got.ok) {
      expect(got.error.code).toBe('timeout')
      expect(got.error.message).toMatch(/sent nothing for 0.4 s; the 100000 bytes received are kept/)
    }
    expect(statSync(join(cache, `${FILE}.part`)).size).toBe(100_000)
  })

  it('says clearly when the file is not there (404) or the server refuses (403)', async () => {
    const missing = await downloadFile(`${server.url}nothing-1.0-py3-none-any.whl`, fresh(), 'nothing-1.0-py3-none-any.whl', SHA, { stallMs: 5_000 })
    expect(missing).toEqual({
      ok: false,
      error: { code: 'package-http', message: `${server.url}nothing-1.0-py3-none-any.whl answered HTTP 404 (it is not there).` }
    })
    server.fault(FILE, { kind: 'status', status: 403 }, 1)
    const refused = await downloadFile(`${server.url}${FILE}`, fresh(), FILE, SHA, { stallMs: 5_000 })
    expect(!refused.ok && refused.error.message).toMatch(/answered HTTP 403/)
  })

  it('says clearly when nothing listens at the address', async () => {
    const closed = await startDistributionServer(dist)
    const url = `${closed.url}${FILE}`
    await closed.close()
    const got = await downloadFile(url, fresh(), FILE, SHA, { stallMs: 5_000 })
    expect(got.ok).toBe(false)
    if (!got.ok) {
      expect(got.error.code).toBe('package-unreachable')
      expect(got.error.message).toMatch(/could not be reached: ECONNREFUSED/)
    }
  })

  it('refuses a file larger than allowed', async () => {
    const cache = fresh()
    const got = await downloadFile(`${server.url}${FILE}`, cache, FILE, SHA, { stallMs: 5_000, maxBytes: 1000 })
    expect(!got.ok && got.error.message).toMatch(/more than the 1000 accepted/)
    expect(existsSync(join(cache, FILE))).toBe(false)
  })

  it('copies from a local folder with the same check', async () => {
    const cache = fresh()
    expect((await copyFile(dist, cache, FILE, SHA, { stallMs: 5_000 })).ok).toBe(true)
    const wrong = await copyFile(dist, fresh(), FILE, '0'.repeat(64), { stallMs: 5_000 })
    expect(!wrong.ok && wrong.error.code).toBe('package-bad-hash')
    const absent = await copyFile(cache, fresh(), 'six-0-py3-none-any.whl', SHA, { stallMs: 5_000 })
    expect(absent).toEqual({ ok: false, error: { code: 'package-missing', message: `six-0-py3-none-any.whl is not in ${cache}.` } })
  })
})
