import { afterAll, describe, expect, it } from 'vitest'
import type { ExecutorState } from '../../../shared/python'
import { probePython } from './cpython-channel'
import { createCPythonExecutor } from './cpython-executor'
import { SwitchableExecutor } from './switchable'
import { encodeTable, type Executor, type RunOutcome } from './types'

const PYTHON = process.env.TABLEQA_PYTHON ?? 'python3'

/** A stand-in for the sandbox: records what it is given and answers every run with a fixed text. */
function fakeExecutor(): Executor & { loaded: string[]; closed: boolean; emit: (s: ExecutorState) => void } {
  const listeners = new Set<(s: ExecutorState) => void>()
  const fake = {
    kind: 'pyodide' as const,
    loaded: [] as string[],
    closed: false,
    emit: (s: ExecutorState) => listeners.forEach((l) => l(s)),
    start: () => Promise.resolve(null),
    status: (): ExecutorState => ({ state: 'ready', pandas: false, pythonVersion: 'fake' }),
    onStatus: (l: (s: ExecutorState) => void) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    loadTable: (id: string) => {
      fake.loaded.push(id)
      return Promise.resolve()
    },
    dropTable: () => Promise.resolve(),
    run: (): Promise<RunOutcome> => Promise.resolve({ result: { ok: false, error: { code: 'internal', message: 'fake', stdout: '', stderr: '' } }, killed: false, qaCalls: 0 }),
    endScope: () => Promise.resolve(),
    stop: () => Promise.resolve(false),
    close: () => {
      fake.closed = true
      return Promise.resolve()
    }
  }
  return fake
}

const table = { name: 'sales', columns: [['region'], ['amount']], index: [], values: [['north', '3'], ['south', '4']] }
const switchable = new SwitchableExecutor(fakeExecutor())

afterAll(async () => {
  await switchable.close()
})

describe('SwitchableExecutor', () => {
  it('forwards status of the current executor only', async () => {
    const first = fakeExecutor()
    const s = new SwitchableExecutor(first)
    const seen: ExecutorState[] = []
    s.onStatus((state) => seen.push(state))
    first.emit({ state: 'busy', runId: 'a' })
    await s.switchTo(fakeExecutor(), [])
    first.emit({ state: 'busy', runId: 'b' })
    expect(first.closed).toBe(true)
    expect(seen.filter((x) => x.state === 'busy')).toEqual([{ state: 'busy', runId: 'a' }])
  })

  it('switches to local CPython with the open tables and back', async () => {
    const probe = await probePython(PYTHON)
    if (!probe.ok || probe.pandas === null) throw new Error(`This test needs ${PYTHON} with pandas.`)
    const states: ExecutorState[] = []
    switchable.onStatus((state) => states.push(state))

    const cpython = createCPythonExecutor({ python: PYTHON, defaultTimeoutMs: 20_000 })
    await switchable.switchTo(cpython, [{ tableId: 't1', payload: encodeTable(table) }])
    expect(switchable.kind).toBe('cpython')
    const { result } = await switchable.run({ runId: 'r1', code: 'int(df["amount"].astype(int).sum())', tableId: 't1' })
    expect(result.ok).toBe(true)
    if (result.ok) {
      expect(result.value.tableKind).toBe('pandas')
      expect(result.value.value?.json).toBe(7)
    }
    expect(states.some((s) => s.state === 'ready')).toBe(true)

    const back = fakeExecutor()
    await switchable.switchTo(back, [{ tableId: 't1', payload: encodeTable(table) }])
    expect(switchable.kind).toBe('pyodide')
    expect(back.loaded).toEqual(['t1'])
    const after = await cpython.run({ runId: 'r2', code: '1', tableId: null })
    expect(after.result.ok).toBe(false)
  }, 60_000)
})
