import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { describeWithModel } from '../../../../test/support/test-model'
import { EngineHost, type EngineJob } from './engine-host'
import { nodeEngineSpawner } from './spawn-node'

// One thread: the test machines are shared, and llama.cpp slows down badly when its threads wait for cores.
const THREADS = 1

describeWithModel('the engine process on the real test model', (model) => {
  let host: EngineHost
  const job = (extra: Partial<EngineJob> = {}): EngineJob => ({
    model: { file: model, contextSize: 1024, threads: THREADS },
    input: { kind: 'chat', messages: [{ role: 'user', content: 'Write one line of Python that prints 2 + 3.' }] },
    n: 2,
    temperature: 0.7,
    maxTokens: 24,
    stop: [],
    seed: 7,
    ...extra
  })

  beforeAll(() => {
    host = new EngineHost(nodeEngineSpawner(), { cancelGraceMs: 1_000 })
  })
  afterAll(() => host.close())

  it('loads the model in its own process and samples n completions with the log-probability of each token', async () => {
    const loads: number[] = []
    const arrived: number[] = []
    const result = await host.generate(job({ onLoad: (f) => loads.push(f), onSample: (i) => arrived.push(i) }))
    expect(result.ok).toBe(true)
    if (!result.ok) return
    const { samples, stats, model: loaded } = result.value
    expect(samples).toHaveLength(2)
    expect(arrived).toEqual([0, 1])
    for (const s of samples) {
      expect(s.tokens).toBeGreaterThan(0)
      expect(s.tokens).toBeLessThanOrEqual(24)
      expect(s.text.length).toBeGreaterThan(0)
      expect(s.logprobSum).toBeLessThan(0)
      expect(Number.isFinite(s.logprobSum)).toBe(true)
      expect(s.logprobMean).toBeCloseTo((s.logprobSum as number) / (s.tokens as number), 6)
    }
    expect(loads.at(-1)).toBe(1)
    expect(loaded).toMatchObject({ architecture: 'llama', chatWrapper: 'ChatML', threads: THREADS, contextSize: 1024, trainContext: 8192 })
    expect(stats.promptTokens).toBeGreaterThan(10)
    expect(stats.generatedTokens).toBe(samples.reduce((a, s) => a + (s.tokens ?? 0), 0))
    const status = host.status()
    expect(status.state).toBe('ready')
    expect(status.pid).not.toBe(process.pid)
  })

  it('stops at a stop string and at the token limit, and says which', async () => {
    const stopped = await host.generate(job({ n: 1, maxTokens: 64, stop: ['\n'] }))
    expect(stopped.ok && stopped.value.samples[0]?.text).not.toContain('\n')
    const cut = await host.generate(job({ n: 1, maxTokens: 3 }))
    expect(cut.ok && cut.value.samples[0]).toMatchObject({ tokens: 3, finishReason: 'length' })
  })

  it('continues text as text in completion mode', async () => {
    const result = await host.generate(
      job({ n: 1, temperature: 0, maxTokens: 8, input: { kind: 'text', text: 'def add(a, b):\n    return' } })
    )
    expect(result.ok && result.value.samples[0]?.tokens).toBeGreaterThan(0)
  })

  it('answers a cancel at once and is free for the next request', async () => {
    const controller = new AbortController()
    const cancelled = await host.generate(job({ n: 4, maxTokens: 200, signal: controller.signal, onSample: () => controller.abort() }))
    expect(!cancelled.ok && cancelled.error.code).toBe('cancelled')
    const next = await host.generate(job({ n: 1 }))
    expect(next.ok).toBe(true)
  })

  it('queues two requests made at once and answers both, in order', async () => {
    const queued: number[] = []
    const order: string[] = []
    const [a, b] = await Promise.all([
      host.generate(job({ n: 1 })).then((r) => (order.push('a'), r)),
      host.generate(job({ n: 1, onQueued: (ahead) => queued.push(ahead) })).then((r) => (order.push('b'), r))
    ])
    expect(a.ok && b.ok).toBe(true)
    expect(queued[0]).toBe(1)
    expect(order).toEqual(['a', 'b'])
  })

  it('fails the request it was serving when the engine process dies, and starts a new one for the next', async () => {
    const starts = host.status().starts
    const pid = host.status().pid as number
    const crashed = await host.generate(job({ n: 3, maxTokens: 200, onSample: () => process.kill(pid, 'SIGKILL') }))
    expect(crashed.ok).toBe(false)
    if (!crashed.ok) {
      expect(crashed.error.code).toBe('model-engine-crashed')
      expect(crashed.error.message).toMatch(/stopped while answering \(it was stopped by SIGKILL\)\. It starts again for the next question/)
    }
    const next = await host.generate(job({ n: 1 }))
    expect(next.ok).toBe(true)
    expect(host.status().starts).toBe(starts + 1)
    expect(host.status().pid).not.toBe(pid)
  })

  it('refuses a prompt longer than the context with both numbers', async () => {
    const long = 'word '.repeat(1500)
    const result = await host.generate(job({ n: 1, input: { kind: 'text', text: long } }))
    expect(!result.ok && result.error).toMatchObject({
      code: 'bad-input',
      message: expect.stringMatching(/The prompt is [\d,]+ tokens and the model's context holds 1,024/) as unknown
    })
  })
})

describeWithModel('loading faults of the engine process', (model) => {
  const dir = mkdtempSync(join(tmpdir(), 'tableqa-engine-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('refuses a model larger than the free memory, with the numbers', async () => {
    const host = new EngineHost(nodeEngineSpawner())
    try {
      const result = await host.generate({
        model: { file: model, contextSize: 2048, threads: THREADS, memoryLimitBytes: 50_000_000 },
        input: { kind: 'text', text: 'x' },
        n: 1,
        temperature: 0,
        maxTokens: 2,
        stop: []
      })
      expect(!result.ok && result.error).toMatchObject({
        code: 'model-memory',
        message: expect.stringMatching(
          /needs about 0\.\d GB of memory \(0\.\d GB for the model, 0\.\d GB for a 2,048-token context\) and 0\.1 GB is free/
        ) as unknown
      })
    } finally {
      await host.close()
    }
  })

  it('ends a question cancelled while the model loads, and the next question loads it and works', async () => {
    // A copy, so that the page cache does not make loading instant.
    const copy = join(dir, 'smol-copy.gguf')
    copyFileSync(model, copy)
    const host = new EngineHost(nodeEngineSpawner())
    try {
      const controller = new AbortController()
      const base = {
        model: { file: copy, contextSize: 1024, threads: THREADS },
        input: { kind: 'text' as const, text: 'print(' },
        n: 1,
        temperature: 0,
        maxTokens: 4,
        stop: []
      }
      const cancelled = await host.generate({ ...base, signal: controller.signal, onLoad: () => controller.abort() })
      expect(!cancelled.ok && cancelled.error.code).toBe('cancelled')
      const next = await host.generate(base)
      expect(next.ok).toBe(true)
    } finally {
      await host.close()
    }
  })
})
