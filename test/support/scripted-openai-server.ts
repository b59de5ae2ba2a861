/**
 * A real OpenAI-compatible HTTP server on 127.0.0.1 for tests. It serves `/v1/models`,
 * `/v1/completions`, `/v1/chat/completions` and `/v1/responses`; what it answers is decided by a script
 * of rules matched against the prompt, so tests get fixed programs with fixed log-probabilities, and
 * faults (rate limits, server errors, slow, malformed, cut-off, wrong content type, huge) on demand.
 * Every request is recorded.
 */

import { createServer } from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { buildJsonBody, writeStream } from './scripted-openai-replies'
import type { Choice, Endpoint } from './scripted-openai-replies'

export type { Choice, Endpoint } from './scripted-openai-replies'

/** A request as the server saw it. */
export type RecordedRequest = {
  method: string
  path: string
  /** Header names lower-cased. */
  headers: Record<string, string>
  /** Parsed JSON body, or null when the body was empty or not JSON. */
  body: Record<string, unknown> | null
  /** The prompt text: completions `prompt`, chat messages' contents, or responses `input`, joined by newlines. */
  prompt: string
}

/** Something that goes wrong on purpose. */
export type Fault =
  /** An HTTP error with an OpenAI-style JSON error body (or `body` as given). */
  | { kind: 'status'; status: number; retryAfter?: string; message?: string; body?: string; contentType?: string }
  /** 200 with a JSON content type and a body that is not valid JSON. */
  | { kind: 'malformed-json' }
  /** Part of the reply, then the connection is destroyed (`destroy`) or closed cleanly without an end (`end`). */
  | { kind: 'cut'; afterChunks: number; mode: 'destroy' | 'end' }
  /** 200 with another content type, e.g. an HTML page. */
  | { kind: 'content-type'; contentType: string; body: string }
  /** 200 with a valid JSON reply padded to about `bytes` bytes. */
  | { kind: 'huge'; bytes: number; chunked?: boolean }

/** What to answer to one request. */
export type Reply = {
  /** Choices served in turn; a request for n choices takes the next n (cycling), across requests of the rule. */
  choices?: Choice[]
  /** Wait this long before answering, ms. */
  delayMs?: number
  /** When streaming, wait this long between events, ms. */
  chunkDelayMs?: number
  fault?: Fault
}

export type Rule = {
  /** Matched against the prompt (RegExp) or the whole request (function). Absent: matches everything. */
  match?: RegExp | ((request: RecordedRequest) => boolean)
  /** Paths this rule applies to (exact string or RegExp). Absent: the three generation endpoints. */
  path?: string | RegExp
  /** Use the rule this many times, then skip it. Absent: unlimited. */
  times?: number
  reply: Reply | ((request: RecordedRequest, index: number) => Reply)
}

export type Script = {
  rules?: Rule[]
  /** Models listed by `/v1/models`; a request naming another model gets 404. Default: ['test-model']. */
  models?: string[]
  /** When false, `n` is ignored and one choice comes back, as some servers do. Default true. */
  honourN?: boolean
  /** When set, requests without `Authorization: Bearer <key>` get 401. */
  requireKey?: string
  /** Reply when no rule matches. Default: one choice "answer = 0" without log-probabilities. */
  fallback?: Reply
}

export type ScriptedServer = {
  /** Base URL including `/v1`, ready for an OpenAI client. */
  url: string
  /** `http://127.0.0.1:<port>` without a path. */
  origin: string
  requests: RecordedRequest[]
  close(): Promise<void>
}

const GENERATION_PATHS: Record<string, Endpoint> = {
  '/v1/completions': 'completions',
  '/v1/chat/completions': 'chat',
  '/v1/responses': 'responses'
}

