/** One HTTP request to a generation endpoint, whole or streamed, read into Samples. */

import type { OpenAI } from 'openai'
import { Stream } from 'openai/streaming'
import type { ApiKind, ChatMessage, Sample } from '../../../shared/model'
import { assertNever } from '../../../shared/result'
import { BadReplyError } from './http'
import { StreamAccumulator, samplesFromBody } from './replies'

/** What the caller wants generated, independent of the API kind. */
export type Generation = {
  prompt: string | null
  messages: ChatMessage[] | null
  temperature: number
  maxTokens: number
  stop: string[]
  logprobs: boolean
  stream: boolean
}

/** Parameters a server refused and that are left out from then on. */
export type Omitted = { temperature: boolean; logprobs: boolean }

const PATHS: Record<ApiKind, string> = { completions: '/completions', chat: '/chat/completions', responses: '/responses' }

export function messagesOf(g: Generation): ChatMessage[] {
  return g.messages ?? [{ role: 'user', content: g.prompt ?? '' }]
}

/** A prompt for the completions API: chat messages are laid out as plain text, the last turn left open. */
export function promptOf(g: Generation): string {
  if (g.prompt !== null) return g.prompt
  return messagesOf(g)
    .map((m) => m.content)
    .join('\n\n')
}

export function buildBody(api: ApiKind, model: string, g: Generation, n: number, omitted: Omitted): Record<string, unknown> {
  const body: Record<string, unknown> = { model }
  if (!omitted.temperature) body['temperature'] = g.temperature
  switch (api) {
    case 'completions':
      body['prompt'] = promptOf(g)
      body['max_tokens'] = g.maxTokens
      if (n > 1) body['n'] = n
      if (g.stop.length > 0) body['stop'] = g.stop
      // An integer here: the number of top alternatives; 1 is the smallest value every server accepts.
      if (g.logprobs && !omitted.logprobs) body['logprobs'] = 1
      break
    case 'chat':
      body['messages'] = messagesOf(g)
      body['max_tokens'] = g.maxTokens
      if (n > 1) body['n'] = n
      if (g.stop.length > 0) body['stop'] = g.stop
      if (g.logprobs && !omitted.logprobs) body['logprobs'] = true
      break
    case 'responses': {
      const messages = messagesOf(g)
      const system = messages.filter((m) => m.role === 'system').map((m) => m.content)
      if (system.length > 0) body['instructions'] = system.join('\n\n')
      body['input'] = messages.filter((m) => m.role !== 'system').map((m) => ({ role: m.role, content: m.content }))
      body['max_output_tokens'] = g.maxTokens
      if (g.logprobs && !omitted.logprobs) body['include'] = ['message.output_text.logprobs']
      break
    }
    default:
      return assertNever(api)
  }
  if (g.stream) body['stream'] = true
  return body
}

/**
 * Sends one request and reads its reply. The reply is read by content type, not by what was asked:
 * some servers ignore `stream` and send JSON, and a wrong base URL sends HTML.
 */
export async function requestOnce(
  client: OpenAI,
  api: ApiKind,
  body: Record<string, unknown>,
  expected: number,
  signal: AbortSignal,
  onText: (choice: number, chars: number) => void
): Promise<Sample[]> {
  const response = await client.post(PATHS[api], { body, signal, stream: body['stream'] === true }).asResponse()
  const contentType = (response.headers.get('content-type') ?? '').toLowerCase()
  if (contentType.includes('text/event-stream')) {
    const accumulator = new StreamAccumulator(api, expected)
    const stream = Stream.fromSSEResponse<unknown>(response, new AbortController(), client)
    for await (const chunk of stream) {
      const touched = accumulator.add(chunk)
      if (touched !== null) onText(touched.index, touched.chars)
    }
    if (signal.aborted) return []
    return accumulator.finish()
  }
  if (contentType.includes('json')) {
    const json: unknown = await response.json()
    return samplesFromBody(api, json)
  }
  const text = await response.text()
  const what = contentType === '' ? 'no content type' : contentType.split(';')[0]
  const html = /^\s*</.test(text) ? ' (an HTML page: check the base URL)' : ''
  throw new BadReplyError(`The model server answered with ${what} instead of JSON${html}.`)
}
