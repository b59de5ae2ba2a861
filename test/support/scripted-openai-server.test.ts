import { afterEach, describe, expect, it } from 'vitest'
import type { ScriptedServer } from './scripted-openai-server'
import { startScriptedServer } from './scripted-openai-server'

let server: ScriptedServer | null = null
afterEach(async () => {
  await server?.close()
  server = null
})

async function post(path: string, body: unknown): Promise<Response> {
  if (server === null) throw new Error('no server')
  return fetch(`${server.origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
}

describe('scripted OpenAI server', () => {
  it('answers by the first matching rule and records the request', async () => {
    server = await startScriptedServer({
      rules: [
        { match: /population/, reply: { choices: [{ text: 'answer = 42', logprobs: [-0.5, -0.25] }] } },
        { reply: { choices: [{ text: 'answer = 0' }] } }
      ]
    })
    const res = await post('/v1/completions', { model: 'test-model', prompt: 'What is the population?', n: 2, logprobs: 1 })
    const body = (await res.json()) as { choices: { text: string; logprobs: { token_logprobs: number[]; tokens: string[] } }[] }
    expect(body.choices).toHaveLength(2)
    expect(body.choices[0]?.text).toBe('answer = 42')
    expect(body.choices[0]?.logprobs.token_logprobs).toEqual([-0.5, -0.25])
    expect(body.choices[0]?.logprobs.tokens.join('')).toBe('answer = 42')
    expect(server.requests[0]?.prompt).toBe('What is the population?')
    expect(server.requests[0]?.body?.['n']).toBe(2)
  })

  it('serves chat log-probs, streams SSE ending in [DONE], and cycles choices across requests', async () => {
    server = await startScriptedServer({
      rules: [
        {
          reply: {
            choices: [
              { text: 'a = 1', logprobs: [-1] },
              { text: 'b = 2', logprobs: [-2] }
            ]
          }
        }
      ]
    })
    const first = (await (
      await post('/v1/chat/completions', { model: 'test-model', messages: [{ role: 'user', content: 'q' }], logprobs: true })
    ).json()) as {
      choices: { message: { content: string }; logprobs: { content: { logprob: number }[] } }[]
    }
    expect(first.choices[0]?.message.content).toBe('a = 1')
    expect(first.choices[0]?.logprobs.content[0]?.logprob).toBe(-1)
    const streamed = await post('/v1/chat/completions', { model: 'test-model', messages: [{ role: 'user', content: 'q' }], stream: true })
    expect(streamed.headers.get('content-type')).toContain('text/event-stream')
    const text = await streamed.text()
    expect(text).toContain('"content":"b = 2"')
    expect(text.trim().endsWith('data: [DONE]')).toBe(true)
  })

  it('rejects unknown models with 404 and unknown paths with an HTML 404', async () => {
    server = await startScriptedServer({})
    const unknown = await post('/v1/chat/completions', { model: 'nope', messages: [] })
    expect(unknown.status).toBe(404)
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('model_not_found')
    const html = await fetch(`${server.origin}/models`)
    expect(html.status).toBe(404)
    expect(html.headers.get('content-type')).toContain('text/html')
  })

  it('applies a limited rule only as often as asked, then falls through', async () => {
    server = await startScriptedServer({
      rules: [{ times: 1, reply: { fault: { kind: 'status', status: 429, retryAfter: '2' } } }, { reply: { choices: [{ text: 'ok' }] } }]
    })
    const limited = await post('/v1/completions', { model: 'test-model', prompt: 'x' })
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('2')
    const fine = await post('/v1/completions', { model: 'test-model', prompt: 'x' })
    expect(fine.status).toBe(200)
  })

  it('closes promptly while a slow reply is pending', async () => {
    server = await startScriptedServer({ rules: [{ reply: { delayMs: 60_000, choices: [{ text: 'late' }] } }] })
    const pending = post('/v1/completions', { model: 'test-model', prompt: 'x' }).catch((e: unknown) => e)
    await new Promise((r) => setTimeout(r, 50))
    const started = Date.now()
    await server.close()
    server = null
    expect(Date.now() - started).toBeLessThan(2_000)
    expect(await pending).toBeInstanceOf(Error)
  })
})
