import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PythonRunResult } from '../../../shared/python'
import { SMALL_REPORT, TWO_TOTALS } from '../../../../test/support/executor'
import { createCPythonExecutor } from './cpython-executor'
import { probePython } from './cpython-channel'
import type { PythonExecutor } from './executor'
import { encodeTable, type RunRequest } from './types'

const PYTHON = process.env.TABLEQA_PYTHON ?? 'python3'
let executor: PythonExecutor
let seq = 0

async function run(code: string, options: Partial<Omit<RunRequest, 'runId' | 'code'>> = {}): Promise<PythonRunResult> {
  const { result } = await executor.run({ tableId: null, ...options, runId: `c-${++seq}`, code })
  return result
}

beforeAll(async () => {
  const probe = await probePython(PYTHON)
  if (!probe.ok || probe.pandas === null) throw new Error(`The CPython executor tests need ${PYTHON} with pandas (pip install -r python/requirements-test.txt).`)
  process.env.TABLEQA_TEST_API_KEY = 'sk-should-not-leak'
  executor = createCPythonExecutor({ python: PYTHON, memoryMb: 2048, defaultTimeoutMs: 10_000 })
  await executor.loadTable('hier', encodeTable(SMALL_REPORT))
})

afterAll(async () => {
  await executor?.close()
  delete process.env.TABLEQA_TEST_API_KEY
})

describe('local CPython executor', () => {
  it('gives programs a pandas DataFrame with a MultiIndex and numeric views', async () => {
    const result = await run('[df.columns.tolist(), float(df.loc["canada", ("2019", "men")])]', { tableId: 'hier' })
    expect(result.ok).toBe(true)
    if (result.ok) {
      expect(result.value.tableKind).toBe('pandas')
      expect(result.value.value?.json).toEqual([
        [
          ['2019', 'men'],
          ['2019', 'women']
        ],
        -12
      ])
    }
  })

  it("hands the program's question to the runtime, which reads a label under several parents by it", async () => {
    await executor.loadTable(
      'survey',
      encodeTable(TWO_TOTALS)
    )
    const code = 'float(df.loc["transport", "total"])'
    const asked = await run(code, { tableId: 'survey', question: 'How many women worked in transport?' })
    expect(asked.ok && asked.value.value?.json).toBe(4)
    const unasked = await run(code, { tableId: 'survey' })
    expect(!unasked.ok && unasked.error.message).toContain("'total' names 2 column headers")
  })

  it('stops loops and sleeps at the deadline and keeps serving', async () => {
    for (const code of ['while True:\n    pass', 'import time\ntime.sleep(30)']) {
      const result = await run(code, { timeoutMs: 300 })
      expect(result.ok).toBe(false)
      if (!result.ok) expect(result.error.code).toBe('timeout')
    }
    const after = await run('40 + 2')
    expect(after.ok && after.value.value?.json).toBe(42)
  })

  it('bridges qa() to the host and counts the calls', async () => {
    const outcome = await executor.run({
      runId: 'qa',
      code: 'qa("Which country?", "Oslo")',
      tableId: null,
      qa: (call) => Promise.resolve({ ok: true, value: `${call.value} is in Norway` })
    })
    expect(outcome.qaCalls).toBe(1)
    expect(outcome.result.ok && outcome.result.value.value?.json).toBe('Oslo is in Norway')
  })

  it('enforces the memory limit as a MemoryError, and the next program runs', async () => {
    const bomb = await run('x = bytearray(8 * 1024 ** 3)')
    expect(bomb.ok).toBe(false)
    if (!bomb.ok) expect(bomb.error.message).toMatch(/MemoryError/)
    expect((await run('"ok"')).ok).toBe(true)
  })

  it('does not hand secrets from the environment to programs', async () => {
    const result = await run('import os\nsorted(k for k in os.environ if "KEY" in k or "TOKEN" in k)')
    expect(result.ok && result.value.value?.json).toEqual([])
  })

  it('binds a database\'s tables by name for sqldf', async () => {
    await executor.loadTable('singer', encodeTable({ name: 'singer', columns: [['name'], ['age']], index: [[], []], values: [['Ann', '30'], ['Bo', '41']] }))
    const result = await run('sqldf("SELECT name FROM singer WHERE age > 35")["name"].tolist()', { namedTables: [{ name: 'singer', tableId: 'singer' }] })
    expect(result.ok).toBe(true)
    if (result.ok) expect(JSON.stringify(result.value.value?.json)).toContain('Bo')
  })
})
