/** Reply bodies of the scripted server, in the shapes the three OpenAI APIs use, whole or streamed as SSE. */

import type { ServerResponse } from 'node:http'

export type Endpoint = 'completions' | 'chat' | 'responses'

/** One scripted choice. */
export type Choice = {
  text: string
  /** Per-token log-probabilities; the text is split into this many tokens. Absent: the server gives none. */
  logprobs?: number[]
  /** Default `stop`; `length` marks a reply cut by the token limit. */
  finishReason?: 'stop' | 'length'
}

type Token = { token: string; logprob: number | null }

/** Splits a choice's text into tokens (one per scripted log-prob, else per whitespace-led word). */
export function tokensOf(choice: Choice): Token[] {
  const { text, logprobs } = choice
  if (logprobs === undefined || logprobs.length === 0) {
    const words = text.match(/\s*\S+|\s+$/g) ?? []
    return words.map((token) => ({ token, logprob: null }))
  }
  const size = Math.ceil(text.length / logprobs.length)
  return logprobs.map((logprob, i) => ({ token: text.slice(i * size, i === logprobs.length - 1 ? undefined : (i + 1) * size), logprob }))
}

const created = 1_700_000_000

function completionLogprobs(tokens: Token[]): unknown {
  let offset = 0
  const textOffset = tokens.map((t) => {
    const at = offset
    offset += t.token.length
    return at
  })
  return { tokens: tokens.map((t) => t.token), token_logprobs: tokens.map((t) => t.logprob), top_logprobs: null, text_offset: textOffset }
}

function chatLogprobs(tokens: Token[]): unknown[] {
  return tokens.map((t) => ({ token: t.token, logprob: t.logprob, bytes: [...Buffer.from(t.token)], top_logprobs: [] }))
}

function hasLogprobs(choice: Choice, wanted: boolean): boolean {
  return wanted && choice.logprobs !== undefined && choice.logprobs.length > 0
}

function responseObject(model: string, choice: Choice, withLogprobs: boolean, status: 'completed' | 'in_progress'): unknown {
  const tokens = tokensOf(choice)
  const incomplete = choice.finishReason === 'length'
  return {
    id: 'resp_1',
    object: 'response',
    created_at: created,
    status: status === 'completed' && incomplete ? 'incomplete' : status,
    incomplete_details: status === 'completed' && incomplete ? { reason: 'max_output_tokens' } : null,
    model,
    output:
      status === 'completed'
        ? [
            {
              type: 'message',
              id: 'msg_1',
              status: 'completed',
              role: 'assistant',
              content: [{ type: 'output_text', text: choice.text, annotations: [], logprobs: withLogprobs ? chatLogprobs(tokens) : [] }]
            }
          ]
        : [],
    usage: { input_tokens: 10, output_tokens: tokens.length, total_tokens: 10 + tokens.length }
  }
}

export function buildJsonBody(endpoint: Endpoint, model: string, choices: Choice[], wantLogprobs: boolean): unknown {
  const outputTokens = choices.reduce((sum, c) => sum + tokensOf(c).length, 0)
  const usage = { prompt_tokens: 10, completion_tokens: outputTokens, total_tokens: 10 + outputTokens }
  switch (endpoint) {
    case 'completions':
      return {
        id: 'cmpl-1',
        object: 'text_completion',
        created,
        model,
        choices: choices.map((c, index) => ({
          index,
          text: c.text,
          logprobs: hasLogprobs(c, wantLogprobs) ? completionLogprobs(tokensOf(c)) : null,
          finish_reason: c.finishReason ?? 'stop'
        })),
        usage
      }
    case 'chat':
      return {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created,
        model,
        choices: choices.map((c, index) => ({
          index,
          message: { role: 'assistant', content: c.text, refusal: null },
          logprobs: hasLogprobs(c, wantLogprobs) ? { content: chatLogprobs(tokensOf(c)), refusal: null } : null,
          finish_reason: c.finishReason ?? 'stop'
        })),
        usage
      }
    case 'responses': {
      const first = choices[0] ?? { text: '' }
      return responseObject(model, first, hasLogprobs(first, wantLogprobs), 'completed')
    }
  }
}

/** SSE events for a streamed reply, each a complete `data:` (and for responses `event:`) block. */
function streamEvents(endpoint: Endpoint, model: string, choices: Choice[], wantLogprobs: boolean): string[] {
  const data = (value: unknown): string => `data: ${JSON.stringify(value)}\n\n`
  const events: string[] = []
  switch (endpoint) {
    case 'completions':
      choices.forEach((c, index) => {
        const withLp = hasLogprobs(c, wantLogprobs)
        for (const t of tokensOf(c)) {
          events.push(
            data({
              id: 'cmpl-1',
              object: 'text_completion',
              created,
              model,
              choices: [{ index, text: t.token, logprobs: withLp ? completionLogprobs([t]) : null, finish_reason: null }]
            })
          )
        }
        events.push(
          data({
            id: 'cmpl-1',
            object: 'text_completion',
            created,
            model,
            choices: [{ index, text: '', logprobs: null, finish_reason: c.finishReason ?? 'stop' }]
          })
        )
      })
      events.push('data: [DONE]\n\n')
      return events
    case 'chat':
      choices.forEach((c, index) => {
        const withLp = hasLogprobs(c, wantLogprobs)
        const chunk = (delta: unknown, logprobs: unknown, finish: string | null): string =>
          data({
            id: 'chatcmpl-1',
            object: 'chat.completion.chunk',
            created,
            model,
            choices: [{ index, delta, logprobs, finish_reason: finish }]
          })
        events.push(chunk({ role: 'assistant', content: '' }, null, null))
        for (const t of tokensOf(c))
          events.push(chunk({ content: t.token }, withLp ? { content: chatLogprobs([t]), refusal: null } : null, null))
        events.push(chunk({}, null, c.finishReason ?? 'stop'))
      })
      events.push('data: [DONE]\n\n')
      return events
    case 'responses': {
      const first = choices[0] ?? { text: '' }
      const withLp = hasLogprobs(first, wantLogprobs)
      const event = (name: string, value: Record<string, unknown>): string => `event: ${name}\n${data({ type: name, ...value })}`
      events.push(event('response.created', { response: responseObject(model, first, withLp, 'in_progress') }))
      for (const t of tokensOf(first)) {
        events.push(
          event('response.output_text.delta', {
            item_id: 'msg_1',
            output_index: 0,
            content_index: 0,
            delta: t.token,
            logprobs: withLp ? chatLogprobs([t]) : []
          })
        )
      }
      events.push(event('response.completed', { response: responseObject(model, first, withLp, 'completed') }))
      return events
    }
  }
}

export async function writeStream(
  res: ServerResponse,
  endpoint: Endpoint,
  model: string,
  choices: Choice[],
  wantLogprobs: boolean,
  cut: { afterChunks: number; mode: 'destroy' | 'end' } | undefined,
  chunkDelayMs = 0
): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' })
  const events = streamEvents(endpoint, model, choices, wantLogprobs)
  for (const [i, event] of events.entries()) {
    if (cut !== undefined && i >= cut.afterChunks) {
      if (cut.mode === 'destroy') res.destroy()
      else res.end()
      return
    }
    if (res.destroyed) return
    if (!res.write(event)) await new Promise((done) => res.once('drain', done))
    // Let the chunks reach the client before a scripted cut, so the cut lands mid-body.
    const pause = cut !== undefined ? Math.max(2, chunkDelayMs) : chunkDelayMs
    if (pause > 0) await new Promise((done) => setTimeout(done, pause))
  }
  res.end()
}
