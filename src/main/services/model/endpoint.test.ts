import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { EndpointConfig, SampleProgress } from '../../../shared/model'
import type { ErrorCode, Result } from '../../../shared/result'
import type { Rule, Script, ScriptedServer } from '../../../../test/support/scripted-openai-server'
import { startScriptedServer } from '../../../../test/support/scripted-openai-server'
import { ResponseCache } from './cache'
import type { ModelClientOptions } from './endpoint'
import { ModelClient } from './endpoint'
import { MemorySecretStore } from './secrets'

const servers: ScriptedServer[] = []
const dirs: string[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()))
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })))
})

async function serve(script: Script): Promise<ScriptedServer> {
  const server = await startScriptedServer(script)
  servers.push(server)
  return server
}

function expectError(result: Result<unknown>, code: ErrorCode, message: RegExp): void {
  expect(result.ok).toBe(false)
  if (result.ok) return
  expect(result.error.code).toBe(code)
  expect(result.error.message).toMatch(message)
}

const sleeps: number[] = []
const fastRetry = {
  baseDelayMs: 1,
  maxDelayMs: 4,
  retryAfterCapMs: 20,
  random: () => 0.5,
  sleep: (ms: number) => {
    sleeps.push(ms)
    return new Promise<void>((r) => setTimeout(r, ms))
  }
}

function client(url: string, over: Partial<EndpointConfig> = {}, options: Partial<ModelClientOptions> = {}): ModelClient {
  const config: EndpointConfig = {
    id: 'e1',
    name: 'Test',
    baseUrl: url,
    model: 'test-model',
    api: 'completions',
    timeoutMs: 5_000,
    maxRetries: 2,
    promptTokenBudget: 4_000,
    ...over
  }
  return new ModelClient(config, { secrets: new MemorySecretStore(), retry: fastRetry, ...options })
}

const programs = [
  { text: 'answer = df["Year"].max()', logprobs: [-0.1, -0.2, -0.3] },
  { text: 'answer = len(df)', logprobs: [-1, -1] },
  { text: 'print(df.shape[0])', logprobs: [-0.5] }
]
const base = { prompt: 'Question: how many rows?\n', n: 3, temperature: 0.7, maxTokens: 128 }

