/**
 * Reads the three APIs' replies into Samples. Replies come from servers we do not control, so every
 * field is checked rather than trusted to match the SDK's types.
 */

import type { ApiKind, Sample } from '../../../shared/model'
import { assertNever } from '../../../shared/result'
import { BadReplyError, StreamCutError } from './http'

type Json = Record<string, unknown>

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function numbers(values: unknown): number[] {
  return Array.isArray(values) ? values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v)) : []
}

function stringOr(value: unknown, fallback: string | null): string | null {
  return typeof value === 'string' ? value : fallback
}

export function toSample(text: string, logprobs: number[] | null, finishReason: string | null, tokens: number | null = null): Sample {
  if (logprobs === null || logprobs.length === 0) return { text, logprobSum: null, logprobMean: null, tokens, finishReason }
  const sum = logprobs.reduce((a, b) => a + b, 0)
  return { text, logprobSum: sum, logprobMean: sum / logprobs.length, tokens: logprobs.length, finishReason }
}

/** Log-probabilities of a chat-style list (`[{ token, logprob }]`), or null when absent. */
function chatLogprobs(content: unknown): number[] | null {
  if (!Array.isArray(content)) return null
  return numbers(content.map((entry) => (isObject(entry) ? entry['logprob'] : undefined)))
}

function requireObject(body: unknown): Json {
  if (typeof body === 'string') {
    const looksHtml = /^\s*</.test(body)
    throw new BadReplyError(
      looksHtml
        ? 'The model server answered with an HTML page instead of JSON; check the base URL.'
        : 'The model server answered with text instead of JSON.'
    )
  }
  if (!isObject(body)) throw new BadReplyError('The model server sent an empty or unexpected reply.')
  if (isObject(body['error']))
    throw new BadReplyError(`The model server reported an error: ${stringOr(body['error']['message'], 'no message')}`)
  return body
}

function choicesOf(body: Json): Json[] {
  const choices = body['choices']
  if (!Array.isArray(choices) || !choices.every(isObject)) throw new BadReplyError('The model server reply has no "choices" list.')
  return choices
}

/** Samples from a whole (non-streamed) reply. */
export function samplesFromBody(api: ApiKind, raw: unknown): Sample[] {
  const body = requireObject(raw)
  switch (api) {
    case 'completions':
      return choicesOf(body).map((choice) => {
        const logprobs = isObject(choice['logprobs']) ? numbers(choice['logprobs']['token_logprobs']) : null
        return toSample(stringOr(choice['text'], '') ?? '', logprobs, stringOr(choice['finish_reason'], null))
      })
    case 'chat':
      return choicesOf(body).map((choice) => {
        const message = isObject(choice['message']) ? choice['message'] : {}
        const logprobs = isObject(choice['logprobs']) ? chatLogprobs(choice['logprobs']['content']) : null
        return toSample(stringOr(message['content'], '') ?? '', logprobs, stringOr(choice['finish_reason'], null))
      })
    case 'responses':
      return [sampleFromResponse(body)]
    default:
      return assertNever(api)
  }
}

function sampleFromResponse(body: Json): Sample {
  const output = body['output']
  if (!Array.isArray(output)) throw new BadReplyError('The model server reply has no "output" list.')
  let text = ''
  let logprobs: number[] | null = null
  for (const item of output) {
    if (!isObject(item) || item['type'] !== 'message' || !Array.isArray(item['content'])) continue
    for (const part of item['content']) {
      if (!isObject(part) || part['type'] !== 'output_text') continue
      text += stringOr(part['text'], '') ?? ''
      const lp = chatLogprobs(part['logprobs'])
      if (lp !== null && lp.length > 0) logprobs = [...(logprobs ?? []), ...lp]
    }
  }
  const status = stringOr(body['status'], null)
  const incomplete = isObject(body['incomplete_details']) ? stringOr(body['incomplete_details']['reason'], null) : null
  const finish = status === 'completed' ? 'stop' : incomplete === 'max_output_tokens' ? 'length' : (incomplete ?? status)
  const usage = isObject(body['usage']) ? body['usage']['output_tokens'] : undefined
  return toSample(text, logprobs, finish, typeof usage === 'number' ? usage : null)
}

type Partial = { text: string; logprobs: number[]; sawLogprobs: boolean; finishReason: string | null }

/** Gathers streamed chunks into samples; `finish()` throws when the stream stopped before every reply ended. */
export class StreamAccumulator {
  private readonly parts = new Map<number, Partial>()
  private final: Sample | null = null

  constructor(
    private readonly api: ApiKind,
    private readonly expected: number
  ) {}

  /** Takes one chunk; returns the index and text length of the sample it extended, if any. */
  add(chunk: unknown): { index: number; chars: number } | null {
    if (!isObject(chunk)) return null
    if (isObject(chunk['error']))
      throw new BadReplyError(`The model server reported an error mid-stream: ${stringOr(chunk['error']['message'], 'no message')}`)
    switch (this.api) {
      case 'completions':
      case 'chat': {
        let touched: { index: number; chars: number } | null = null
        for (const choice of Array.isArray(chunk['choices']) ? chunk['choices'] : []) {
          if (!isObject(choice)) continue
          const index = typeof choice['index'] === 'number' ? choice['index'] : 0
          const part = this.part(index)
          const delta = this.api === 'chat' ? (isObject(choice['delta']) ? choice['delta']['content'] : undefined) : choice['text']
          if (typeof delta === 'string') part.text += delta
          const lp = isObject(choice['logprobs'])
            ? this.api === 'chat'
              ? chatLogprobs(choice['logprobs']['content'])
              : numbers(choice['logprobs']['token_logprobs'])
            : null
          if (lp !== null && lp.length > 0) {
            part.sawLogprobs = true
            part.logprobs.push(...lp)
          }
          if (typeof choice['finish_reason'] === 'string') part.finishReason = choice['finish_reason']
          touched = { index, chars: part.text.length }
        }
        return touched
      }
      case 'responses': {
        const type = chunk['type']
        if (type === 'response.output_text.delta') {
          const part = this.part(0)
          if (typeof chunk['delta'] === 'string') part.text += chunk['delta']
          return { index: 0, chars: part.text.length }
        }
        if ((type === 'response.completed' || type === 'response.incomplete') && isObject(chunk['response'])) {
          this.final = sampleFromResponse(chunk['response'])
        }
        if (type === 'response.failed' || type === 'error') throw new BadReplyError('The model server reported that the response failed.')
        return null
      }
      default:
        return assertNever(this.api)
    }
  }

  finish(): Sample[] {
    if (this.api === 'responses') {
      if (this.final === null) throw new StreamCutError('The stream ended before the model server finished its reply.')
      return [this.final]
    }
    const out: Sample[] = []
    for (let index = 0; index < this.expected; index += 1) {
      const part = this.parts.get(index)
      if (part === undefined) {
        if (index > 0 && out.length > 0) break // the server gave fewer choices than asked; the caller tops up
        throw new StreamCutError('The stream ended before the model server sent any reply.')
      }
      if (part.finishReason === null) throw new StreamCutError('The stream ended before the model server finished its reply.')
      out.push(toSample(part.text, part.sawLogprobs ? part.logprobs : null, part.finishReason))
    }
    return out
  }

  private part(index: number): Partial {
    let part = this.parts.get(index)
    if (part === undefined) {
      part = { text: '', logprobs: [], sawLogprobs: false, finishReason: null }
      this.parts.set(index, part)
    }
    return part
  }
}
