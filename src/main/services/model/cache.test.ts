import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Sample } from '../../../shared/model'
import type { CacheKeyParts } from './cache'
import { ResponseCache, cacheKey } from './cache'

const parts: CacheKeyParts = {
  baseUrl: 'http://127.0.0.1:8000/v1',
  model: 'starcoder',
  api: 'completions',
  prompt: 'Q: how many?\n',
  messages: null,
  n: 5,
  temperature: 0.7,
  maxTokens: 256,
  stop: ['```'],
  logprobs: true,
  sampleIndex: 0
}
const sample: Sample = { text: 'answer = 1', logprobSum: -1.5, logprobMean: -0.5, tokens: 3, finishReason: 'stop' }

let dir = ''
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'response-cache-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

async function allFiles(root: string): Promise<string[]> {
  const out: string[] = []
  for (const shard of await readdir(root).catch(() => [])) out.push(...(await readdir(join(root, shard))).map((n) => join(shard, n)))
  return out
}

describe('cacheKey', () => {
  it('is a stable sha256 that changes with every request parameter', () => {
    const key = cacheKey(parts)
    expect(key).toMatch(/^[0-9a-f]{64}$/)
    expect(cacheKey({ ...parts })).toBe(key)
    expect(cacheKey({ ...parts, baseUrl: 'http://127.0.0.1:8000/v1/' })).toBe(key)
    const variants: Partial<CacheKeyParts>[] = [
      { baseUrl: 'http://127.0.0.1:8001/v1' },
      { model: 'other' },
      { api: 'chat' },
      { prompt: 'Q: how many? \n' },
      { prompt: null, messages: [{ role: 'user', content: 'Q: how many?\n' }] },
      { n: 4 },
      { temperature: 0.8 },
      { maxTokens: 255 },
      { stop: [] },
      { logprobs: false },
      { sampleIndex: 1 }
    ]
    const keys = variants.map((v) => cacheKey({ ...parts, ...v }))
    expect(new Set([key, ...keys]).size).toBe(variants.length + 1)
  })
})

describe('ResponseCache', () => {
  it('stores and returns a sample, leaving no temp files', async () => {
    const cache = new ResponseCache(dir)
    const key = cacheKey(parts)
    expect(await cache.get(key)).toBeNull()
    await cache.set(key, sample)
    expect(await cache.get(key)).toEqual(sample)
    expect((await allFiles(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([])
  })

  it('survives concurrent writes of the same key', async () => {
    const cache = new ResponseCache(dir)
    const key = cacheKey(parts)
    await Promise.all(Array.from({ length: 20 }, (_, i) => cache.set(key, { ...sample, text: `answer = ${i}` })))
    const got = await cache.get(key)
    expect(got?.text).toMatch(/^answer = \d+$/)
    expect(await allFiles(dir)).toHaveLength(1)
  })

  it('treats a damaged entry as a miss and removes it', async () => {
    const cache = new ResponseCache(dir)
    const key = cacheKey(parts)
    await cache.set(key, sample)
    const [file] = await allFiles(dir)
    await writeFile(join(dir, file ?? ''), '{"format":1,"sample":{"text":')
    expect(await cache.get(key)).toBeNull()
    expect(await allFiles(dir)).toEqual([])
  })

  it('counts entries and bytes, and clears them', async () => {
    const cache = new ResponseCache(dir)
    for (let i = 0; i < 4; i += 1) await cache.set(cacheKey({ ...parts, sampleIndex: i }), sample)
    const stats = await cache.stats()
    expect(stats.entries).toBe(4)
    expect(stats.bytes).toBeGreaterThan(4 * JSON.stringify(sample).length)
    expect(await cache.clear()).toBe(4)
    expect(await cache.stats()).toEqual({ entries: 0, bytes: 0 })
    await cache.set(cacheKey(parts), sample)
    expect(await cache.get(cacheKey(parts))).toEqual(sample)
  })

  it('refuses keys that are not digests, so a key cannot name a path', async () => {
    const cache = new ResponseCache(dir)
    await expect(cache.set('../../etc/passwd', sample)).rejects.toThrow(/sha256/)
  })
})