describe('ModelClient.sample', () => {
  it('asks a completions endpoint for n samples with log-probs in one request', async () => {
    const server = await serve({ rules: [{ match: /how many rows/, reply: { choices: programs } }] })
    const result = await client(server.url).sample(base)
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.value.map((s) => s.text)).toEqual(programs.map((p) => p.text))
    expect(result.value[0]?.logprobSum).toBeCloseTo(-0.6)
    expect(result.value[0]?.logprobMean).toBeCloseTo(-0.2)
    expect(result.value[1]?.tokens).toBe(2)
    expect(result.value[0]?.finishReason).toBe('stop')
    expect(server.requests).toHaveLength(1)
    expect(server.requests[0]?.body).toMatchObject({ n: 3, temperature: 0.7, max_tokens: 128, logprobs: 1, model: 'test-model' })
  })

  it('reads chat log-probs from choices[].logprobs.content', async () => {
    const server = await serve({ rules: [{ reply: { choices: programs } }] })
    const result = await client(server.url, { api: 'chat' }).sample({
      ...base,
      prompt: undefined,
      messages: [
        { role: 'system', content: 'Write pandas.' },
        { role: 'user', content: 'How many rows?' }
      ]
    })
    expect(result.ok && result.value.map((s) => s.logprobSum)).toEqual([expect.closeTo(-0.6), -2, -0.5])
    expect(server.requests[0]?.body).toMatchObject({
      n: 3,
      logprobs: true,
      messages: [{ role: 'system' }, { role: 'user', content: 'How many rows?' }]
    })
  })

  it.each(['completions', 'chat', 'responses'] as const)('streams %s replies with progress events', async (api) => {
    const server = await serve({ rules: [{ reply: { choices: programs } }] })
    const events: SampleProgress[] = []
    const result = await client(server.url, { api }).sample({ ...base, stream: true, concurrency: 1, onProgress: (e) => events.push(e) })
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.value.map((s) => s.text)).toEqual(programs.map((p) => p.text))
    if (api !== 'responses') expect(result.value[1]?.logprobSum).toBe(-2)
    expect(events.filter((e) => e.kind === 'sample').map((e) => e.done)).toEqual([1, 2, 3])
    expect(events.some((e) => e.kind === 'text' && e.chars > 0)).toBe(true)
  })

  it('hands each sample to onSample as it arrives, before the rest are in', async () => {
    // One request at a time, so the order of requests and samples is fixed.
    const server = await serve({
      rules: [{ times: 1, reply: { choices: programs.slice(0, 1) } }, { reply: { choices: programs.slice(1, 2) } }]
    })
    const seen: { index: number; text: string; requests: number }[] = []
    const result = await client(server.url, { supportsN: false }).sample({
      ...base,
      n: 2,
      concurrency: 1,
      onSample: (index, sample) => seen.push({ index, text: sample.text, requests: server.requests.length })
    })
    expect(result.ok).toBe(true)
    // The first sample came out while the second had not even been asked for.
    expect(seen).toEqual([
      { index: 0, text: programs[0]?.text, requests: 1 },
      { index: 1, text: programs[1]?.text, requests: 2 }
    ])
  })

  it('hands cached samples to onSample too', async () => {
    const server = await serve({ rules: [{ reply: { choices: programs } }] })
    const dir = await mkdtemp(join(tmpdir(), 'model-cache-'))
    dirs.push(dir)
    const options = { cache: new ResponseCache(dir) }
    await client(server.url, {}, options).sample(base)
    const indices: number[] = []
    const again = await client(server.url, {}, options).sample({ ...base, onSample: (index) => indices.push(index) })
    expect(again.ok).toBe(true)
    expect(server.requests).toHaveLength(1)
    expect(indices).toEqual([0, 1, 2])
  })

  it('samples by repeated requests when the endpoint does not accept n', async () => {
    const server = await serve({ rules: [{ reply: { choices: programs } }] })
    const result = await client(server.url, { supportsN: false }).sample({ ...base, n: 5 })
    expect(result.ok && result.value).toHaveLength(5)
    expect(server.requests).toHaveLength(5)
    expect(server.requests.every((r) => r.body?.['n'] === undefined)).toBe(true)
  })

  it('tops up with repeated requests when a server quietly ignores n', async () => {
    const server = await serve({ honourN: false, rules: [{ reply: { choices: programs } }] })
    const result = await client(server.url).sample(base)
    expect(result.ok && result.value.map((s) => s.text).sort()).toEqual(programs.map((p) => p.text).sort())
    expect(server.requests.map((r) => r.body?.['n'])).toEqual([3, undefined, undefined])
  })

  it('switches to repeated requests when the server refuses n', async () => {
    const refuse: Rule = {
      match: (r) => typeof r.body?.['n'] === 'number',
      reply: { fault: { kind: 'status', status: 400, message: "Unsupported value: 'n' must be 1 for this model." } }
    }
    const server = await serve({ rules: [refuse, { reply: { choices: programs } }] })
    const result = await client(server.url, { api: 'chat' }).sample(base)
    expect(result.ok && result.value).toHaveLength(3)
    expect(server.requests.map((r) => r.body?.['n'])).toEqual([3, undefined, undefined, undefined])
  })

  it('uses repeated requests on the responses API, with log-probs when the server gives them', async () => {
    const server = await serve({ rules: [{ reply: { choices: programs } }] })
    const result = await client(server.url, { api: 'responses' }).sample({
      ...base,
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'q' }
      ],
      prompt: undefined
    })
    expect(result.ok && result.value).toHaveLength(3)
    expect(server.requests.map((r) => r.path)).toEqual(['/v1/responses', '/v1/responses', '/v1/responses'])
    expect(server.requests[0]?.body).toMatchObject({
      instructions: 'sys',
      input: [{ role: 'user', content: 'q' }],
      max_output_tokens: 128,
      include: ['message.output_text.logprobs']
    })
    expect(server.requests[0]?.body?.['n']).toBeUndefined()
    const sums = result.ok ? result.value.map((s) => s.logprobSum ?? 0).sort((a, b) => a - b) : []
    expect(sums).toEqual([-2, expect.closeTo(-0.6), -0.5])
  })

  it('gives null log-probs when the endpoint gives none', async () => {
    const server = await serve({ rules: [{ reply: { choices: [{ text: 'answer = 1' }] } }] })
    const result = await client(server.url, { api: 'responses' }).sample({ ...base, n: 1 })
    expect(result.ok && result.value[0]).toMatchObject({ text: 'answer = 1', logprobSum: null, logprobMean: null })
  })

  it('leaves out a sampling parameter the server refuses and tries again', async () => {
    const refuse: Rule = {
      match: (r) => r.body?.['temperature'] !== undefined,
      reply: { fault: { kind: 'status', status: 400, message: "Unsupported parameter: 'temperature' is not supported with this model." } }
    }
    const server = await serve({ rules: [refuse, { reply: { choices: programs } }] })
    const result = await client(server.url, { api: 'responses' }).sample({ ...base, n: 2, concurrency: 1 })
    expect(result.ok).toBe(true)
    expect(server.requests.map((r) => r.body?.['temperature'])).toEqual([0.7, undefined, undefined])
  })
})

