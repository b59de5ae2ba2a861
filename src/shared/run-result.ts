/**
 * A run's result as it leaves an interpreter: read, checked and capped at every boundary it crosses (the
 * executor page, and main again), so an interpreter a program took over can neither send a value that
 * fills main's memory nor claim an outcome only the pool may decide (a timeout, a crash). The runtime
 * library applies the same caps first (`python/tableqa/runner.py`).
 */

import { isFields, isOneOf, isText } from './check'
import { OUTPUT_CAP_CHARS, type PythonFailure, type PythonOutput, type PythonRunResult, type PythonValue } from './python'
import type { ErrorCode } from './result'

/** Largest answer value, as JSON text (1 MB). */
export const ANSWER_LIMIT_BYTES = 1_048_576
/** Caps on the text around the value; longer text is cut, not refused. */
export const REPR_LIMIT_CHARS = 10_000
export const MESSAGE_LIMIT_CHARS = 10_000
export const TRACEBACK_LIMIT_CHARS = 20_000
const TYPE_LIMIT_CHARS = 200
/** Conditions that matched no row, and readings, kept from one result; characters of each. */
const UNMATCHED_LIMIT = 3
const READINGS_LIMIT = 3
const UNMATCHED_LIMIT_CHARS = 400
/**
 * Largest result read at all: the answer, both output streams at their cap (UTF-8 can be up to 3 bytes a
 * character after JSON escaping) and the rest. Anything longer is refused unread.
 */
export const RESULT_LIMIT_CHARS = ANSWER_LIMIT_BYTES + 8 * OUTPUT_CAP_CHARS + 200_000

/** The codes an interpreter may report; the others (timeout, crash, unavailable) only the pool decides. */
const INTERPRETER_CODES = ['python-error', 'interrupted', 'too-large', 'bad-input', 'internal'] as const
const POOL_CODES = [...INTERPRETER_CODES, 'timeout', 'executor-crashed', 'executor-unavailable'] as const

/** Who sent a result: an interpreter (any code it may not use becomes `python-error`), or a pool. */
export type ResultSource = 'interpreter' | 'pool'

/** A failed run with no output. */
export function runFailure(
  code: ErrorCode,
  message: string,
  output: { stdout: string; stderr: string } = { stdout: '', stderr: '' }
): PythonRunResult {
  return { ok: false, error: { code, message, stdout: output.stdout, stderr: output.stderr } }
}

/** The failure for an answer over `ANSWER_LIMIT_BYTES`. */
export function answerTooLarge(chars: number, output?: { stdout: string; stderr: string }): PythonRunResult {
  const mb = (chars / 1e6).toLocaleString('en-US', { maximumFractionDigits: 1 })
  const limit = ANSWER_LIMIT_BYTES / 2 ** 20
  return runFailure(
    'too-large',
    `The answer is ${mb} MB as data; answers are limited to ${limit} MB. Return something smaller: a count, a total or the first rows.`,
    output
  )
}

/** Read a result an interpreter sent as JSON text. */
export function readRunResult(json: string): PythonRunResult {
  if (json.length > RESULT_LIMIT_CHARS) return answerTooLarge(json.length)
  let value: unknown
  try {
    value = JSON.parse(json)
  } catch {
    return unreadable()
  }
  return checkRunResult(value, 'interpreter')
}

/** Check a result's shape and apply the caps; anything that is not a result becomes an `internal` failure. */
export function checkRunResult(value: unknown, source: ResultSource): PythonRunResult {
  if (!isFields(value)) return unreadable()
  if (value.ok === true) return checkOutput(value.value)
  if (value.ok === false) return checkFailure(value.error, source === 'pool' ? POOL_CODES : INTERPRETER_CODES)
  return unreadable()
}

function checkOutput(value: unknown): PythonRunResult {
  if (!isFields(value) || typeof value.stdout !== 'string' || typeof value.stderr !== 'string') return unreadable()
  const stdout = cut(value.stdout, OUTPUT_CAP_CHARS)
  const stderr = cut(value.stderr, OUTPUT_CAP_CHARS)
  const streams = { stdout: stdout.text, stderr: stderr.text }
  let described: PythonValue | null = null
  if (value.value !== null && value.value !== undefined) {
    const v = value.value
    if (!isFields(v) || typeof v.repr !== 'string' || typeof v.type !== 'string') return unreadable()
    described = { repr: cut(v.repr, REPR_LIMIT_CHARS).text, type: cut(v.type, TYPE_LIMIT_CHARS).text }
    if ('json' in v && v.json !== undefined) {
      const size = jsonSize(v.json)
      if (size === null) return unreadable()
      if (size > ANSWER_LIMIT_BYTES) return answerTooLarge(size, streams)
      described.json = v.json
    }
  }
  const duration = typeof value.durationMs === 'number' && Number.isFinite(value.durationMs) && value.durationMs >= 0 ? value.durationMs : 0
  const output: PythonOutput = {
    ...streams,
    value: described,
    truncated: value.truncated === true || stdout.cut || stderr.cut,
    durationMs: duration,
    tableKind: isOneOf(value.tableKind, ['pandas', 'rows', 'none'] as const) ? value.tableKind : 'none'
  }
  const unmatched = Array.isArray(value.unmatched)
    ? value.unmatched.filter((x): x is string => typeof x === 'string').slice(0, UNMATCHED_LIMIT)
    : []
  if (unmatched.length > 0) output.unmatched = unmatched.map((x) => cut(x, UNMATCHED_LIMIT_CHARS).text)
  const readings = Array.isArray(value.readings)
    ? value.readings.filter((x): x is string => typeof x === 'string').slice(0, READINGS_LIMIT)
    : []
  if (readings.length > 0) output.readings = readings.map((x) => cut(x, UNMATCHED_LIMIT_CHARS).text)
  return { ok: true, value: output }
}

function checkFailure(error: unknown, codes: readonly ErrorCode[]): PythonRunResult {
  if (!isFields(error) || typeof error.message !== 'string') return unreadable()
  const failure: PythonFailure = {
    code: isOneOf(error.code, codes) ? error.code : 'python-error',
    message: cut(error.message, MESSAGE_LIMIT_CHARS).text,
    stdout: typeof error.stdout === 'string' ? cut(error.stdout, OUTPUT_CAP_CHARS).text : '',
    stderr: typeof error.stderr === 'string' ? cut(error.stderr, OUTPUT_CAP_CHARS).text : ''
  }
  if (typeof error.traceback === 'string') failure.traceback = cut(error.traceback, TRACEBACK_LIMIT_CHARS).text
  if (isText(error.detail, TRACEBACK_LIMIT_CHARS)) failure.detail = error.detail
  return { ok: false, error: failure }
}

/** Length of the value as JSON text, or null when it is not JSON (a cycle, a BigInt). */
function jsonSize(value: unknown): number | null {
  try {
    const text = JSON.stringify(value)
    return typeof text === 'string' ? text.length : null
  } catch {
    return null
  }
}

function cut(text: string, max: number): { text: string; cut: boolean } {
  return text.length <= max
    ? { text, cut: false }
    : { text: `${text.slice(0, max)}… [${(text.length - max).toLocaleString('en-US')} more characters]`, cut: true }
}

function unreadable(): PythonRunResult {
  return runFailure('internal', 'The program finished but its result could not be read.')
}
