/**
 * Reads a failed candidate's real error (message and traceback) for signs that the sandbox stopped it,
 * so the candidate list can say so in one line instead of leaving the user to decode a Python error.
 */

import type { AppError } from '../../../shared/result'

export type BlockedKind = 'files' | 'network' | 'processes' | 'script'

/** Why a program was stopped by the sandbox: a kind, and one line for the user. */
export type BlockedReason = { kind: BlockedKind; text: string }

const FILE_ERRORS = new Set(['FileNotFoundError', 'PermissionError', 'NotADirectoryError', 'IsADirectoryError'])
const NETWORK_ERRORS = new Set(['URLError', 'ConnectionError', 'ConnectionRefusedError', 'ConnectionResetError', 'gaierror'])
// Emscripten's socket layer has no network; the errno text is what Python reports.
const NETWORK_OS_TEXT = /Host is unreachable|Network is unreachable|Connection refused/
// What the browser says when the page's content policy or the route refuses a request.
const NETWORK_JS_TEXT = /Failed to fetch|NetworkError|Content Security Policy|net::ERR_/
// The executor worker deletes these from its global, so from Python (`js.fetch` or `from js import fetch`) they are None.
const REMOVED_NETWORK_API = /(?<![\w.])(?:js\.)?(fetch|XMLHttpRequest|WebSocket|EventSource|importScripts)\b/
const REMOVED_WORKER_API = /(?<![\w.])(?:js\.)?(Worker|SharedWorker)\b/
const MISSING_VALUE = /'NoneType' object (is not callable|has no attribute)|is not a function|is undefined|of undefined/

const NETWORK_TEXT = 'Blocked: network access is not available in the sandbox'
const FILES_TEXT = 'Blocked: no access to files outside the sandbox'
const PROCESSES_TEXT = 'Blocked: the sandbox cannot start processes'
const SCRIPT_TEXT = 'Blocked: the sandbox does not evaluate JavaScript text'

/** "urllib.error.URLError: <...>" → "URLError". */
function exceptionType(message: string): string | null {
  const match = /^([A-Za-z_][\w.]*)(?::|$)/.exec(message.trim())
  return match?.[1]?.split('.').pop() ?? null
}

/** The source line of the innermost frame of the program itself, when that frame is the last one. */
function failingLine(traceback: string | undefined): string | null {
  if (traceback === undefined) return null
  const lines = traceback.split('\n')
  let found: string | null = null
  for (const [i, line] of lines.entries()) {
    const frame = /^\s*File "([^"]*)", line \d+/.exec(line)
    if (frame) found = frame[1] === '<program>' ? (lines[i + 1]?.trim() ?? null) : null
  }
  return found
}

/** The path Python's error ends with, before a note the runtime adds in brackets ("(no files can be read …)"). */
function quotedPath(message: string): string | null {
  return /: '([^']+)'\s*$/.exec(message.replace(/\s*\([^()]*\)\s*$/, ''))?.[1] ?? null
}

/**
 * The reason a failed candidate counts as blocked by the sandbox, or null. Only Pyodide runs are
 * sandboxed: the same error from the local CPython means what it says (a missing file is missing).
 */
export function blockedReason(error: Pick<AppError, 'code' | 'message' | 'detail'>, executor: 'pyodide' | 'cpython'): BlockedReason | null {
  if (executor !== 'pyodide' || error.code !== 'python-error') return null
  const { message } = error
  const type = exceptionType(message)
  if (type !== null && FILE_ERRORS.has(type)) {
    const path = quotedPath(message)
    return { kind: 'files', text: path === null ? FILES_TEXT : `${FILES_TEXT} (${path})` }
  }
  if (type === 'JsException' && /EvalError|'unsafe-eval'/.test(message)) return { kind: 'script', text: SCRIPT_TEXT }
  if (
    (type !== null && NETWORK_ERRORS.has(type)) ||
    (type === 'OSError' && NETWORK_OS_TEXT.test(message)) ||
    (type === 'JsException' && NETWORK_JS_TEXT.test(message))
  ) {
    return { kind: 'network', text: NETWORK_TEXT }
  }
  if (/does not support processes/.test(message)) return { kind: 'processes', text: PROCESSES_TEXT }
  if (MISSING_VALUE.test(message)) {
    const line = failingLine(error.detail) ?? ''
    const network = REMOVED_NETWORK_API.exec(line)
    if (network) return { kind: 'network', text: `${NETWORK_TEXT} (js.${network[1]} is removed)` }
    const worker = REMOVED_WORKER_API.exec(line)
    if (worker) return { kind: 'processes', text: `${PROCESSES_TEXT} or workers (js.${worker[1]} is removed)` }
  }
  return null
}