describe('ModelClient faults', () => {
  it('retries a 429 after the server-given delay (capped), then succeeds', async () => {
    sleeps.length = 0
    const server = await serve({
      rules: [{ times: 1, reply: { fault: { kind: 'status', status: 429, retryAfter: '1' } } }, { reply: { choices: programs } }]
    })
    const result = await client(server.url).sample(base)
    expect(result.ok).toBe(true)
    expect(server.requests).toHaveLength(2)
    expect(sleeps).toEqual([20])
  })

  it('gives up on a 500 storm after maxRetries and says so', async () => {
    const server = await serve({ rules: [{ reply: { fault: { kind: 'status', status: 500, message: 'overloaded' } } }] })
    const result = await client(server.url, { maxRetries: 2 }).sample(base)
    expect(server.requests).toHaveLength(3)
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.error.code).toBe('model-http')
    expect(result.error.message).toMatch(/HTTP 500.*3 attempts/)
    expect(result.error.detail).toBe('overloaded')
  })

  it('reports rate limiting that never ends as model-rate-limited', async () => {
    const server = await serve({ rules: [{ reply: { fault: { kind: 'status', status: 429 } } }] })
    const result = await client(server.url, { maxRetries: 1 }).sample(base)
    expect(!result.ok && result.error.code).toBe('model-rate-limited')
    expect(server.requests).toHaveLength(2)
  })

  it('times out a slow reply without retrying it', async () => {
    const server = await serve({ rules: [{ reply: { delayMs: 10_000, choices: programs } }] })
    const started = Date.now()
    const result = await client(server.url, { timeoutMs: 200 }).sample(base)
    expect(!result.ok && result.error.code).toBe('model-timeout')
    expect(Date.now() - started).toBeLessThan(3_000)
    expect(server.requests).toHaveLength(1)
  })

  it('times out a stream that trickles past the limit (the timeout covers the body, not just the headers)', async () => {
    const server = await serve({ rules: [{ reply: { chunkDelayMs: 100, choices: programs } }] })
    const started = Date.now()
    const result = await client(server.url, { api: 'chat', timeoutMs: 300 }).sample({ ...base, stream: true })
    expect(!result.ok && result.error.code).toBe('model-timeout')
    expect(Date.now() - started).toBeLessThan(3_000)
    expect(server.requests).toHaveLength(1)
  })

  it('cancels mid-stream', async () => {
    const server = await serve({ rules: [{ reply: { chunkDelayMs: 100, choices: programs } }] })
    const controller = new AbortController()
    const result = await client(server.url, { api: 'completions' }).sample({
      ...base,
      stream: true,
      signal: controller.signal,
      onProgress: (e) => {
        if (e.kind === 'text') controller.abort()
      }
    })
    expect(!result.ok && result.error.code).toBe('cancelled')
  })

  it('reports malformed JSON as a bad reply', async () => {
    const server = await serve({ rules: [{ reply: { fault: { kind: 'malformed-json' } } }] })
    const result = await client(server.url).sample(base)
    expectError(result, 'model-bad-reply', /not valid JSON/)
    expect(server.requests).toHaveLength(1)
  })

  it.each(['destroy', 'end'] as const)('retries a stream cut off (%s) and reports it when it keeps happening', async (mode) => {
    const server = await serve({ rules: [{ reply: { choices: programs, fault: { kind: 'cut', afterChunks: 3, mode } } }] })
    const result = await client(server.url, { api: 'chat', maxRetries: 1 }).sample({ ...base, stream: true })
    expect(!result.ok && result.error.code).toBe('model-bad-reply')
    expect(!result.ok && result.error.message).toMatch(/before the model server (finished|sent)/)
    expect(server.requests).toHaveLength(2)
  })

  it('recovers when a cut-off stream succeeds on retry', async () => {
    const server = await serve({
      rules: [
        { times: 1, reply: { choices: programs, fault: { kind: 'cut', afterChunks: 2, mode: 'destroy' } } },
        { reply: { choices: programs } }
      ]
    })
    const result = await client(server.url, { api: 'chat' }).sample({ ...base, stream: true })
    expect(result.ok && result.value).toHaveLength(3)
  })

  it('reports a wrong content type clearly', async () => {
    const server = await serve({
      rules: [
        { reply: { fault: { kind: 'content-type', contentType: 'text/html; charset=utf-8', body: '<html><body>Login</body></html>' } } }
      ]
    })
    const result = await client(server.url, { api: 'chat' }).sample({ ...base, n: 1 })
    expectError(result, 'model-bad-reply', /text\/html.*HTML page/)
  })

  it.each([false, true])('caps a huge reply instead of reading it all (chunked: %s)', async (chunked) => {
    const server = await serve({ rules: [{ reply: { fault: { kind: 'huge', bytes: 4 * 1024 * 1024, chunked } } }] })
    const result = await client(server.url, {}, { maxReplyBytes: 256 * 1024 }).sample(base)
    expectError(result, 'too-large', /256 KB/)
  })

  it('cancels an in-flight request through the AbortSignal', async () => {
    const server = await serve({ rules: [{ reply: { delayMs: 10_000, choices: programs } }] })
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 100)
    const started = Date.now()
    const result = await client(server.url).sample({ ...base, signal: controller.signal })
    expect(!result.ok && result.error.code).toBe('cancelled')
    expect(Date.now() - started).toBeLessThan(3_000)
  })

  it('cancels during retry back-off', async () => {
    const server = await serve({ rules: [{ reply: { fault: { kind: 'status', status: 503, retryAfter: '10' } } }] })
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 100)
    const result = await client(
      server.url,
      { maxRetries: 5 },
      { retry: { ...fastRetry, retryAfterCapMs: 10_000, sleep: undefined } }
    ).sample({ ...base, signal: controller.signal })
    expect(!result.ok && result.error.code).toBe('cancelled')
    expect(server.requests).toHaveLength(1)
  })

  it('reports an unknown model', async () => {
    const server = await serve({ models: ['other-model'] })
    const result = await client(server.url).sample(base)
    expectError(result, 'model-not-found', /test-model/)
  })

  it('reports a server that cannot be reached', async () => {
    const server = await serve({})
    const url = server.url
    await server.close()
    servers.length = 0
    const result = await client(url, { maxRetries: 3 }).sample(base)
    expect(!result.ok && result.error.code).toBe('model-unreachable')
  })
})