export async function startScriptedServer(script: Script = {}): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = []
  const rules = (script.rules ?? []).map((rule) => ({ rule, used: 0, served: 0 }))
  const fallbackState = { served: 0 }
  const models = script.models ?? ['test-model']
  const timers = new Set<NodeJS.Timeout>()

  const server = createServer((req, res) => {
    void handle(req, res).catch(() => res.destroy())
  })

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req)
    const path = (req.url ?? '/').split('?')[0] ?? '/'
    const body = parseObject(raw)
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET',
      path,
      headers: lowerHeaders(req),
      body,
      prompt: promptOf(body)
    }
    requests.push(recorded)

    if (script.requireKey !== undefined && recorded.headers['authorization'] !== `Bearer ${script.requireKey}`) {
      return sendError(res, 401, 'Incorrect API key provided.', 'invalid_api_key')
    }

    const endpoint = GENERATION_PATHS[path]
    const entry = rules.find((e) => {
      const { rule } = e
      if (rule.times !== undefined && e.used >= rule.times) return false
      if (!pathMatches(rule.path, path, endpoint !== undefined)) return false
      if (rule.match === undefined) return true
      return rule.match instanceof RegExp ? rule.match.test(recorded.prompt) : rule.match(recorded)
    })
    if (entry !== undefined) entry.used += 1
    const state = entry ?? fallbackState
    const reply =
      entry === undefined ? (script.fallback ?? { choices: [{ text: 'answer = 0' }] }) : resolve(entry.rule.reply, recorded, entry.used - 1)

    if (reply.delayMs !== undefined) await delay(reply.delayMs, res)
    if (res.destroyed) return

    if (reply.fault !== undefined) {
      const handled = sendFault(res, reply.fault, endpoint, body)
      if (handled) return
    }

    if (path === '/v1/models' && req.method === 'GET') {
      return sendJson(res, 200, { object: 'list', data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'test' })) })
    }
    if (endpoint === undefined || req.method !== 'POST') {
      res.writeHead(404, { 'content-type': 'text/html' })
      res.end(`<!DOCTYPE html><html><body><pre>Cannot ${req.method ?? 'GET'} ${path}</pre></body></html>`)
      return
    }
    if (body === null) return sendError(res, 400, 'The body is not valid JSON.', 'invalid_json')
    const model = typeof body['model'] === 'string' ? body['model'] : ''
    if (!models.includes(model)) {
      return sendError(res, 404, `The model '${model}' does not exist or you do not have access to it.`, 'model_not_found')
    }

    const wanted = endpoint === 'responses' || script.honourN === false ? 1 : Math.max(1, numberOr(body['n'], 1))
    const pool = reply.choices ?? []
    if (pool.length === 0) return sendError(res, 500, 'The script has no choices for this request.', 'script_error')
    const picked: Choice[] = []
    for (let i = 0; i < wanted; i += 1) picked.push(pool[(state.served + i) % pool.length] as Choice)
    state.served += wanted

    const cut = reply.fault?.kind === 'cut' ? reply.fault : undefined
    if (body['stream'] === true) {
      await writeStream(res, endpoint, model, picked, wantsLogprobs(endpoint, body), cut, reply.chunkDelayMs ?? 0)
      return
    }
    const json = JSON.stringify(buildJsonBody(endpoint, model, picked, wantsLogprobs(endpoint, body)))
    if (cut !== undefined) {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.write(json.slice(0, Math.floor(json.length / 2)))
      if (cut.mode === 'destroy') res.destroy()
      else res.end()
      return
    }
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(json)
  }

  function delay(ms: number, res: ServerResponse): Promise<void> {
    return new Promise((done) => {
      const timer = setTimeout(() => {
        timers.delete(timer)
        done()
      }, ms)
      timers.add(timer)
      res.on('close', () => {
        clearTimeout(timer)
        timers.delete(timer)
        done()
      })
    })
  }

  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const port = (server.address() as AddressInfo).port
  const origin = `http://127.0.0.1:${port}`
  return {
    url: `${origin}/v1`,
    origin,
    requests,
    close: () =>
      new Promise<void>((done) => {
        for (const timer of timers) clearTimeout(timer)
        timers.clear()
        server.close(() => done())
        server.closeAllConnections()
      })
  }
}

