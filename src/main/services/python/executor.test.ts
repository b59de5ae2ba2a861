import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testExecutor } from '../../../../test/support/executor'
import type { PythonRunResult } from '../../../shared/python'
import type { PythonExecutor } from './executor'
import { encodeTable, type QaCall, type RunRequest } from './types'

let executor: PythonExecutor
let canary: Server
let canaryUrl = ''
let canaryHits = 0
let seq = 0

type RunOptions = Omit<RunRequest, 'runId' | 'code' | 'tableId'> & { tableId?: string | null }

// One question's worth of runs: they may share interpreters, as a question's candidates do (isolation
// between questions is isolation.test.ts's subject), so the file does not wait for a fresh boot per run.
async function run(code: string, options: RunOptions = {}): Promise<PythonRunResult> {
  const { result } = await executor.run({ scope: 'executor-test', ...options, runId: `run-${++seq}`, code, tableId: options.tableId ?? null })
  return result
}

function value(result: PythonRunResult): unknown {
  if (!result.ok) throw new Error(`run failed: ${result.error.code}: ${result.error.message}\n${result.error.traceback ?? ''}`)
  return result.value.value?.json
}

beforeAll(async () => {
  canary = createServer((_request, response) => {
    canaryHits += 1
    response.end('reached')
  })
  await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve))
  canaryUrl = `http://127.0.0.1:${(canary.address() as AddressInfo).port}/`
  executor = testExecutor()
  await executor.loadTable('flat', encodeTable({
    name: 'cities.csv',
    columns: [['City'], ['Population']],
    index: [[], [], []],
    values: [['Oslo', '709,037'], ['Bergen', '289,330'], ['Tromsø', '78,745']]
  }))
})

afterAll(async () => {
  await executor?.close()
  canary?.close()
})

