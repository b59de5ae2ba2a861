import { describe, expect, it } from 'vitest'
import type { AppError } from '../../../shared/result'
import { blockedReason } from './blocked'

/** A traceback shaped as the sandbox prints one: a single frame of the program, its line, the carets, the error. */
function traceback(line: string, last: string): string {
  return `Traceback (most recent call last):\n  File "<program>", line 3, in <module>\n    ${line}\n    ~~~~~~~~^^^^^^^^\n${last}\n`
}

function pythonError(message: string, detail?: string): AppError {
  return detail === undefined ? { code: 'python-error', message } : { code: 'python-error', message, detail }
}

// Messages and tracebacks as Pyodide in the executor page reports them.
const READ_KEY = pythonError("FileNotFoundError: [Errno 44] No such file or directory: '/tmp/x/id_rsa'")
const LIST_DIR = pythonError("FileNotFoundError: [Errno 44] No such file or directory: '/tmp/x'")
const URLOPEN = pythonError(
  'URLError: <urlopen error [Errno 23] Host is unreachable>',
  traceback(
    'urllib.request.urlopen("http://127.0.0.1:9/collect").read()',
    'urllib.error.URLError: <urlopen error [Errno 23] Host is unreachable>'
  )
)
const SOCKET = pythonError('OSError: [Errno 23] Host is unreachable')
const JS_FETCH = pythonError(
  "TypeError: 'NoneType' object is not callable",
  traceback('run_sync(js.fetch("http://127.0.0.1:9/collect", {"method": "POST"}))', "TypeError: 'NoneType' object is not callable")
)
const FETCH_IMPORTED = pythonError(
  "TypeError: 'NoneType' object is not callable",
  traceback('fetch("http://127.0.0.1:9/")', "TypeError: 'NoneType' object is not callable")
)
const WEBSOCKET = pythonError(
  "AttributeError: 'NoneType' object has no attribute 'new'",
  traceback('ws = js.WebSocket.new("ws://127.0.0.1:9/")', "AttributeError: 'NoneType' object has no attribute 'new'")
)
const WORKER = pythonError(
  "AttributeError: 'NoneType' object has no attribute 'new'",
  traceback('w = js.Worker.new("x.js")', "AttributeError: 'NoneType' object has no attribute 'new'")
)
const SUBPROCESS = pythonError('OSError: [Errno 138] emscripten does not support processes.')
const JS_EVAL = pythonError(
  "JsException: EvalError: Evaluating a string as JavaScript violates the following Content Security Policy directive because 'unsafe-eval' is not an allowed source of script"
)

describe('blockedReason: what the sandbox stopped, read from the real error', () => {
  it('says a read or listing of a host path was blocked, naming the path', () => {
    expect(blockedReason(READ_KEY, 'pyodide')).toEqual({
      kind: 'files',
      text: 'Blocked: no access to files outside the sandbox (/tmp/x/id_rsa)'
    })
    expect(blockedReason(LIST_DIR, 'pyodide')?.text).toBe('Blocked: no access to files outside the sandbox (/tmp/x)')
    expect(blockedReason(pythonError("PermissionError: [Errno 2] Permission denied: '/proc/1/mem'"), 'pyodide')?.kind).toBe('files')
    // The runtime's note after Python's message does not hide the path.
    const noted = pythonError(
      "FileNotFoundError: [Errno 44] No such file or directory: '/tmp/x/id_rsa' (no files can be read here: the table is already loaded as the DataFrame df; use it as it is)"
    )
    expect(blockedReason(noted, 'pyodide')?.text).toBe('Blocked: no access to files outside the sandbox (/tmp/x/id_rsa)')
  })

  it('says network access is not available for urllib, sockets and http.client', () => {
    for (const error of [URLOPEN, SOCKET, pythonError('ConnectionRefusedError: [Errno 14] Connection refused')]) {
      expect(blockedReason(error, 'pyodide')).toEqual({ kind: 'network', text: 'Blocked: network access is not available in the sandbox' })
    }
  })

  it('names the removed browser API when the failing line of the program called it', () => {
    expect(blockedReason(JS_FETCH, 'pyodide')?.text).toBe('Blocked: network access is not available in the sandbox (js.fetch is removed)')
    expect(blockedReason(FETCH_IMPORTED, 'pyodide')?.text).toBe(
      'Blocked: network access is not available in the sandbox (js.fetch is removed)'
    )
    expect(blockedReason(WEBSOCKET, 'pyodide')?.text).toBe(
      'Blocked: network access is not available in the sandbox (js.WebSocket is removed)'
    )
    expect(blockedReason(WORKER, 'pyodide')).toEqual({
      kind: 'processes',
      text: 'Blocked: the sandbox cannot start processes or workers (js.Worker is removed)'
    })
  })

  it('says processes cannot start and JavaScript text is not evaluated', () => {
    expect(blockedReason(SUBPROCESS, 'pyodide')?.kind).toBe('processes')
    expect(blockedReason(JS_EVAL, 'pyodide')).toEqual({ kind: 'script', text: 'Blocked: the sandbox does not evaluate JavaScript text' })
    expect(blockedReason(pythonError('JsException: TypeError: Failed to fetch'), 'pyodide')?.kind).toBe('network')
  })

  it('leaves ordinary failures alone', () => {
    expect(blockedReason(pythonError('ZeroDivisionError: division by zero'), 'pyodide')).toBeNull()
    expect(blockedReason(pythonError("KeyError: 'Amount'"), 'pyodide')).toBeNull()
    expect(
      blockedReason(pythonError('RuntimeError: Cannot stack switch because the Python entrypoint was a synchronous function.'), 'pyodide')
    ).toBeNull()
    // A None called on a line that has nothing to do with the removed APIs.
    expect(
      blockedReason(
        pythonError(
          "TypeError: 'NoneType' object is not callable",
          traceback('total = helper(rows)', "TypeError: 'NoneType' object is not callable")
        ),
        'pyodide'
      )
    ).toBeNull()
    // The same message with no traceback to show which line failed.
    expect(blockedReason(pythonError("TypeError: 'NoneType' object is not callable"), 'pyodide')).toBeNull()
  })

  it('reads the innermost frame only when it is the program: a None inside a library is not blamed on the program', () => {
    const detail = `Traceback (most recent call last):\n  File "<program>", line 1, in <module>\n    helper.call(js.fetch)\n  File "/lib/python3.13/site-packages/helper.py", line 9, in call\n    return cb(x)\nTypeError: 'NoneType' object is not callable\n`
    expect(blockedReason(pythonError("TypeError: 'NoneType' object is not callable", detail), 'pyodide')).toBeNull()
  })

  it('never claims a block for errors that are not program errors, or for the local CPython', () => {
    expect(blockedReason({ code: 'timeout', message: 'Stopped after 30 s: the program ran past its time limit.' }, 'pyodide')).toBeNull()
    expect(blockedReason({ code: 'model-no-code', message: 'The reply held no program.' }, 'pyodide')).toBeNull()
    // Outside the sandbox a missing file is just missing, and a refused connection is the network's answer.
    expect(blockedReason(READ_KEY, 'cpython')).toBeNull()
    expect(blockedReason(URLOPEN, 'cpython')).toBeNull()
  })
})
