import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testExecutor } from '../../../../test/support/executor'
import { describeWithModel } from '../../../../test/support/test-model'
import type { AskProgress } from '../../../shared/ask'
import type { EndpointConfig, Sample, SampleProgress } from '../../../shared/model'
import { EngineHost } from '../local-model/engine-host'
import { nodeEngineSpawner } from '../local-model/spawn-node'
import { appRoot } from '../paths'
import { ask, warmFor } from '../pipeline'
import type { PythonExecutor } from '../python/executor'
import { importFile } from '../tables/import'
import { structureGrid } from '../tables/structure'
import { MemorySecretStore, ModelClient } from '.'

const MESSAGES = [{ role: 'user' as const, content: 'Write one line of Python that sets answer to 2 + 3.' }]

function builtinEndpoint(modelFile: string | null, overrides: Partial<EndpointConfig> = {}): EndpointConfig {
  return {
    id: 'builtin',
    kind: 'builtin',
    name: 'On this computer',
    baseUrl: 'builtin:',
    model: 'SmolLM2 135M Instruct (Q4_1)',
    api: 'chat',
    timeoutMs: 10 * 60_000,
    maxRetries: 0,
    // The prompt of a question stays small: the test machines are slow and shared.
    promptTokenBudget: 800,
    builtin: { modelFile, contextSize: 2048, threads: 1 },
    ...overrides
  }
}

describe('the builtin endpoint kind without a usable model', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tableqa-builtin-client-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const host = new EngineHost(nodeEngineSpawner())
  afterAll(() => host.close())

  it('says that no model is installed, and where to get one, without starting an engine', async () => {
    const client = new ModelClient(builtinEndpoint(null), { secrets: new MemorySecretStore(), builtin: { host } })
    const sampled = await client.sample({ messages: MESSAGES, n: 1, temperature: 0, maxTokens: 4 })
    expect(!sampled.ok && sampled.error).toMatchObject({
      code: 'model-not-found',
      message: expect.stringMatching(/download one from the welcome screen/) as unknown
    })
    const tested = await client.testConnection()
    expect(!tested.ok && tested.error.code).toBe('model-not-found')
    expect(host.status().starts).toBe(0)
  })

  it('refuses a file that is not a GGUF model before the engine sees it', async () => {
    const bad = join(dir, 'model.gguf')
    writeFileSync(bad, '<html>404 Not Found</html>')
    const client = new ModelClient(builtinEndpoint(bad), { secrets: new MemorySecretStore(), builtin: { host } })
    const sampled = await client.sample({ messages: MESSAGES, n: 1, temperature: 0, maxTokens: 4 })
    expect(!sampled.ok && sampled.error).toMatchObject({
      code: 'model-file',
      message: expect.stringMatching(/not a GGUF model file/) as unknown
    })
    expect(host.status().starts).toBe(0)
  })

  it('answers that the built-in model is unavailable where no engine was given', async () => {
    const client = new ModelClient(builtinEndpoint(join(dir, 'absent.gguf')), { secrets: new MemorySecretStore() })
    const sampled = await client.sample({ messages: MESSAGES, n: 1, temperature: 0, maxTokens: 4 })
    expect(!sampled.ok && sampled.error.code).toBe('model-unreachable')
  })
})

