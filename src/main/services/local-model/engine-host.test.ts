import { describe, expect, it } from 'vitest'
import { EngineHost, type EngineJob } from './engine-host'
import type { EngineChannel, FromEngine, ToEngine } from './engine-protocol'

const MODEL = { name: 'scripted', architecture: 'llama', contextSize: 1024, trainContext: 1024, threads: 1, chatWrapper: null }

/**
 * An engine process stand-in that loads at once and then never answers a generate request, nor a cancel:
 * an engine stuck in a long prompt chunk on a busy machine.
 */
function stuckEngine(log: { spawned: number; killed: number; received: ToEngine[] }): () => EngineChannel {
  return () => {
    log.spawned += 1
    let listener: (m: FromEngine) => void = () => undefined
    let exit: (e: { code: number | null; signal: string | null; detail: string }) => void = () => undefined
    let alive = true
    const channel: EngineChannel = {
      send: (m) => {
        log.received.push(m)
        if (m.type === 'load') queueMicrotask(() => listener({ type: 'loaded', model: { ...MODEL, loadMs: 1, rssBytes: 1 } }))
      },
      onMessage: (l) => {
        listener = l
        queueMicrotask(() => listener({ type: 'ready', pid: 1 }))
      },
      onExit: (l) => (exit = l),
      kill: () => {
        if (!alive) return
        alive = false
        log.killed += 1
        queueMicrotask(() => exit({ code: null, signal: 'SIGKILL', detail: '' }))
      },
      pid: 1
    }
    return channel
  }
}

const job = (signal?: AbortSignal): EngineJob => ({
  model: { file: '/models/scripted.gguf', contextSize: 1024, threads: 1 },
  input: { kind: 'text', text: 'def answer():' },
  n: 1,
  temperature: 0,
  maxTokens: 8,
  stop: [],
  ...(signal === undefined ? {} : { signal })
})

describe('cancelling a request the engine does not stop by itself', () => {
  it('answers the caller at once, stops the process after the grace period, and starts a new one for the next request', async () => {
    const log = { spawned: 0, killed: 0, received: [] as ToEngine[] }
    const host = new EngineHost(stuckEngine(log))
    const controller = new AbortController()
    const pending = host.generate({ ...job(controller.signal), onLoad: () => undefined })
    // Wait until the request has reached the engine, then cancel it.
    await expect.poll(() => log.received.some((m) => m.type === 'generate')).toBe(true)
    controller.abort()
    const result = await pending
    expect(!result.ok && result.error.code).toBe('cancelled')
    expect(log.received.some((m) => m.type === 'cancel')).toBe(true)
    // The engine ignores the cancel: the host stops it hard once the grace period has passed.
    expect(log.killed).toBe(0)
    await expect.poll(() => log.killed, { timeout: 5_000 }).toBe(1)
    expect(host.status().state).toBe('stopped')
    // The next request gets a fresh engine process (it reaches the engine, which again never answers).
    const next = new AbortController()
    const second = host.generate(job(next.signal))
    await expect.poll(() => log.spawned).toBe(2)
    next.abort()
    await second
    await host.close()
  })
})
