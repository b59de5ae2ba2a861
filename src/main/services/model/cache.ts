/**
 * A disk cache of model samples: one JSON file per sample, named by the sha256 of everything that decides
 * the request (endpoint URL, model, API kind, prompt or messages, n, temperature, max tokens, stop,
 * log-probs, and the sample's index). API keys are not part of the key and are never written.
 */

import { createHash, randomBytes } from 'node:crypto'
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { ApiKind, ChatMessage, Sample } from '../../../shared/model'

export type CacheKeyParts = {
  baseUrl: string
  model: string
  api: ApiKind
  prompt: string | null
  messages: ChatMessage[] | null
  n: number
  temperature: number
  maxTokens: number
  stop: string[]
  logprobs: boolean
  sampleIndex: number
}

export type CacheStats = { entries: number; bytes: number }

const FORMAT = 1

export function cacheKey(parts: CacheKeyParts): string {
  // Fixed field order, so equal requests hash equally whatever order the caller built them in.
  const canonical = [
    FORMAT,
    parts.baseUrl.replace(/\/+$/, ''),
    parts.model,
    parts.api,
    parts.prompt,
    parts.messages?.map((m) => [m.role, m.content]) ?? null,
    parts.n,
    parts.temperature,
    parts.maxTokens,
    parts.stop,
    parts.logprobs,
    parts.sampleIndex
  ]
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex')
}

export class ResponseCache {
  constructor(readonly dir: string) {}

  private fileOf(key: string): string {
    if (!/^[0-9a-f]{64}$/.test(key)) throw new Error('cache keys are sha256 hex digests')
    return join(this.dir, key.slice(0, 2), `${key}.json`)
  }

  async get(key: string): Promise<Sample | null> {
    let text: string
    try {
      text = await readFile(this.fileOf(key), 'utf8')
    } catch {
      return null
    }
    const sample = parseEntry(text)
    // A damaged entry is a miss; drop it so it is rewritten.
    if (sample === null) await rm(this.fileOf(key), { force: true })
    return sample
  }

  async set(key: string, sample: Sample): Promise<void> {
    const file = this.fileOf(key)
    await mkdir(join(this.dir, key.slice(0, 2)), { recursive: true })
    const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`
    const entry = { format: FORMAT, savedAt: new Date().toISOString(), sample }
    await writeFile(temp, JSON.stringify(entry), 'utf8')
    try {
      await rename(temp, file)
    } catch (error) {
      await rm(temp, { force: true })
      throw error
    }
  }

  /** Removes every entry; returns how many there were. */
  async clear(): Promise<number> {
    const { entries } = await this.stats()
    await rm(this.dir, { recursive: true, force: true })
    return entries
  }

  async stats(): Promise<CacheStats> {
    const out: CacheStats = { entries: 0, bytes: 0 }
    let shards: string[]
    try {
      shards = await readdir(this.dir)
    } catch {
      return out
    }
    for (const shard of shards) {
      let names: string[]
      try {
        names = await readdir(join(this.dir, shard))
      } catch {
        continue
      }
      for (const name of names) {
        if (!name.endsWith('.json')) continue
        const info = await stat(join(this.dir, shard, name)).catch(() => null)
        if (info === null) continue
        out.entries += 1
        out.bytes += info.size
      }
    }
    return out
  }
}

function parseEntry(text: string): Sample | null {
  try {
    const entry: unknown = JSON.parse(text)
    if (typeof entry !== 'object' || entry === null || !('format' in entry) || entry.format !== FORMAT || !('sample' in entry)) return null
    const s = entry.sample
    if (typeof s !== 'object' || s === null) return null
    const sample = s as Record<string, unknown>
    const numOrNull = (v: unknown): v is number | null => v === null || (typeof v === 'number' && Number.isFinite(v))
    if (
      typeof sample['text'] !== 'string' ||
      !numOrNull(sample['logprobSum']) ||
      !numOrNull(sample['logprobMean']) ||
      !numOrNull(sample['tokens'])
    )
      return null
    if (sample['finishReason'] !== null && typeof sample['finishReason'] !== 'string') return null
    return {
      text: sample['text'],
      logprobSum: sample['logprobSum'],
      logprobMean: sample['logprobMean'],
      tokens: sample['tokens'],
      finishReason: sample['finishReason']
    }
  } catch {
    return null
  }
}