describeWithModel('the builtin endpoint kind on the real test model', (model) => {
  let host: EngineHost
  let client: ModelClient
  let executor: PythonExecutor
  beforeAll(() => {
    // A long grace period: one test checks that the engine stops generating by itself when cancelled.
    host = new EngineHost(nodeEngineSpawner(), { cancelGraceMs: 5_000 })
    client = new ModelClient(builtinEndpoint(model), { secrets: new MemorySecretStore(), builtin: { host, seed: 11 } })
  })
  afterAll(async () => {
    await executor?.close()
    await host.close()
  })

  it('samples n completions through ModelClient: progress, each sample as it completes, log-probabilities, the token limit', async () => {
    const events: SampleProgress[] = []
    const arrived: [number, Sample][] = []
    const sampled = await client.sample({
      messages: MESSAGES,
      n: 3,
      temperature: 0.7,
      maxTokens: 20,
      onProgress: (e) => events.push(e),
      onSample: (i, s) => arrived.push([i, s])
    })
    if (!sampled.ok) throw new Error(sampled.error.message)
    expect(sampled.value).toHaveLength(3)
    // Drawn side by side: each arrives as soon as it is complete, in whatever order they end.
    expect(arrived.map(([i]) => i).sort()).toEqual([0, 1, 2])
    expect(arrived.sort((a, b) => a[0] - b[0]).map(([, s]) => s)).toEqual(sampled.value)
    for (const s of sampled.value) {
      expect(s.tokens).toBeGreaterThan(0)
      expect(s.tokens).toBeLessThanOrEqual(20)
      expect(s.logprobSum).toBeLessThan(0)
    }
    expect(events.filter((e) => e.kind === 'load').at(-1)).toEqual({ kind: 'load', fraction: 1 })
    expect(events.filter((e) => e.kind === 'sample')).toEqual([1, 2, 3].map((done) => ({ kind: 'sample', done, total: 3 })))
    const tested = await client.testConnection()
    expect(tested.ok && tested.value.message).toMatch(
      /^Ready: SmolLM2 135M Instruct \(Q4_1\) \(98 MB, SmolLM2-135M-Instruct\.Q4_1\.gguf\) runs on this computer/
    )
  }, 300_000)

  it('ends a cancelled generation at once, and the engine stops by itself, free for the next request', async () => {
    const starts = host.status().starts
    const controller = new AbortController()
    let abortedAt = 0
    const cancelled = await client.sample({
      messages: MESSAGES,
      n: 5,
      temperature: 0.7,
      maxTokens: 400,
      signal: controller.signal,
      onSample: () => {
        abortedAt = Date.now()
        controller.abort()
      }
    })
    expect(!cancelled.ok && cancelled.error.code).toBe('cancelled')
    expect(abortedAt).toBeGreaterThan(0)
    const next = await client.sample({ messages: MESSAGES, n: 1, temperature: 0, maxTokens: 4 })
    expect(next.ok).toBe(true)
    // The same process: the engine stopped generating when asked, not because it was killed.
    expect(host.status().starts).toBe(starts)
  }, 300_000)

  it('queues a second question while the first is answered, and answers both', async () => {
    const queued: SampleProgress[] = []
    const [a, b] = await Promise.all([
      client.sample({ messages: MESSAGES, n: 1, temperature: 0.7, maxTokens: 12 }),
      client.sample({ messages: MESSAGES, n: 1, temperature: 0.7, maxTokens: 12, onProgress: (e) => e.kind === 'queued' && queued.push(e) })
    ])
    expect(a.ok && b.ok).toBe(true)
    expect(queued[0]).toEqual({ kind: 'queued', ahead: 1 })
  }, 300_000)

  it('ends the question with an error when the engine process dies, and the next question starts a new engine', async () => {
    const pid = host.status().pid
    if (pid === null) throw new Error('the engine is not running')
    const crashed = await client.sample({
      messages: MESSAGES,
      n: 3,
      temperature: 0.7,
      maxTokens: 200,
      onSample: () => process.kill(pid, 'SIGKILL')
    })
    expect(!crashed.ok && crashed.error.code).toBe('model-engine-crashed')
    const next = await client.sample({ messages: MESSAGES, n: 1, temperature: 0, maxTokens: 4 })
    expect(next.ok).toBe(true)
    expect(host.status().pid).not.toBe(pid)
  }, 300_000)

  it('answers a question end to end: real tokens, programs extracted from them, run in the Pyodide sandbox, one selected', async () => {
    executor = testExecutor({ poolSize: 1 }, 30_000)
    const bytes = new Uint8Array(readFileSync(join(appRoot(), 'resources', 'samples', 'orders.csv')))
    const grids = await importFile('orders.csv', bytes)
    if (!grids.ok) throw new Error(grids.error.message)
    const stages = new Set<string>()
    const early: AskProgress['candidate'][] = []
    const tables = grids.value.map((g) => ({ name: g.name, table: structureGrid(g) }))
    // Ready before the question: the model loads and reads the instructions and examples.
    const options = { n: 3, maxTokens: 120, apis: 'none' as const, selection: 'logprob' as const }
    const warmed = await warmFor(tables, client, options)
    expect(warmed.ok && warmed.value?.source).toBe('evaluated')
    const result = await ask(
      {
        tables,
        question: 'How many orders are there?',
        options,
        onProgress: (e) => {
          stages.add(e.stage)
          if (e.candidate !== undefined) early.push(e.candidate)
        }
      },
      { client, executor }
    )
    if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`)
    const summary = result.value
    expect(summary.endpoint).toEqual({ name: 'On this computer', model: 'SmolLM2 135M Instruct (Q4_1)', api: 'chat' })
    expect(summary.executor).toBe('pyodide')
    expect(summary.candidates).toHaveLength(3)
    for (const c of summary.candidates) {
      expect(c.logprobSum).toBeLessThan(0)
      if (c.program === null) expect(!c.result.ok && c.result.error.code).toBe('model-no-code')
    }
    // At least one reply held a program, and every program ran in the sandbox (an answer or the error it raised).
    const ran = summary.candidates.filter((c) => c.program !== null)
    expect(ran.length).toBeGreaterThan(0)
    for (const c of ran) expect(c.result.ok || ['python-error', 'no-answer', 'timeout'].includes(c.result.error.code)).toBe(true)
    expect(summary.selection?.mode).toBe('logprob')
    expect([...(summary.selection?.ranking ?? [])].sort()).toEqual([0, 1, 2])
    expect([...stages]).toEqual(expect.arrayContaining(['prompt', 'generating', 'executing']))
    // Each candidate was shown as soon as it ran (a failed one again after its repair).
    expect(
      early
        .filter((c) => c?.repaired !== true)
        .map((c) => c?.index)
        .sort()
    ).toEqual([0, 1, 2])
    const repaired = summary.candidates.filter((c) => c.repairedFrom !== undefined).map((c) => c.index)
    expect(
      early
        .filter((c) => c?.repaired === true)
        .map((c) => c?.index)
        .sort()
    ).toEqual(repaired.sort())
    // The question found the fixed part held, and says where its time went.
    expect(summary.engine?.prefix.source).toBe('held')
    expect(summary.engine?.samples).toHaveLength(3)
    expect(summary.engine?.promptEvaluatedTokens).toBeLessThan(
      (summary.engine?.promptTokens ?? 0) - (summary.engine?.prefix.tokens ?? 0) + 2
    )
  }, 600_000)
})
