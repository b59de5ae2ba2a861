import type { ApiKind, EndpointConfig } from '../../../src/shared/model'
import { ModelClient, MemorySecretStore } from '../../../src/main/services/model'
import { startScriptedServer, type Script } from '../../support/scripted-openai-server'

/** One way a model endpoint misbehaves, and what the client must make of it. */
export type FaultScenario = {
  name: string
  api: ApiKind
  stream: boolean
  script: Script
  config?: Partial<EndpointConfig>
  maxReplyBytes?: number
  /** Close the server before the request (nothing listens). */
  closed?: boolean
  code: string
  message: RegExp
  /** Requests the client may send in all (first attempt + retries). */
  maxRequests: number
  maxMs: number
}

export type FaultOutcome = {
  name: string
  survived: boolean
  ms: number
  requests: number
  problems: string[]
  error: { code: string; message: string } | null
}

const choice = [{ text: 'answer = 1' }]
const status = (code: number, extra: object = {}): Script => ({ rules: [{ reply: { fault: { kind: 'status', status: code, ...extra } } }] })

export const FAULT_SCENARIOS: FaultScenario[] = [
  ...(['completions', 'chat', 'responses'] as const).flatMap((api): FaultScenario[] => [
    {
      name: `${api}: no answer before the timeout`,
      api,
      stream: false,
      script: { rules: [{ reply: { delayMs: 20_000, choices: choice } }] },
      config: { timeoutMs: 300 },
      code: 'model-timeout',
      message: /did not finish replying within 0\.3 s/,
      maxRequests: 1,
      maxMs: 3_000
    },
    {
      name: `${api}: a stream that trickles past the timeout`,
      api,
      stream: true,
      script: { rules: [{ reply: { chunkDelayMs: 150, choices: [{ text: 'answer = sum(x for x in range(100))' }] } }] },
      config: { timeoutMs: 400 },
      code: 'model-timeout',
      message: /did not finish replying/,
      maxRequests: 1,
      maxMs: 3_000
    },
    {
      name: `${api}: a 429 storm`,
      api,
      stream: false,
      script: status(429, { retryAfter: '3600' }),
      code: 'model-rate-limited',
      message: /rate-limiting.*Gave up after 3 attempts/,
      maxRequests: 3,
      maxMs: 3_000
    },
    {
      name: `${api}: a 500 storm`,
      api,
      stream: false,
      script: status(500),
      code: 'model-http',
      message: /HTTP 500.*3 attempts/,
      maxRequests: 3,
      maxMs: 3_000
    },
    {
      name: `${api}: a stream cut off (connection destroyed)`,
      api,
      stream: true,
      script: { rules: [{ reply: { choices: choice, fault: { kind: 'cut', afterChunks: 2, mode: 'destroy' } } }] },
      code: 'model-bad-reply',
      message: /before the model server (finished|sent)/,
      maxRequests: 3,
      maxMs: 3_000
    },
    {
      name: `${api}: a stream closed cleanly without its end`,
      api,
      stream: true,
      script: { rules: [{ reply: { choices: choice, fault: { kind: 'cut', afterChunks: 2, mode: 'end' } } }] },
      code: 'model-bad-reply',
      message: /before the model server (finished|sent)/,
      maxRequests: 3,
      maxMs: 3_000
    },
    {
      name: `${api}: an HTML page with status 200`,
      api,
      stream: false,
      script: {
        rules: [
          { reply: { fault: { kind: 'content-type', contentType: 'text/html; charset=utf-8', body: '<html><body>Sign in</body></html>' } } }
        ]
      },
      code: 'model-bad-reply',
      message: /text\/html/,
      maxRequests: 1,
      maxMs: 3_000
    },
    {
      name: `${api}: malformed JSON`,
      api,
      stream: false,
      script: { rules: [{ reply: { fault: { kind: 'malformed-json' } } }] },
      code: 'model-bad-reply',
      message: /not valid JSON/,
      maxRequests: 1,
      maxMs: 3_000
    },
    {
      name: `${api}: a 64 MB reply with a length`,
      api,
      stream: false,
      script: { rules: [{ reply: { fault: { kind: 'huge', bytes: 64 * 1024 * 1024 } } }] },
      maxReplyBytes: 1024 * 1024,
      code: 'too-large',
      message: /larger than 1\.0 MB/,
      maxRequests: 1,
      maxMs: 10_000
    },
    {
      name: `${api}: a 64 MB chunked reply`,
      api,
      stream: false,
      script: { rules: [{ reply: { fault: { kind: 'huge', bytes: 64 * 1024 * 1024, chunked: true } } }] },
      maxReplyBytes: 1024 * 1024,
      code: 'too-large',
      message: /larger than 1\.0 MB/,
      maxRequests: 1,
      maxMs: 10_000
    }
  ]),
  {
    name: 'chat: a text/plain error page with status 503',
    api: 'chat',
    stream: false,
    script: status(503, { body: 'Service Unavailable', contentType: 'text/plain' }),
    code: 'model-http',
    message: /HTTP 503/,
    maxRequests: 3,
    maxMs: 3_000
  },
  {
    name: 'chat: wrong key (401)',
    api: 'chat',
    stream: false,
    script: status(401, { message: 'Incorrect API key provided.' }),
    code: 'unauthorized',
    message: /check the API key/,
    maxRequests: 1,
    maxMs: 3_000
  },
  {
    name: 'chat: unknown model',
    api: 'chat',
    stream: false,
    script: { models: ['other'] },
    config: { model: 'missing-model' },
    code: 'model-not-found',
    message: /does not serve the model 'missing-model'/,
    maxRequests: 1,
    maxMs: 3_000
  },
  {
    name: 'completions: nothing listening',
    api: 'completions',
    stream: false,
    script: {},
    closed: true,
    code: 'model-unreachable',
    message: /Could not connect/,
    maxRequests: 0,
    maxMs: 3_000
  }
]