describe('ModelClient connection test', () => {
  it('lists models and says whether the configured one is served', async () => {
    const server = await serve({ models: ['test-model', 'big-model'] })
    const found = await client(server.url).testConnection()
    expect(found.ok && found.value).toMatchObject({ modelListed: true, models: ['test-model', 'big-model'] })
    const missing = await client(server.url, { model: 'absent' }).testConnection()
    expect(missing.ok && missing.value.message).toMatch(/does not list 'absent'/)
  })

  it('says when the URL is not an OpenAI-compatible server (404 page)', async () => {
    const server = await serve({})
    const result = await client(server.origin).testConnection()
    expectError(result, 'model-http', /does not look like an OpenAI-compatible API.*\/v1/)
  })

  it('says when the URL serves a web page with 200', async () => {
    const server = await serve({
      rules: [
        { path: /.*/, reply: { fault: { kind: 'content-type', contentType: 'text/html', body: '<!doctype html><title>Home</title>' } } }
      ]
    })
    const result = await client(server.url).testConnection()
    expect(!result.ok && result.error.message).toMatch(/OpenAI-compatible.*text\/html/)
  })
})

describe('API keys', () => {
  const key = 'sk-proj-T3stKeyDoNotLeak0123456789abcdef'

  it('sends the stored key and keeps it out of errors', async () => {
    const server = await serve({
      requireKey: key,
      rules: [{ reply: { fault: { kind: 'status', status: 400, message: `Bad request for key ${key}` } } }]
    })
    const secrets = new MemorySecretStore({ main: key })
    const result = await client(server.url, { apiKeyRef: 'main' }, { secrets }).sample(base)
    expect(server.requests[0]?.headers['authorization']).toBe(`Bearer ${key}`)
    expect(result.ok).toBe(false)
    expect(JSON.stringify(result)).not.toContain(key)
    expect(JSON.stringify(result)).toContain('[redacted]')
  })

  it('keeps a key the server echoes in a 401 out of the error', async () => {
    const server = await serve({
      rules: [{ reply: { fault: { kind: 'status', status: 401, message: `Incorrect API key provided: ${key}` } } }]
    })
    const result = await client(server.url, { apiKeyRef: 'main' }, { secrets: new MemorySecretStore({ main: key }) }).testConnection()
    expect(result.ok).toBe(true) // /models is not covered by the rule
    const sampled = await client(server.url, { apiKeyRef: 'main' }, { secrets: new MemorySecretStore({ main: key }) }).sample(base)
    expect(!sampled.ok && sampled.error.code).toBe('unauthorized')
    expect(JSON.stringify(sampled)).not.toContain(key)
  })

  it('fails clearly when the referenced key is missing, without sending a request', async () => {
    const server = await serve({})
    const result = await client(server.url, { apiKeyRef: 'absent' }).sample(base)
    expect(!result.ok && result.error.code).toBe('unauthorized')
    expect(server.requests).toHaveLength(0)
  })

  it('never sends OPENAI_API_KEY from the environment to a configured server', async () => {
    const server = await serve({})
    const saved = process.env['OPENAI_API_KEY']
    process.env['OPENAI_API_KEY'] = key
    try {
      await client(server.url).sample({ ...base, n: 1 })
    } finally {
      if (saved === undefined) delete process.env['OPENAI_API_KEY']
      else process.env['OPENAI_API_KEY'] = saved
    }
    expect(server.requests[0]?.headers['authorization']).not.toContain(key)
  })
})