describe('Python executor in the sandboxed page', () => {
  it('answers qa() calls through the host, counts them, and does not count the wait against the deadline', async () => {
    const calls: QaCall[] = []
    const qa = async (call: QaCall) => {
      calls.push(call)
      await new Promise((resolve) => setTimeout(resolve, 400))
      return { ok: true as const, value: call.value === 'Oslo' ? 'Norway' : 'unknown' }
    }
    const outcome = await executor.run({
      runId: 'qa-run',
      code: 'answer = [qa("Which country is this city in?", r["City"]) for r in rows[:2]]',
      tableId: 'flat',
      timeoutMs: 600,
      qa
    })
    expect(outcome.result.ok).toBe(true)
    if (outcome.result.ok) expect(outcome.result.value.value?.json).toEqual(['Norway', 'unknown'])
    expect(outcome.qaCalls).toBe(2)
    expect(calls.map((c) => c.value)).toEqual(['Oslo', 'Bergen'])
  })

  it('turns a failed or missing QA answer into a Python error the program can read', async () => {
    const failed = await run('qa("capital of Norway?")', { qa: () => Promise.resolve({ ok: false, error: { code: 'model-timeout', message: 'the model did not answer' } }) })
    expect(failed.ok).toBe(false)
    if (!failed.ok) expect(failed.error.message).toMatch(/QAError.*the model did not answer/)
    const missing = await run('qa("capital of Norway?")')
    expect(missing.ok).toBe(false)
    if (!missing.ok) expect(missing.error.message).toMatch(/No model is set up/)
  })

  it('caps the number of QA calls per program', async () => {
    const result = await run('[qa("q", str(i)) for i in range(10)]', { qa: () => Promise.resolve({ ok: true, value: 'a' }), maxQaCalls: 3 })
    expect(result.ok).toBe(false)
  })

  it('binds several tables by name', async () => {
    await executor.loadTable('second', encodeTable({ name: 'b', columns: [['x']], index: [[]], values: [['7']] }))
    const result = await run('[len(cities), len(other)]', { namedTables: [{ name: 'cities', tableId: 'flat' }, { name: 'other', tableId: 'second' }] })
    expect(value(result)).toEqual([3, 1])
  })

  it("hands the program's question to the runtime for that run only", async () => {
    // The runtime reads a label that names several headers by the question (tableqa.headers, tested with
    // pandas in pandas-sandbox.test.ts and cpython-executor.test.ts); here, that the question gets there.
    const code = 'from tableqa import trace\ntrace.question()'
    expect(value(await run(code, { question: 'Which city is largest?' }))).toBe('Which city is largest?')
    expect(value(await run(code))).toBe('')
  })

  it('returns stdout, the last expression and the table as plain rows', async () => {
    const result = await run('print("hello")\n[r["City"] for r in rows]', { tableId: 'flat' })
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.value.stdout).toBe('hello\n')
    expect(result.value.value?.json).toEqual(['Oslo', 'Bergen', 'Tromsø'])
    expect(result.value.tableKind).toBe('rows')
  })

  it('gives each run a fresh namespace and a fresh copy of the table', async () => {
    expect(value(await run('rows.clear()\nsecret = 42\nlen(rows)', { tableId: 'flat' }))).toBe(0)
    expect(value(await run('len(rows)', { tableId: 'flat' }))).toBe(3)
    const leaked = await run('secret')
    expect(leaked.ok).toBe(false)
    if (!leaked.ok) expect(leaked.error.message).toMatch(/NameError/)
  })

  it('reports Python errors as data with a traceback', async () => {
    const result = await run('def f():\n    return 1 / 0\nf()')
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.error.code).toBe('python-error')
    expect(result.error.message).toMatch(/ZeroDivisionError/)
    expect(result.error.traceback).toMatch(/line 2/)
  })

  it('stops a runaway Python loop at the deadline and runs the next program normally', async () => {
    const result = await run('while True:\n    pass', { timeoutMs: 500 })
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error.code).toBe('timeout')
    expect(value(await run('1 + 1'))).toBe(2)
  })

  it('kills a program blocked in C (time.sleep) and recovers', async () => {
    const result = await run('import time\ntime.sleep(30)', { timeoutMs: 300 })
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error.code).toBe('timeout')
    expect(value(await run('"still alive"'))).toBe('still alive')
  })

  it('stops a run on request with code interrupted', async () => {
    const pending = executor.run({ runId: 'to-stop', code: 'while True:\n    pass', tableId: null, timeoutMs: 60_000, scope: 'executor-test' })
    // The stop may arrive while the run is queued or running; both must end as interrupted.
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(await executor.stop('to-stop')).toBe(true)
    const { result } = await pending
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error.code).toBe('interrupted')
  })

  it('cannot reach Node: no process, no require, no host file system', async () => {
    expect(value(await run('import js\n[hasattr(js, n) for n in ("process", "require", "Buffer")]'))).toEqual([false, false, false])
    // The interpreter sees only its own in-memory file system (Emscripten's /dev, /home, /lib, /proc, /tmp).
    const listing = value(await run('import os\nsorted(os.listdir("/"))')) as string[]
    expect(listing).not.toContain('etc')
    expect(listing).not.toContain('root')
    const passwd = await run('open("/etc/passwd").read()')
    expect(passwd.ok).toBe(false)
    if (!passwd.ok) expect(passwd.error.message).toMatch(/FileNotFoundError/)
  })

  it('cannot send requests anywhere: synchronous XHR and fetch to a loopback server are refused', async () => {
    const xhr = await run(`import js\nx = js.XMLHttpRequest.new()\nx.open("GET", "${canaryUrl}", False)\nx.send()\nx.responseText`)
    expect(xhr.ok).toBe(false)
    await run(`import js\njs.fetch("${canaryUrl}")\n"sent"`)
    // A refused request never reaches the server; give an allowed one time to arrive before judging.
    await run('sum(range(100000))')
    expect(canaryHits).toBe(0)
  })
})