function resolve(reply: Rule['reply'], request: RecordedRequest, index: number): Reply {
  return typeof reply === 'function' ? reply(request, index) : reply
}

function pathMatches(pattern: Rule['path'], path: string, isGeneration: boolean): boolean {
  if (pattern === undefined) return isGeneration
  return typeof pattern === 'string' ? pattern === path : pattern.test(path)
}

/** Sends a fault reply; returns false for faults that shape a normal reply instead (`cut`). */
function sendFault(res: ServerResponse, fault: Fault, endpoint: Endpoint | undefined, body: Record<string, unknown> | null): boolean {
  switch (fault.kind) {
    case 'status': {
      const headers: Record<string, string> = { 'content-type': fault.contentType ?? 'application/json' }
      if (fault.retryAfter !== undefined) headers['retry-after'] = fault.retryAfter
      res.writeHead(fault.status, headers)
      res.end(
        fault.body ??
          JSON.stringify({ error: { message: fault.message ?? `Scripted error ${fault.status}.`, type: 'server_error', code: null } })
      )
      return true
    }
    case 'malformed-json':
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end('{"id": "cmpl-1", "choices": [ {"text": "answer = ')
      return true
    case 'content-type':
      res.writeHead(200, { 'content-type': fault.contentType })
      res.end(fault.body)
      return true
    case 'huge': {
      const filler = 'x'.repeat(Math.max(0, fault.bytes))
      const json = JSON.stringify(
        buildJsonBody(endpoint ?? 'chat', typeof body?.['model'] === 'string' ? body['model'] : '', [{ text: filler }], false)
      )
      if (fault.chunked !== true) {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(json)
        return true
      }
      // No content-length: the client only learns the size by reading.
      res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' })
      const piece = 64 * 1024
      const writeFrom = (at: number): void => {
        while (at < json.length && !res.destroyed) {
          const more = res.write(json.slice(at, at + piece))
          at += piece
          if (!more) {
            res.once('drain', () => writeFrom(at))
            return
          }
        }
        if (!res.destroyed) res.end()
      }
      writeFrom(0)
      return true
    }
    case 'cut':
      return false
  }
}

function wantsLogprobs(endpoint: Endpoint, body: Record<string, unknown>): boolean {
  switch (endpoint) {
    case 'completions':
      return typeof body['logprobs'] === 'number' || body['logprobs'] === true
    case 'chat':
      return body['logprobs'] === true
    case 'responses':
      return Array.isArray(body['include']) && body['include'].includes('message.output_text.logprobs')
  }
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(value))
}

function sendError(res: ServerResponse, status: number, message: string, code: string): void {
  sendJson(res, status, { error: { message, type: 'invalid_request_error', param: null, code } })
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((done, reject) => {
    const parts: Buffer[] = []
    req.on('data', (chunk: Buffer) => parts.push(chunk))
    req.on('end', () => done(Buffer.concat(parts).toString('utf8')))
    req.on('error', reject)
  })
}

function parseObject(raw: string): Record<string, unknown> | null {
  if (raw.trim() === '') return null
  try {
    const value: unknown = JSON.parse(raw)
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null
  } catch {
    return null
  }
}

function lowerHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value
  }
  return out
}

function promptOf(body: Record<string, unknown> | null): string {
  if (body === null) return ''
  const parts: string[] = []
  const collect = (value: unknown): void => {
    if (typeof value === 'string') parts.push(value)
    else if (Array.isArray(value)) value.forEach(collect)
    else if (typeof value === 'object' && value !== null && 'content' in value) collect(value.content)
    else if (typeof value === 'object' && value !== null && 'text' in value) collect(value.text)
  }
  collect(body['prompt'])
  collect(body['messages'])
  collect(body['instructions'])
  collect(body['input'])
  return parts.join('\n')
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback
}
