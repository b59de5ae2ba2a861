import { execFile, spawn } from 'node:child_process'
import { join } from 'node:path'
import { Readable, type Writable } from 'node:stream'
import type { HostToPage } from '../../../shared/executor-protocol'
import { decodeHostMessage, type HostCrash, type PythonHost, type SpawnHost } from '../../../shared/python-host'
import { RunPool } from '../../../shared/run-pool'
import { RESULT_LIMIT_CHARS } from '../../../shared/run-result'
import { appRoot } from '../paths'
import { channelSignals, type ChannelFactory, type PageChannel } from './channel'

export type CPythonOptions = {
  /** The interpreter to run, e.g. `python3` or a virtualenv's `bin/python`. */
  python: string
  /** Address-space limit per interpreter process (Linux/macOS), MB. */
  memoryMb?: number
}

/** Environment for the child: no secrets (anything named like a key, token or password) are passed on. */
function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (!/KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL/i.test(name)) env[name] = value
  }
  const runtime = join(appRoot(), 'python')
  env.PYTHONPATH = env.PYTHONPATH ? `${runtime}:${env.PYTHONPATH}` : runtime
  env.PYTHONDONTWRITEBYTECODE = '1'
  env.PYTHONIOENCODING = 'utf-8'
  return env
}

/** Check an interpreter before offering it: its version and whether pandas imports. */
export type PythonProbe = { ok: true; version: string; pandas: string | null } | { ok: false; message: string }

/** Run the interpreter once to read its version and pandas version; asynchronous, importing pandas can take seconds. */
export function probePython(python: string): Promise<PythonProbe> {
  const script = 'import sys\ntry:\n import pandas; p = pandas.__version__\nexcept ImportError:\n p = ""\nprint(sys.version.split()[0], p)'
  return new Promise((resolve) => {
    execFile(python, ['-c', script], { encoding: 'utf8', timeout: 20_000, env: childEnv() }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') return resolve({ ok: false, message: `Could not run ${python}: ${error.killed ? 'no answer within 20 s' : error.message}` })
      if (error) return resolve({ ok: false, message: `${python} failed: ${stderr.trim().split('\n').at(-1) ?? ''}` })
      const [version = '', pandas = ''] = stdout.trim().split(' ')
      resolve({ ok: true, version, pandas: pandas === '' ? null : pandas })
    })
  })
}

/**
 * Lines from the interpreter's control pipe, each at most `max` characters: a longer line is dropped
 * (reported through `tooLong`) without being held in memory, however much a program writes there.
 */
function boundedLines(input: Readable, max: number, line: (text: string) => void, tooLong: () => void): void {
  let parts: Buffer[] = []
  let size = 0
  let skipping = false
  input.on('data', (chunk: Buffer) => {
    let start = 0
    for (let nl = chunk.indexOf(10, start); nl >= 0; nl = chunk.indexOf(10, start)) {
      if (!skipping) {
        parts.push(chunk.subarray(start, nl))
        line(Buffer.concat(parts).toString('utf8'))
      }
      parts = []
      size = 0
      skipping = false
      start = nl + 1
    }
    if (skipping || start >= chunk.length) return
    size += chunk.length - start
    if (size > max) {
      parts = []
      skipping = true
      tooLong()
      return
    }
    parts.push(chunk.subarray(start))
  })
}

/** Longest control line read: a result at its limit, JSON-escaped once more inside the message. */
const MAX_LINE_CHARS = 2 * RESULT_LIMIT_CHARS

function cpythonHosts(options: CPythonOptions): SpawnHost {
  return (events) => {
    const args = ['-u', '-m', 'tableqa.serve', ...(options.memoryMb ? ['--memory-mb', String(options.memoryMb)] : [])]
    const child = spawn(options.python, args, { stdio: ['pipe', 'pipe', 'pipe', 'pipe'], env: childEnv() })
    let dead = false
    let stderrTail = ''
    const control = child.stdio[3]
    const input: Writable = child.stdin
    // What programs print straight to the process streams is not captured by the runner; drop it.
    child.stdout?.resume()
    child.stderr?.on('data', (chunk: Buffer) => {
      stderrTail = (stderrTail + chunk.toString()).slice(-4000)
    })
    if (control instanceof Readable) {
      boundedLines(
        control,
        MAX_LINE_CHARS,
        (line) => {
          if (dead) return
          let data: unknown
          try {
            data = JSON.parse(line)
          } catch {
            data = null
          }
          const message = decodeHostMessage(data)
          if (message === null) events.malformed()
          else events.message(message)
        },
        () => {
          if (!dead) events.malformed()
        }
      )
    }
    const gone = (crash: HostCrash): void => {
      if (dead) return
      dead = true
      events.crash(crash)
    }
    child.on('error', (error) => gone({ code: 'spawn', detail: `Could not start ${options.python}: ${error.message}` }))
    child.on('exit', (code, signal) => {
      const detail = stderrTail.trim().split('\n').slice(-3).join('\n')
      // The stderr tail is the program's to write, so it only goes to the log, and only the OS's word counts.
      gone({ code: /MemoryError/.test(stderrTail) ? 'out-of-memory' : 'exited', detail: `${signal ?? `exit ${code}`}${detail ? `: ${detail}` : ''}` })
    })
    input.on('error', () => {})
    const send = (message: object): void => {
      if (!dead) input.write(`${JSON.stringify(message)}\n`)
    }
    const host: PythonHost = {
      // The JSON line announces the payload's length and its bytes follow as they are (see tableqa/serve.py).
      loadTable: (tableId, payload) => {
        if (dead) return
        const bytes = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload
        input.write(`${JSON.stringify({ type: 'table', tableId, bytes: bytes.byteLength })}\n`)
        input.write(bytes)
      },
      dropTable: (tableId) => send({ type: 'drop-table', tableId }),
      run: (request) => send({ type: 'run', ...request }),
      answerQa: (answer) => send({ type: 'qa-answer', answer }),
      interrupt: () => {
        if (!dead) child.kill('SIGINT')
      },
      terminate: () => {
        dead = true
        child.kill('SIGKILL')
      }
    }
    return host
  }
}

/**
 * A local CPython behind the executor channel: the same run pool, deadlines and QA bridge as the
 * sandboxed page, with processes instead of workers. Not a sandbox: programs can do whatever the
 * user's account can. Opt-in and labelled as such.
 */
export function cpythonChannelFactory(options: CPythonOptions): ChannelFactory {
  return () => {
    let pool: RunPool | null = null
    const signals = channelSignals()
    const channel: PageChannel = {
      post: (message: HostToPage) => {
        if (message.type === 'configure') {
          pool?.dispose()
          pool = new RunPool(message.config, cpythonHosts(options), signals.emit)
        } else {
          pool?.handle(message)
        }
        return Promise.resolve()
      },
      sendTable(tableId, payload) {
        return channel.post({ type: 'table', tableId, payloadJson: payload })
      },
      onMessage: signals.onMessage,
      onExit: () => {},
      close: () => {
        pool?.dispose()
        pool = null
        return Promise.resolve()
      }
    }
    return Promise.resolve(channel)
  }
}