/** Run one scenario against a fresh scripted server; retries wait at most a few ms each. */
export async function runFaultScenario(scenario: FaultScenario): Promise<FaultOutcome> {
  const server = await startScriptedServer(scenario.script)
  const sleeps: number[] = []
  try {
    if (scenario.closed === true) await server.close()
    const config: EndpointConfig = {
      id: 'e',
      name: 'Faulty',
      baseUrl: server.url,
      model: 'test-model',
      api: scenario.api,
      timeoutMs: 5_000,
      maxRetries: 2,
      promptTokenBudget: 4_000,
      ...scenario.config
    }
    const client = new ModelClient(config, {
      secrets: new MemorySecretStore(),
      // Real backoff shape, compressed: retry-after is honoured up to 50 ms so a storm takes milliseconds here.
      retry: {
        baseDelayMs: 5,
        maxDelayMs: 20,
        retryAfterCapMs: 50,
        random: () => 0.5,
        sleep: (ms) => {
          sleeps.push(ms)
          return new Promise<void>((r) => setTimeout(r, ms))
        }
      },
      ...(scenario.maxReplyBytes === undefined ? {} : { maxReplyBytes: scenario.maxReplyBytes })
    })
    const started = performance.now()
    const result = await client.sample({
      prompt: 'Question: how many rows?\n',
      n: 1,
      temperature: 0.7,
      maxTokens: 64,
      stream: scenario.stream
    })
    const ms = performance.now() - started
    const requests = server.requests.filter((r) => r.path !== '/v1/models').length
    const problems: string[] = []
    if (result.ok) problems.push('succeeded but must fail')
    else {
      if (result.error.code !== scenario.code) problems.push(`code ${result.error.code}, expected ${scenario.code}`)
      if (!scenario.message.test(result.error.message))
        problems.push(`message "${result.error.message}" does not match ${String(scenario.message)}`)
      if (/\n\s+at /.test(result.error.message)) problems.push('message carries a stack trace')
    }
    if (requests > scenario.maxRequests) problems.push(`${requests} requests, at most ${scenario.maxRequests} allowed`)
    if (ms > scenario.maxMs) problems.push(`took ${Math.round(ms)} ms, at most ${scenario.maxMs} ms allowed`)
    if (sleeps.some((s) => s > 50)) problems.push(`a retry waited ${Math.max(...sleeps)} ms, over the 50 ms cap`)
    return {
      name: scenario.name,
      survived: problems.length === 0,
      ms,
      requests,
      problems,
      error: result.ok ? null : { code: result.error.code, message: result.error.message }
    }
  } finally {
    if (scenario.closed !== true) await server.close()
  }
}
