/**
 * Evaluated prompt prefixes kept on disk: the state of a sequence that holds exactly a prefix's tokens,
 * written by node-llama-cpp's `saveStateToFile`, one file per model file, prefix and engine. Runs in the
 * engine process.
 *
 * Loading a state written by another model can crash llama.cpp, so a file is loaded only when its
 * description (written after it, beside it) names this model's SHA-256, this engine and these exact
 * tokens, and the file still has the size and SHA-256 it had when written. Anything else is ignored,
 * deleted and rebuilt. A state that fails to write (a full disk) leaves nothing behind.
 */

import { createHash } from 'node:crypto'
import { createReadStream, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { LlamaContextSequence, Token } from 'node-llama-cpp'

const META_VERSION = 1
/** State files kept per folder; the least recently used go first. */
export const KEEP_STATES = 8

type Meta = {
  version: number
  modelSha256: string
  engineVersion: string
  tokens: number
  tokensSha256: string
  stateBytes: number
  stateSha256: string
  written: string
}

export type LoadOutcome = { state: 'loaded'; ms: number } | { state: 'absent' } | { state: 'rejected'; note: string }
export type SaveOutcome = { saved: true; ms: number; bytes: number } | { saved: false; note: string }

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(file, { highWaterMark: 4 << 20 })) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

const tokensHash = (tokens: readonly Token[]): string => createHash('sha256').update(Uint32Array.from(tokens)).digest('hex')

/**
 * The SHA-256 of a model file, hashed once per version of the file (path, size, modification time) and
 * remembered in `dir/models.json`.
 */
export async function modelSha256(dir: string, file: string): Promise<string> {
  const path = resolve(file)
  const s = statSync(path)
  const stamp = `${path}|${s.size}|${s.mtimeMs}`
  const index = join(dir, 'models.json')
  let known: Record<string, string> = {}
  try {
    known = JSON.parse(readFileSync(index, 'utf8')) as Record<string, string>
  } catch {
    known = {}
  }
  const cached = known[stamp]
  if (typeof cached === 'string' && /^[0-9a-f]{64}$/.test(cached)) return cached
  const digest = await sha256File(path)
  try {
    mkdirSync(dir, { recursive: true })
    writeFileSync(`${index}.tmp`, JSON.stringify({ ...known, [stamp]: digest }))
    renameSync(`${index}.tmp`, index)
  } catch {
    // Not remembered: hashed again at the next start.
  }
  return digest
}

export class PrefixStates {
  constructor(
    readonly dir: string,
    private readonly modelSha: string,
    private readonly engineVersion: string
  ) {}

  private base(tokens: readonly Token[]): string {
    const key = createHash('sha256').update(`${this.modelSha}\n${this.engineVersion}\n`).update(tokensHash(tokens)).digest('hex')
    return join(this.dir, `prefix-${key.slice(0, 40)}`)
  }

  /** Makes `sequence` hold exactly `tokens` from their state file, when a valid one exists. */
  async load(sequence: LlamaContextSequence, tokens: readonly Token[]): Promise<LoadOutcome> {
    const base = this.base(tokens)
    let text: string
    try {
      text = readFileSync(`${base}.json`, 'utf8')
    } catch {
      // None there, or a folder that cannot be read: the prefix is evaluated (and saving says why it fails).
      return { state: 'absent' }
    }
    let meta: Meta
    try {
      meta = JSON.parse(text) as Meta
    } catch {
      return this.reject(base, 'its description could not be read')
    }
    const started = Date.now()
    const why = this.mismatch(meta, tokens)
    if (why !== null) return this.reject(base, why)
    try {
      if (statSync(`${base}.state`).size !== meta.stateBytes) return this.reject(base, 'the file has another size than when it was written')
      if ((await sha256File(`${base}.state`)) !== meta.stateSha256) return this.reject(base, 'the file has changed since it was written')
      await sequence.loadStateFromFile(`${base}.state`, { acceptRisk: true })
    } catch (error) {
      await sequence.clearHistory()
      return this.reject(base, `it could not be read (${error instanceof Error ? error.message : String(error)})`)
    }
    const held = sequence.contextTokens
    if (held.length !== tokens.length || held.some((t, i) => t !== tokens[i])) {
      await sequence.clearHistory()
      return this.reject(base, 'it held other tokens than its description says')
    }
    touch(`${base}.state`)
    return { state: 'loaded', ms: Date.now() - started }
  }

  /** Writes the state of `sequence`, which must hold exactly `tokens`. */
  async save(sequence: LlamaContextSequence, tokens: readonly Token[]): Promise<SaveOutcome> {
    const base = this.base(tokens)
    const started = Date.now()
    const partial = `${base}.${process.pid}.tmp`
    try {
      mkdirSync(this.dir, { recursive: true })
      const { fileSize } = await sequence.saveStateToFile(partial)
      const meta: Meta = {
        version: META_VERSION,
        modelSha256: this.modelSha,
        engineVersion: this.engineVersion,
        tokens: tokens.length,
        tokensSha256: tokensHash(tokens),
        stateBytes: statSync(partial).size,
        stateSha256: await sha256File(partial),
        written: new Date().toISOString()
      }
      renameSync(partial, `${base}.state`)
      writeFileSync(`${base}.json.tmp`, JSON.stringify(meta, null, 1))
      // The description comes last: a state without one is never loaded.
      renameSync(`${base}.json.tmp`, `${base}.json`)
      this.prune()
      return { saved: true, ms: Date.now() - started, bytes: fileSize }
    } catch (error) {
      for (const f of [partial, `${base}.json.tmp`]) removeFile(f)
      const code = (error as NodeJS.ErrnoException).code
      const why = code === 'ENOSPC' ? 'the disk is full' : error instanceof Error ? error.message : String(error)
      return { saved: false, note: `The prompt's fixed part could not be saved for the next start (${why}); it is kept in memory.` }
    }
  }

  private mismatch(meta: Meta, tokens: readonly Token[]): string | null {
    if (meta.version !== META_VERSION) return 'it was written by another version of the app'
    if (meta.modelSha256 !== this.modelSha) return 'it was written for another model file'
    if (meta.engineVersion !== this.engineVersion) return `it was written by another engine (${meta.engineVersion})`
    if (meta.tokens !== tokens.length || meta.tokensSha256 !== tokensHash(tokens)) return 'it holds another prompt'
    return null
  }

  private reject(base: string, why: string): LoadOutcome {
    remove(base)
    return { state: 'rejected', note: `A saved state of the prompt's fixed part was not used (${why}); it is read again and saved anew.` }
  }

  /** Keeps the most recently used states. */
  private prune(): void {
    let states: { base: string; used: number }[]
    try {
      states = readdirSync(this.dir)
        .filter((f) => f.startsWith('prefix-') && f.endsWith('.state'))
        .map((f) => ({ base: join(this.dir, f.slice(0, -'.state'.length)), used: statSync(join(this.dir, f)).mtimeMs }))
    } catch {
      return
    }
    states.sort((a, b) => b.used - a.used)
    for (const old of states.slice(KEEP_STATES)) remove(old.base)
  }
}

function removeFile(file: string): void {
  try {
    rmSync(file, { force: true })
  } catch {
    // A folder that cannot be written: there is nothing of ours in it.
  }
}

function remove(base: string): void {
  removeFile(`${base}.state`)
  removeFile(`${base}.json`)
}

function touch(file: string): void {
  try {
    const now = new Date()
    utimesSync(file, now, now)
  } catch {
    // Only the pruning order depends on it.
  }
}
