import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { startModelFileServer, type ModelFileServer } from '../../../../test/support/model-file-server'
import { describeWithModel, TEST_MODEL_BYTES, TEST_MODEL_SHA256 } from '../../../../test/support/test-model'
import { downloadModel, partPath, type DownloadProgress, type DownloadRequest } from './download'

describeWithModel('downloading a model file over HTTP (the real test GGUF from a local server)', (model) => {
  let server: ModelFileServer
  let dir: string
  beforeAll(async () => {
    server = await startModelFileServer(model)
  })
  afterAll(() => server.close())
  afterEach(() => {
    server.mode = {}
    server.requests.length = 0
    rmSync(dir, { recursive: true, force: true })
  })
  const request = (extra: Partial<DownloadRequest> = {}): DownloadRequest => {
    dir = mkdtempSync(join(tmpdir(), 'tableqa-download-'))
    return {
      url: server.url,
      sha256: TEST_MODEL_SHA256,
      sizeBytes: TEST_MODEL_BYTES,
      dest: join(dir, 'models', 'smol.gguf'),
      progressIntervalMs: 0,
      ...extra
    }
  }

  it('downloads, reports bytes, speed and time left, checks the SHA-256 and moves the file into place', async () => {
    const seen: DownloadProgress[] = []
    const r = request({ onProgress: (p) => seen.push(p) })
    const result = await downloadModel(r)
    expect(result).toEqual({ ok: true, value: { state: 'done', file: r.dest } })
    expect(statSync(r.dest).size).toBe(TEST_MODEL_BYTES)
    expect(existsSync(partPath(r.dest))).toBe(false)
    const downloading = seen.filter((p) => p.phase === 'downloading')
    expect(downloading.at(-1)?.receivedBytes).toBe(TEST_MODEL_BYTES)
    expect(downloading.some((p) => p.bytesPerSecond > 0 && p.secondsLeft !== null)).toBe(true)
    expect(seen.some((p) => p.phase === 'verifying')).toBe(true)
    expect(server.requests).toEqual([{ range: null }])
  })

  it('keeps what arrived when the connection drops, and resumes from there with a range request', async () => {
    server.mode = { dropAfterBytes: 10_000_000 }
    const r = request()
    const first = await downloadModel(r)
    expect(first.ok).toBe(false)
    if (!first.ok) {
      expect(first.error.code).toBe('download-failed')
      expect(first.error.message).toMatch(/resume to continue from there/)
    }
    const kept = statSync(partPath(r.dest)).size
    expect(kept).toBeGreaterThan(0)
    expect(kept).toBeLessThanOrEqual(10_000_000)
    expect(existsSync(r.dest)).toBe(false)
    const second = await downloadModel(r)
    expect(second).toEqual({ ok: true, value: { state: 'done', file: r.dest } })
    expect(server.requests[1]).toEqual({ range: `bytes=${kept}-` })
    expect(readFileSync(r.dest).equals(readFileSync(model))).toBe(true)
  })

  it('pauses on request (the part file stays) and resumes later; cancelling deletes the part', async () => {
    server.mode = { chunkDelayMs: 20 }
    const controller = new AbortController()
    const r = request({
      signal: controller.signal,
      onProgress: (p) => {
        if (p.receivedBytes > 2_000_000) controller.abort('pause')
      }
    })
    const paused = await downloadModel(r)
    expect(paused.ok && paused.value.state).toBe('paused')
    const kept = statSync(partPath(r.dest)).size
    expect(kept).toBeGreaterThan(2_000_000)
    server.mode = {}
    const resumed = await downloadModel({ ...r, signal: new AbortController().signal, onProgress: () => undefined })
    expect(resumed.ok && resumed.value.state).toBe('done')
    expect(server.requests.at(-1)).toEqual({ range: `bytes=${kept}-` })

    server.mode = { chunkDelayMs: 20 }
    const again = new AbortController()
    const r2 = request({ signal: again.signal, onProgress: (p) => p.receivedBytes > 1_000_000 && again.abort('cancel') })
    const cancelled = await downloadModel(r2)
    expect(cancelled).toEqual({ ok: true, value: { state: 'cancelled' } })
    expect(existsSync(partPath(r2.dest))).toBe(false)
  })

  it('discards a file whose SHA-256 is not the published one', async () => {
    server.mode = { corruptByte: 5_000_000 }
    const r = request()
    const result = await downloadModel(r)
    expect(result.ok).toBe(false)
    if (!result.ok) {
      expect(result.error.code).toBe('checksum-mismatch')
      expect(result.error.message).toMatch(/is not the published file .* so it was deleted/)
    }
    expect(existsSync(partPath(r.dest))).toBe(false)
    expect(existsSync(r.dest)).toBe(false)
  })

  it('starts again from the beginning when the server ignores the range', async () => {
    const r = request()
    mkdirSync(join(dir, 'models', '.downloads'), { recursive: true })
    writeFileSync(partPath(r.dest), readFileSync(model).subarray(0, 3_000_000))
    server.mode = { ignoreRange: true }
    const result = await downloadModel(r)
    expect(result.ok && result.value.state).toBe('done')
    expect(server.requests).toEqual([{ range: 'bytes=3000000-' }])
    expect(readFileSync(r.dest).equals(readFileSync(model))).toBe(true)
  })

  it('refuses to start without the disk space, with the numbers, and stops cleanly when the disk fills up', async () => {
    const small = await downloadModel(request({ freeBytes: () => 50_000_000 }))
    expect(small.ok).toBe(false)
    if (!small.ok)
      expect(small.error).toMatchObject({
        code: 'disk-full',
        message: expect.stringMatching(/needs 98 MB more of free disk space .* and 50 MB is free/) as unknown
      })
    expect(server.requests).toHaveLength(0)

    // Writes to /dev/full fail with ENOSPC, as on a full disk.
    const r = request()
    mkdirSync(join(dir, 'models', '.downloads'), { recursive: true })
    symlinkSync('/dev/full', partPath(r.dest))
    const full = await downloadModel(r)
    expect(full.ok).toBe(false)
    if (!full.ok)
      expect(full.error).toMatchObject({
        code: 'disk-full',
        message: expect.stringMatching(/The disk filled up while downloading smol.gguf/) as unknown
      })
    expect(existsSync(r.dest)).toBe(false)
  })

  it('says what the server answered when it refuses the file', async () => {
    server.mode = { status: 404 }
    const result = await downloadModel(request())
    expect(!result.ok && result.error).toMatchObject({
      code: 'download-failed',
      message: expect.stringMatching(/answered HTTP 404/) as unknown
    })
  })
})
