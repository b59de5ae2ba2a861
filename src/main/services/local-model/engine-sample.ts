/**
 * One request's work in the engine process: make a sequence hold the prompt (reusing what a sequence
 * still holds, the fixed prefix from disk, and evaluating only the rest), give the other sequences the
 * same state, and draw the n samples side by side, one per sequence, with each sampled token's
 * probability.
 *
 * Copying a sequence's state (a file in memory-backed storage) costs a fraction of a second, while
 * evaluating even a question's few tokens in four more sequences costs seconds on a CPU: the other
 * sequences always take the state by copy unless they hold the prompt already.
 */

import { existsSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { LlamaContextSequence, Token } from 'node-llama-cpp'
import type { Sample } from '../../../shared/model'
import type { PrefixStats, SampleStats } from './engine-protocol'
import type { Engine } from './engine-load'
import { commonLength } from './engine-prompt'

/**
 * Prompt tokens are evaluated in chunks of about this long: long enough that llama.cpp works on large
 * batches (a chunk of 8 tokens reads at about half the speed of one of 512 on a CPU), short enough for a
 * progress line. A cancel does not wait for the chunk: the host stops the process.
 */
const PROMPT_CHUNK_MS = 2000
const PROMPT_CHUNK_MIN = 16
const PROMPT_CHUNK_MAX = 512
/** A `tokens` progress message every this many generated tokens. */
const PROGRESS_EVERY = 16
/**
 * Sampling keeps the 40 most likely tokens (llama.cpp's default): the rest carry almost no probability at
 * the temperatures used, and sorting a whole vocabulary of 150,000 tokens at each step cost a quarter of
 * the sampling time here. Log-probabilities are those of the distribution sampled from.
 */
export const TOP_K = 40

export type Hooks = {
  cancelled: () => boolean
  /** Tokens of the prompt read so far, of those that had to be read. */
  onPrompt?: (done: number, total: number) => void
  onTokens?: (index: number, tokens: number) => void
  onSample?: (index: number, sample: Sample, stats: SampleStats) => void
}

export type Held = { sequence: LlamaContextSequence; prefix: PrefixStats; evaluated: number; ms: number }

function leadFor(sequences: readonly LlamaContextSequence[], target: readonly Token[]): LlamaContextSequence {
  let best = sequences[0] as LlamaContextSequence
  let bestLength = -1
  for (const s of sequences) {
    const c = commonLength(s.contextTokens, target)
    if (c > bestLength) [best, bestLength] = [s, c]
  }
  return best
}

/** Evaluates `tokens[from..]` into `sequence` in chunks; false when `stop` says so between chunks. */
async function feed(
  sequence: LlamaContextSequence,
  tokens: readonly Token[],
  from: number,
  stop: () => boolean,
  onChunk: (tokens: number) => void
): Promise<boolean> {
  if (from < sequence.nextTokenIndex) await sequence.eraseContextTokenRanges([{ start: from, end: sequence.nextTokenIndex }])
  let chunk = PROMPT_CHUNK_MIN
  for (let at = from; at < tokens.length;) {
    if (stop()) return false
    const part = tokens.slice(at, at + chunk)
    const started = Date.now()
    await sequence.evaluateWithoutGeneratingNewTokens(part)
    const msPerToken = Math.max(Date.now() - started, 1) / part.length
    at += part.length
    onChunk(part.length)
    chunk = Math.min(PROMPT_CHUNK_MAX, Math.max(PROMPT_CHUNK_MIN, Math.floor(PROMPT_CHUNK_MS / msPerToken)))
  }
  return true
}

/**
 * Makes one sequence hold exactly `target` (the prompt without its last token), its first `fixed` tokens
 * being the fixed prefix: what a sequence still holds is kept, the prefix is read from its state file
 * when there is one (and saved after it is evaluated), and only the rest is evaluated. Null when
 * cancelled; `stopEarly` (a warm-up making way for a question) ends the work between chunks and keeps
 * what was read.
 */
export async function holdPrompt(
  engine: Engine,
  target: Token[],
  fixed: number,
  hooks: Hooks,
  stopEarly?: () => boolean
): Promise<Held | null> {
  const started = Date.now()
  const sequence = leadFor(engine.sequences, target)
  let common = commonLength(sequence.contextTokens, target)
  let prefix: PrefixStats = { tokens: fixed, source: fixed === 0 ? 'none' : 'held', ms: 0, saved: false }
  const notes: string[] = []
  const stop = (): boolean => hooks.cancelled() || (stopEarly?.() ?? false)
  if (fixed > 0 && common < fixed && engine.states !== null) {
    const loaded = await engine.states.load(sequence, target.slice(0, fixed))
    if (loaded.state === 'loaded') {
      prefix = { tokens: fixed, source: 'disk', ms: loaded.ms, saved: false }
      common = fixed
    } else {
      if (loaded.state === 'rejected') notes.push(loaded.note)
      common = commonLength(sequence.contextTokens, target)
    }
  }
  const total = target.length - common
  let done = 0
  const onChunk = (tokens: number): void => {
    done += tokens
    hooks.onPrompt?.(done, total)
  }
  const ended = (): Held | null =>
    hooks.cancelled()
      ? null
      : {
          sequence,
          prefix: { tokens: fixed, source: 'partial', ms: Date.now() - started, saved: false },
          evaluated: done,
          ms: Date.now() - started
        }
  if (fixed > 0 && common < fixed) {
    const evalStart = Date.now()
    if (!(await feed(sequence, target.slice(0, fixed), common, stop, onChunk))) return ended()
    let saved = false
    if (engine.states !== null) {
      const written = await engine.states.save(sequence, target.slice(0, fixed))
      if (written.saved) saved = true
      else notes.push(written.note)
    }
    prefix = { tokens: fixed, source: 'evaluated', ms: Date.now() - evalStart, saved }
    common = fixed
  }
  if (notes.length > 0) prefix.note = notes.join(' ')
  if (!(await feed(sequence, target, common, stop, onChunk))) return ended()
  if (hooks.cancelled()) return null
  return { sequence, prefix, evaluated: done, ms: Date.now() - started }
}

/** Where sequence states are copied through: memory-backed storage where there is some. */
function scratchFile(): string {
  const dir = process.platform === 'linux' && existsSync('/dev/shm') ? '/dev/shm' : tmpdir()
  return join(dir, `tableqa-engine-${process.pid}-copy.state`)
}

/** Gives `others` the state of `lead`, which holds `target`; the time it took, ms. */
export async function copyPrompt(lead: LlamaContextSequence, others: LlamaContextSequence[], target: Token[]): Promise<number> {
  const started = Date.now()
  const behind = others.filter((s) => commonLength(s.contextTokens, target) < target.length || s.nextTokenIndex !== target.length)
  const small = behind.filter((s) => target.length - commonLength(s.contextTokens, target) <= 2)
  const large = behind.filter((s) => !small.includes(s))
  await Promise.all(
    small.map(async (s) => {
      const c = commonLength(s.contextTokens, target)
      if (c < s.nextTokenIndex) await s.eraseContextTokenRanges([{ start: c, end: s.nextTokenIndex }])
      if (c < target.length) await s.evaluateWithoutGeneratingNewTokens(target.slice(c))
    })
  )
  if (large.length > 0) {
    const file = scratchFile()
    try {
      await lead.saveStateToFile(file)
      for (const s of large) await s.loadStateFromFile(file, { acceptRisk: true })
    } finally {
      rmSync(file, { force: true })
    }
  }
  return Date.now() - started
}

export type SampleOptions = {
  last: Token
  n: number
  temperature: number
  /** Most tokens a sample may have. */
  budget: number
  stop: readonly string[]
  seed: number
}

/**
 * Draws `n` samples on `sequences` (each holding the prompt without its last token) side by side, the
 * next sample starting on a sequence as soon as its previous one ends; null when cancelled.
 */
export async function drawSamples(
  engine: Engine,
  sequences: LlamaContextSequence[],
  o: SampleOptions,
  hooks: Hooks
): Promise<{ samples: (Sample | null)[]; stats: SampleStats[] } | null> {
  const started = Date.now()
  const base = sequences[0]?.nextTokenIndex ?? 0
  const samples: (Sample | null)[] = Array.from({ length: o.n }, () => null)
  const stats: SampleStats[] = Array.from({ length: o.n }, () => ({ tokens: 0, finish: 'length' as const, ms: 0 }))
  let next = 0
  let stopped = false
  const one = async (sequence: LlamaContextSequence, index: number): Promise<boolean> => {
    if (sequence.nextTokenIndex > base) await sequence.eraseContextTokenRanges([{ start: base, end: sequence.nextTokenIndex }])
    const tokens: Token[] = []
    // Tokens whose probability is counted: all but one a stop string cut into.
    let scored = 0
    let logprobSum = 0
    let text = ''
    let finish: SampleStats['finish'] = 'end'
    const sampling =
      o.temperature === 0 ? { temperature: 0 } : { temperature: o.temperature, topK: TOP_K, topP: 1, minP: 0, seed: o.seed + index }
    for await (const out of sequence.evaluateWithMetadata([o.last], { confidence: true }, sampling)) {
      if (stopped || hooks.cancelled()) return false
      tokens.push(out.token)
      const decoded = engine.model.detokenize(tokens)
      const at = firstStop(decoded, o.stop, text.length)
      if (at !== null) {
        text = decoded.slice(0, at)
        finish = 'stop'
        break
      }
      text = decoded
      // A sampled token's probability can round to 0 in float32; keep the sum finite.
      logprobSum += Math.log(Math.max(out.confidence, 1e-30))
      scored += 1
      if (tokens.length % PROGRESS_EVERY === 0) hooks.onTokens?.(index, tokens.length)
      if (tokens.length >= o.budget) {
        finish = 'length'
        break
      }
    }
    const sample: Sample = {
      text,
      logprobSum,
      logprobMean: scored === 0 ? 0 : logprobSum / scored,
      tokens: tokens.length,
      finishReason: finish === 'length' ? 'length' : 'stop'
    }
    samples[index] = sample
    stats[index] = { tokens: tokens.length, finish, ms: Date.now() - started }
    hooks.onSample?.(index, sample, stats[index])
    return true
  }
  const worker = async (sequence: LlamaContextSequence): Promise<void> => {
    while (!stopped && next < o.n) {
      const index = next
      next += 1
      if (!(await one(sequence, index))) stopped = true
    }
  }
  try {
    await Promise.all(sequences.map(worker))
  } catch (error) {
    stopped = true
    throw error
  }
  return stopped || hooks.cancelled() ? null : { samples, stats }
}

/** Where the first stop string begins in `text`, looking only where a new one can have appeared. */
export function firstStop(text: string, stops: readonly string[], previousLength: number): number | null {
  let best: number | null = null
  for (const stop of stops) {
    if (stop === '') continue
    const at = text.indexOf(stop, Math.max(0, previousLength - stop.length + 1))
    if (at >= 0 && (best === null || at < best)) best = at
  }
  return best
}
