/** HTTP plumbing for model endpoints: a size-capped fetch, error classification, and a retry loop. */

import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai'
import type { AppError, ErrorCode, Result } from '../../../shared/result'
import { fail, ok } from '../../../shared/result'
import { redact } from './secrets'

/** Thrown by the capped fetch when a reply grows past its limit. */
export class ReplyTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`reply larger than ${limitBytes} bytes`)
  }
}

/** Thrown by reply parsers when a reply is JSON but not the shape the API promises. */
export class BadReplyError extends Error {}

/** Thrown when a streamed reply stops before it says it is finished; worth retrying. */
export class StreamCutError extends BadReplyError {}

type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>

/** A fetch whose response bodies error once they pass `limitBytes`, so a runaway reply cannot fill memory. */
export function cappedFetch(limitBytes: number, inner: FetchLike = fetch): FetchLike {
  return async (input, init) => {
    const response = await inner(input, init)
    const declared = Number(response.headers.get('content-length') ?? NaN)
    if (Number.isFinite(declared) && declared > limitBytes) {
      await response.body?.cancel().catch(() => undefined)
      throw new ReplyTooLargeError(limitBytes)
    }
    if (response.body === null) return response
    let seen = 0
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen += chunk.byteLength
          if (seen > limitBytes) controller.error(new ReplyTooLargeError(limitBytes))
          else controller.enqueue(chunk)
        }
      })
    )
    return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers })
  }
}

/** How failed requests are retried. Delays are injectable so tests need not wait. */
export type RetryPolicy = {
  maxRetries: number
  /** First backoff delay; doubles per retry, with jitter. */
  baseDelayMs: number
  maxDelayMs: number
  /** A server's `retry-after` is honoured up to this long. */
  retryAfterCapMs: number
  random: () => number
  sleep: (ms: number, signal: AbortSignal | undefined) => Promise<void>
}

export const defaultRetryPolicy: Omit<RetryPolicy, 'maxRetries'> = {
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  retryAfterCapMs: 30_000,
  random: Math.random,
  sleep: abortableSleep
}

export function abortableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((done) => {
    if (isAborted(signal)) return done()
    const timer = setTimeout(finish, ms)
    function finish(): void {
      clearTimeout(timer)
      signal?.removeEventListener('abort', finish)
      done()
    }
    signal?.addEventListener('abort', finish, { once: true })
  })
}

/** An error with what the retry loop needs to know. */
export type Classified = AppError & { retryable: boolean; retryAfterMs?: number }

export type CallContext = {
  baseUrl: string
  model: string
  /** Secrets that must never appear in a message. */
  secrets: readonly string[]
}

export function backoffDelay(policy: RetryPolicy, retry: number, retryAfterMs: number | undefined): number {
  if (retryAfterMs !== undefined) return Math.min(Math.max(0, retryAfterMs), policy.retryAfterCapMs)
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry)
  return Math.round(exponential * (0.5 + 0.5 * policy.random()))
}

/**
 * Runs `attempt` with a per-attempt timeout that covers reading the whole reply, cancellation through
 * `signal`, and bounded retries of what `classify` calls retryable.
 */
export async function withRetries<T>(
  attempt: (signal: AbortSignal) => Promise<T>,
  options: { policy: RetryPolicy; timeoutMs: number; signal?: AbortSignal; context: CallContext }
): Promise<Result<T>> {
  const { policy, timeoutMs, signal, context } = options
  const cancelled = (): Result<T> => fail('cancelled', 'The request to the model was cancelled.')
  let last: Classified | null = null
  for (let retry = 0; retry <= policy.maxRetries; retry += 1) {
    if (isAborted(signal)) return cancelled()
    if (last !== null) {
      await policy.sleep(backoffDelay(policy, retry - 1, last.retryAfterMs), signal)
      if (isAborted(signal)) return cancelled()
    }
    const controller = new AbortController()
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      controller.abort()
    }, timeoutMs)
    const onAbort = (): void => controller.abort()
    signal?.addEventListener('abort', onAbort, { once: true })
    try {
      const value = await attempt(controller.signal)
      // The SDK ends an aborted stream quietly, so an abort must be checked after a "success" too.
      if (!controller.signal.aborted) return ok(value)
      if (isAborted(signal)) return cancelled()
      return fail('model-timeout', timeoutMessage(timeoutMs))
    } catch (error) {
      if (isAborted(signal)) return cancelled()
      if (timedOut) return fail('model-timeout', timeoutMessage(timeoutMs))
      last = classify(error, context)
      if (!last.retryable) break
    } finally {
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      // Releases a reply body left unread after a parse error.
      controller.abort()
    }
  }
  if (last === null) return fail('internal', 'The request was not attempted.')
  const attempts = policy.maxRetries + 1
  const message = last.retryable && attempts > 1 ? `${last.message} Gave up after ${attempts} attempts.` : last.message
  return fail(last.code, redact(message, context.secrets), last.detail === undefined ? undefined : redact(last.detail, context.secrets))
}

// A function, so TypeScript does not keep a narrowed `aborted` across awaits.
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true
}

function timeoutMessage(timeoutMs: number): string {
  return `The model server did not finish replying within ${(timeoutMs / 1000).toFixed(1)} s.`
}

