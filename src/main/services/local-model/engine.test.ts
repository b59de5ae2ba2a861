import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
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

describeWithModel('prompts read once and samples drawn side by side, on the real test model', (model) => {
  const stateDir = mkdtempSync(join(tmpdir(), 'tableqa-engine-states-'))
  afterAll(() => rmSync(stateDir, { recursive: true, force: true }))
  // The fixed part: instructions and a worked example, as the prompt builder lays them out.
  const fixedPart = [
    { role: 'system' as const, content: `You write short Python programs. ${'Keep the answer in a variable called answer. '.repeat(12)}` },
    { role: 'user' as const, content: 'Table df with columns a, b. Question: what is the sum of a?' },
    { role: 'assistant' as const, content: '```python\nanswer = df["a"].sum()\n```' }
  ]
  const ask = (question: string): EngineJob['input'] => ({
    kind: 'chat',
    messages: [...fixedPart, { role: 'user', content: `Table df with columns x, y. Question: ${question}` }],
    fixed: fixedPart.length
  })
  const spec = { file: model, contextSize: 1024, threads: THREADS, sequences: 3, gpu: 'auto' as const, stateDir }
  const job = (input: EngineJob['input'], extra: Partial<EngineJob> = {}): EngineJob => ({
    model: spec,
    input,
    n: 4,
    temperature: 0.7,
    maxTokens: 12,
    stop: [],
    seed: 11,
    ...extra
  })
  const stateFiles = (): string[] => readdirSync(stateDir).filter((f) => f.endsWith('.state'))

  it('reads the fixed part once, saves it, and reads only what follows it for the next question', async () => {
    const host = new EngineHost(nodeEngineSpawner())
    try {
      const prompts: [number, number][] = []
      const first = await host.generate(job(ask('what is the largest x?'), { onPrompt: (d, t) => prompts.push([d, t]) }))
      expect(first.ok).toBe(true)
      if (!first.ok) return
      const { stats, model: loaded } = first.value
      // This machine has no usable GPU: the CPU, and a line saying why.
      expect(loaded).toMatchObject({ backend: 'cpu', gpuLayers: 0, sequences: 3 })
      expect(loaded.note).toMatch(/No usable GPU was found/)
      expect(stats.prefix).toMatchObject({ source: 'evaluated', saved: true })
      expect(stats.prefix.tokens).toBeGreaterThan(50)
      expect(stats.promptEvaluatedTokens).toBe(stats.promptTokens - 1)
      expect(prompts.at(-1)).toEqual([stats.promptTokens - 1, stats.promptTokens - 1])
      expect(stateFiles()).toHaveLength(1)
      expect(first.value.loadMs).not.toBeNull()
      // Four samples on three sequences, side by side; each says how it ended.
      expect(first.value.samples).toHaveLength(4)
      expect(stats.sequences).toBe(3)
      expect(stats.samples.map((s) => s.tokens)).toEqual(first.value.samples.map((s) => s.tokens))
      for (const s of stats.samples) expect(['stop', 'length', 'end']).toContain(s.finish)

      const second = await host.generate(job(ask('how many rows have y above 3?')))
      expect(second.ok && second.value.stats.prefix.source).toBe('held')
      expect(second.ok && second.value.loadMs).toBeNull()
      // Only the question's own turn is read again.
      const evaluated = second.ok ? second.value.stats.promptEvaluatedTokens : 0
      expect(evaluated).toBeGreaterThan(0)
      expect(evaluated).toBeLessThan(stats.promptTokens - stats.prefix.tokens + 5)
    } finally {
      await host.close()
    }
    // A new engine process reads the fixed part from disk.
    const again = new EngineHost(nodeEngineSpawner())
    try {
      const third = await again.generate(job(ask('what is the mean of y?')))
      expect(third.ok && third.value.stats.prefix.source).toBe('disk')
      const { promptEvaluatedTokens, promptTokens, prefix } = third.ok
        ? third.value.stats
        : { promptEvaluatedTokens: -1, promptTokens: 0, prefix: { tokens: 0 } }
      expect(promptEvaluatedTokens).toBe(promptTokens - 1 - prefix.tokens)
    } finally {
      await again.close()
    }
  })

  it('ignores a saved state that was changed, cut short or written for another model, rebuilds it and says why', async () => {
    const breakState = (how: 'garble' | 'truncate' | 'other-model'): void => {
      const [state] = stateFiles()
      const file = join(stateDir, state as string)
      const meta = file.replace(/\.state$/, '.json')
      if (how === 'garble') {
        const bytes = readFileSync(file)
        bytes.fill(7, 1000, 2000)
        writeFileSync(file, bytes)
      } else if (how === 'truncate') truncateSync(file, 4096)
      else writeFileSync(meta, JSON.stringify({ ...(JSON.parse(readFileSync(meta, 'utf8')) as object), modelSha256: 'f'.repeat(64) }))
    }
    const reasons = {
      garble: /has changed since it was written/,
      truncate: /another size than when it was written/,
      'other-model': /for another model file/
    }
    for (const how of ['garble', 'truncate', 'other-model'] as const) {
      expect(stateFiles()).toHaveLength(1)
      breakState(how)
      const host = new EngineHost(nodeEngineSpawner())
      try {
        const result = await host.generate(job(ask('what is the smallest x?'), { n: 1 }))
        expect(result.ok).toBe(true)
        if (!result.ok) return
        expect(result.value.stats.prefix).toMatchObject({ source: 'evaluated', saved: true })
        expect(result.value.stats.prefix.note).toMatch(reasons[how])
      } finally {
        await host.close()
      }
    }
  })

  it('answers when the fixed part cannot be saved (a folder that cannot be written), and says why', async () => {
    const blocked = join(stateDir, 'a-file')
    writeFileSync(blocked, 'not a folder')
    const host = new EngineHost(nodeEngineSpawner())
    try {
      const result = await host.generate(
        job(ask('what is the largest y?'), { n: 1, model: { ...spec, stateDir: join(blocked, 'states') } })
      )
      expect(result.ok ? 'ok' : result.error.message).toBe('ok')
      if (!result.ok) return
      expect(result.value.stats.prefix).toMatchObject({ source: 'evaluated', saved: false })
      expect(result.value.stats.prefix.note).toMatch(/could not be saved for the next start \(.+\); it is kept in memory/)
      expect(result.value.samples).toHaveLength(1)
    } finally {
      await host.close()
      rmSync(blocked)
    }
  })

  it('warms a prompt kind before its first question, which then reads only its own part', async () => {
    const other = [{ role: 'system' as const, content: `Answer with pandas. ${'Name the answer answer. '.repeat(10)}` }]
    const input: EngineJob['input'] = { kind: 'chat', messages: [...other, { role: 'user', content: 'Which x is largest?' }], fixed: 1 }
    const host = new EngineHost(nodeEngineSpawner())
    try {
      const warmed = await host.warm({ model: spec, input })
      expect(warmed.ok && warmed.value.prefix.source).toBe('evaluated')
      const asked = await host.generate(job(input, { n: 2 }))
      expect(asked.ok && asked.value.stats.prefix.source).toBe('held')
    } finally {
      await host.close()
    }
  })
})