describe('response cache', () => {
  async function tempDir(): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'model-cache-'))
    dirs.push(dir)
    return dir
  }

  it('answers a repeated request from disk with zero HTTP requests, and stores no key', async () => {
    const key = 'sk-cacheKeyShouldNotBeStored987654321'
    const server = await serve({ rules: [{ reply: { choices: programs } }] })
    const dir = await tempDir()
    const options = { cache: new ResponseCache(dir), secrets: new MemorySecretStore({ k: key }) }
    const first = await client(server.url, { apiKeyRef: 'k' }, options).sample(base)
    expect(server.requests).toHaveLength(1)
    const second = await client(server.url, { apiKeyRef: 'k' }, options).sample(base)
    expect(server.requests).toHaveLength(1)
    expect(second).toEqual(first)
    expect((await options.cache.stats()).entries).toBe(3)
    for (const shard of await readdir(dir)) {
      for (const name of await readdir(join(dir, shard))) expect(await readFile(join(dir, shard, name), 'utf8')).not.toContain(key)
    }
    const other = await client(server.url, {}, options).sample({ ...base, temperature: 0.2 })
    expect(other.ok).toBe(true)
    expect(server.requests).toHaveLength(2)
    const fresh = await client(server.url, {}, options).sample({ ...base, useCache: false })
    expect(fresh.ok).toBe(true)
    expect(server.requests).toHaveLength(3)
  })

  it('keeps the samples that arrived when a later request fails, and asks only for the rest', async () => {
    const server = await serve({
      rules: [
        { times: 2, reply: { choices: programs } },
        { times: 3, reply: { fault: { kind: 'status', status: 500 } } },
        { reply: { choices: programs } }
      ]
    })
    const options = { cache: new ResponseCache(await tempDir()) }
    const failed = await client(server.url, { supportsN: false }, options).sample({ ...base, concurrency: 1 })
    expect(failed.ok).toBe(false)
    expect(server.requests).toHaveLength(5)
    const retried = await client(server.url, { supportsN: false }, options).sample({ ...base, concurrency: 1 })
    expect(retried.ok && retried.value).toHaveLength(3)
    expect(server.requests).toHaveLength(6)
  })
})