/** Turns anything a request threw into an AppError with a code the UI can act on. */
export function classify(error: unknown, context: CallContext): Classified {
  const make = (code: ErrorCode, message: string, retryable: boolean, detail?: string): Classified => {
    const out: Classified = { code, message: redact(message, context.secrets), retryable }
    if (detail !== undefined && detail !== '') out.detail = redact(detail.slice(0, 500), context.secrets)
    return out
  }
  const tooLarge = findCause(error, (e) => e instanceof ReplyTooLargeError)
  if (tooLarge instanceof ReplyTooLargeError) {
    return make('too-large', `The model server's reply was larger than ${formatBytes(tooLarge.limitBytes)}; it was cut off.`, false)
  }
  if (error instanceof APIUserAbortError) return make('cancelled', 'The request to the model was cancelled.', false)
  if (error instanceof APIConnectionTimeoutError) return make('model-timeout', 'The model server did not answer in time.', false)
  if (error instanceof APIConnectionError) {
    if (findCause(error, isDroppedConnection) !== null) return make('model-bad-reply', droppedMessage, true, causeText(error))
    const refused = findCause(error, (e) => /ECONNREFUSED|ENOTFOUND|EAI_AGAIN/.test(errorCode(e)))
    return make('model-unreachable', `Could not connect to ${context.baseUrl}.`, refused === null, causeText(error))
  }
  if (error instanceof APIError) {
    const status: unknown = error.status
    if (typeof status === 'number')
      return classifyStatus(error as APIError<number, Headers | undefined, object | undefined>, status, context, make)
  }
  if (error instanceof StreamCutError) return make('model-bad-reply', error.message, true)
  if (error instanceof BadReplyError) return make('model-bad-reply', error.message, false)
  if (error instanceof SyntaxError)
    return make('model-bad-reply', 'The model server sent a reply that is not valid JSON.', false, error.message)
  if (findCause(error, isDroppedConnection) !== null) return make('model-bad-reply', droppedMessage, true, causeText(error))
  return make('internal', `Unexpected failure talking to the model server: ${messageOf(error)}`, false)
}

const droppedMessage = 'The connection closed before the model server finished its reply.'

function isDroppedConnection(error: unknown): boolean {
  return /terminated|other side closed|ECONNRESET|UND_ERR_SOCKET|socket hang up/i.test(`${errorCode(error)} ${messageOf(error)}`)
}

function classifyStatus(
  error: APIError<number, Headers | undefined, object | undefined>,
  status: number,
  context: CallContext,
  make: (code: ErrorCode, message: string, retryable: boolean, detail?: string) => Classified
): Classified {
  const body: unknown = error.error
  const serverMessage = serverMessageOf(body) ?? ''
  const jsonBody = typeof body === 'object' && body !== null
  if (status === 429) {
    return {
      ...make('model-rate-limited', 'The model server is rate-limiting requests (HTTP 429).', true, serverMessage),
      ...retryAfter(error.headers)
    }
  }
  if (status >= 500)
    return { ...make('model-http', `The model server failed (HTTP ${status}).`, true, serverMessage), ...retryAfter(error.headers) }
  if (status === 408 || status === 409) return make('model-http', `The model server asked to retry (HTTP ${status}).`, true, serverMessage)
  if (status === 401 || status === 403) {
    return make(
      'unauthorized',
      `The model server refused the request (HTTP ${status}); check the API key in the endpoint settings.`,
      false,
      serverMessage
    )
  }
  if (status === 404) {
    if (jsonBody && (error.code === 'model_not_found' || /model/i.test(serverMessage))) {
      return make('model-not-found', `The server at ${context.baseUrl} does not serve the model '${context.model}'.`, false, serverMessage)
    }
    return make('model-http', notOpenAiMessage(context.baseUrl, 'HTTP 404'), false, serverMessage)
  }
  return make(
    'model-http',
    `The model server rejected the request (HTTP ${status}).${serverMessage === '' ? '' : ` It said: ${serverMessage.slice(0, 300)}`}`,
    false
  )
}

export function notOpenAiMessage(baseUrl: string, what: string): string {
  return `${baseUrl} does not look like an OpenAI-compatible API (${what}). The base URL usually ends in /v1, e.g. http://127.0.0.1:8000/v1.`
}

function serverMessageOf(body: unknown): string | null {
  if (typeof body === 'string') return body
  if (typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string') return body.message
  return null
}

function retryAfter(headers: Headers | undefined): { retryAfterMs?: number } {
  const ms = Number(headers?.get('retry-after-ms') ?? NaN)
  if (Number.isFinite(ms) && ms >= 0) return { retryAfterMs: ms }
  const raw = headers?.get('retry-after')
  if (raw === undefined || raw === null) return {}
  const seconds = Number(raw)
  if (Number.isFinite(seconds) && seconds >= 0) return { retryAfterMs: seconds * 1000 }
  const date = Date.parse(raw)
  return Number.isNaN(date) ? {} : { retryAfterMs: Math.max(0, date - Date.now()) }
}

function findCause(error: unknown, test: (e: unknown) => boolean): unknown {
  let current: unknown = error
  for (let depth = 0; depth < 6 && current !== undefined && current !== null; depth += 1) {
    if (test(current)) return current
    current = typeof current === 'object' && 'cause' in current ? current.cause : undefined
  }
  return null
}

function errorCode(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : ''
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

function causeText(error: unknown): string {
  const parts: string[] = []
  findCause(error, (e) => {
    parts.push([errorCode(e), messageOf(e)].filter((s) => s !== '').join(': '))
    return false
  })
  return parts.join(' <- ')
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.round(bytes / 1024)} KB`
}
