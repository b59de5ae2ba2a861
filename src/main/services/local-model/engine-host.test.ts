import { describe, expect, it } from 'vitest'
import { EngineHost, type EngineJob } from './engine-host'
import type { EngineChannel, EngineModelSpec, FromEngine, ToEngine } from './engine-protocol'

const MODEL = {
  name: 'scripted',
  architecture: 'llama',
  contextSize: 1024,
  trainContext: 1024,
  threads: 1,
  chatWrapper: null,
  backend: 'cpu' as const,
  gpuLayers: 0,
  layers: 30,
  note: null,
  sequences: 1,
  engineVersion: 'scripted'
}

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

/**
 * An engine stand-in that answers like the real one: a generate request gets n samples and `done`, unless
 * it runs on the GPU of a machine whose GPU fails mid-question; a warm-up reads until it is told to yield.
 */
function scriptedEngine(log: { specs: EngineModelSpec[]; received: ToEngine[] }, gpuFails: boolean): () => EngineChannel {
  return () => {
    let listener: (m: FromEngine) => void = () => undefined
    let exit: (e: { code: number | null; signal: string | null; detail: string }) => void = () => undefined
    let spec: EngineModelSpec | null = null
    const warming = new Map<number, NodeJS.Timeout>()
    const channel: EngineChannel = {
      send: (m) => {
        log.received.push(m)
        const reply = (r: FromEngine): void => queueMicrotask(() => listener(r))
        switch (m.type) {
          case 'load':
            spec = m.model
            log.specs.push(m.model)
            return reply({
              type: 'loaded',
              model: { ...MODEL, loadMs: 1, rssBytes: 1, backend: m.model.gpu === 'auto' ? 'cuda' : 'cpu' }
            })
          case 'generate': {
            const { id, n } = m.request
            if (spec?.gpu === 'auto' && gpuFails)
              return reply({
                type: 'failed',
                id,
                error: { code: 'model-gpu', message: 'Generation failed on the GPU (cuda): out of memory.' }
              })
            for (let index = 0; index < n; index += 1)
              reply({
                type: 'sample',
                id,
                index,
                sample: { text: `s${index}`, logprobSum: -1, logprobMean: -1, tokens: 1, finishReason: 'stop' }
              })
            const stats = {
              promptTokens: 10,
              promptEvaluatedTokens: 10,
              promptMs: 1,
              prefix: { tokens: 0, source: 'none' as const, ms: 0, saved: false },
              sequences: 1,
              copyMs: 0,
              samples: [],
              generatedTokens: n,
              generateMs: 1,
              rssBytes: 1
            }
            return reply({ type: 'done', id, stats })
          }
          case 'warm':
            // Reads "forever" until yielded.
            warming.set(
              m.request.id,
              setTimeout(() => undefined, 60_000)
            )
            return
          case 'yield': {
            clearTimeout(warming.get(m.id))
            return reply({ type: 'warmed', id: m.id, prefix: { tokens: 100, source: 'partial', ms: 5, saved: false } })
          }
          case 'cancel':
            return reply({ type: 'cancelled', id: m.id })
        }
      },
      onMessage: (l) => {
        listener = l
        queueMicrotask(() => listener({ type: 'ready', pid: 2 }))
      },
      onExit: (l) => (exit = l),
      kill: () => {
        for (const t of warming.values()) clearTimeout(t)
        queueMicrotask(() => exit({ code: null, signal: 'SIGKILL', detail: '' }))
      },
      pid: 2
    }
    return channel
  }
}

describe('the GPU failing while the model works', () => {
  it('moves the model to the CPU for the rest of the run, serves the request again there, and says so in the status', async () => {
    const log = { specs: [] as EngineModelSpec[], received: [] as ToEngine[] }
    const host = new EngineHost(scriptedEngine(log, true))
    const gpuJob = { ...job(), n: 2, model: { ...job().model, gpu: 'auto' as const } }
    const result = await host.generate(gpuJob)
    expect(result.ok && result.value.samples.map((s) => s.text)).toEqual(['s0', 's1'])
    expect(log.specs.map((s) => s.gpu)).toEqual(['auto', 'cpu'])
    expect(host.status().model?.backend).toBe('cpu')
    expect(host.status().note).toMatch(/failed on the GPU \(cuda\): out of memory\. The model runs on the CPU until the app is restarted/)
    // Later requests go to the CPU at once.
    expect((await host.generate(gpuJob)).ok).toBe(true)
    expect(log.specs).toHaveLength(2)
    await host.close()
  })
})

describe('warming a prompt kind ahead of the first question', () => {
  it('makes way for a question that arrives meanwhile: the warm-up yields, keeping what it read, and the question is served', async () => {
    const log = { specs: [] as EngineModelSpec[], received: [] as ToEngine[] }
    const host = new EngineHost(scriptedEngine(log, false))
    const input = { kind: 'chat' as const, messages: [{ role: 'system' as const, content: 'rules' }], fixed: 1 }
    const warming = host.warm({ model: job().model, input })
    await expect.poll(() => log.received.some((m) => m.type === 'warm')).toBe(true)
    expect(host.status().state).toBe('ready')
    const asked = await host.generate(job())
    expect(asked.ok).toBe(true)
    const warmed = await warming
    expect(warmed.ok && warmed.value.prefix).toMatchObject({ source: 'partial', tokens: 100 })
    const order = log.received.map((m) => m.type).filter((t) => t !== 'load')
    expect(order).toEqual(['warm', 'yield', 'generate'])
    await host.close()
  })
})
