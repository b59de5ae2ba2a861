import { execFile, spawn } from 'node:child_process'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import type { Readable, Writable } from 'node:stream'
import type { HostToPage } from '../../../shared/executor-protocol'
import { RunPool, type Interpreter, type SpawnInterpreter } from '../../../shared/run-pool'
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

function cpythonInterpreters(options: CPythonOptions): SpawnInterpreter {
  return (events) => {
    const args = ['-u', '-m', 'tableqa.serve', ...(options.memoryMb ? ['--memory-mb', String(options.memoryMb)] : [])]
    const child = spawn(options.python, args, { stdio: ['pipe', 'pipe', 'pipe', 'pipe'], env: childEnv() })
    let ready = false
    let dead = false
    let stderrTail = ''
    const control = child.stdio[3] as Readable
    const input: Writable = child.stdin
    // What programs print straight to the process streams is not captured by the runner; drop it.
    child.stdout?.resume()
    child.stderr?.on('data', (chunk: Buffer) => {
      stderrTail = (stderrTail + chunk.toString()).slice(-4000)
    })
    createInterface({ input: control }).on('line', (line) => {
      let message: { type: string; [key: string]: unknown }
      try {
        message = JSON.parse(line) as typeof message
      } catch {
        return
      }
      if (message.type === 'ready') {
        ready = true
        events.ready({ pythonVersion: String(message.pythonVersion), pandas: message.pandas === true, bootMs: Number(message.bootMs) })
      } else if (message.type === 'result') {
        events.result(String(message.runId), String(message.resultJson), message.recycle !== false)
      } else if (message.type === 'started') {
        events.started(String(message.runId))
      } else if (message.type === 'qa') {
        events.qa(String(message.runId), String(message.question), typeof message.value === 'string' ? message.value : null)
      }
    })
    const gone = (why: string): void => {
      if (dead) return
      dead = true
      if (ready) events.crash(why)
      else events.bootError(why)
    }
    child.on('error', (error) => gone(`Could not start ${options.python}: ${error.message}`))
    child.on('exit', (code, signal) => {
      const detail = stderrTail.trim().split('\n').slice(-3).join('\n')
      const memory = /MemoryError/.test(stderrTail) ? ' (out of memory)' : ''
      gone(`The Python process ended${memory} (${signal ?? `exit ${code}`})${detail ? `: ${detail}` : ''}`)
    })
    input.on('error', () => {})
    const send = (message: object): void => {
      if (!dead) input.write(`${JSON.stringify(message)}\n`)
    }
    const interpreter: Interpreter = {
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
    return interpreter
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
          pool = new RunPool(message.config, cpythonInterpreters(options), signals.emit)
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
