import { afterEach, describe, expect, it, vi } from 'vitest'
import type { PageToHost } from './executor-protocol'
import type { Interpreter, InterpreterEvents } from './run-pool'
import { RunPool } from './run-pool'

type Fake = { events: InterpreterEvents; runs: string[]; loads: string[]; terminated: boolean; interrupts: number }

/** Interpreters that boot at once and finish a run only when the test says so. */
function fakes(): { spawned: Fake[]; spawn: (events: InterpreterEvents) => Interpreter } {
  const spawned: Fake[] = []
  return {
    spawned,
    spawn: (events) => {
      const fake: Fake = { events, runs: [], loads: [], terminated: false, interrupts: 0 }
      spawned.push(fake)
      queueMicrotask(() => events.ready({ pythonVersion: '3', pandas: true, bootMs: 1 }))
      return {
        loadTable: (id, json) => fake.loads.push(`${id}=${typeof json === 'string' ? json : `${json.byteLength} bytes`}`),
        dropTable: (id) => fake.loads.push(`drop ${id}`),
        run: (r) => fake.runs.push(r.runId),
        answerQa: () => undefined,
        interrupt: () => {
          fake.interrupts += 1
        },
        terminate: () => {
          fake.terminated = true
        }
      }
    }
  }
}

const ok = (runId: string): string =>
  JSON.stringify({ ok: true, value: { stdout: '', stderr: '', value: null, truncated: false, durationMs: 1, tableKind: 'none', runId } })
const tick = (): Promise<void> => new Promise((done) => setTimeout(done, 0))
const run = (
  runId: string
): { type: 'run'; runId: string; code: string; tableId: null; namedTables: []; timeoutMs: number; maxQaCalls: number } => ({
  type: 'run',
  runId,
  code: '',
  tableId: null,
  namedTables: [],
  timeoutMs: 60_000,
  maxQaCalls: 20
})

describe('the run pool', () => {
  it('gives interpreters a table again when it is reloaded under the same id', async () => {
    const { spawned, spawn } = fakes()
    const pool = new RunPool({ poolSize: 1, loadPandas: false, killGraceMs: 10 }, spawn, () => undefined)
    await tick()
    const first = spawned[0] as Fake
    pool.handle({ type: 'table', tableId: 't', payloadJson: '"v1"' })
    pool.handle({ ...run('a'), tableId: 't' })
    first.events.result('a', ok('a'), false)
    pool.handle({ type: 'table', tableId: 't', payloadJson: '"v2"' })
    pool.handle({ ...run('b'), tableId: 't' })
    expect(first.loads).toEqual(['t="v1"', 't="v2"'])
  })

  it('hands a queued run to a live interpreter, not to the one replaced after a tampering program', async () => {
    const { spawned, spawn } = fakes()
    const out: PageToHost[] = []
    const pool = new RunPool({ poolSize: 1, loadPandas: false, killGraceMs: 10 }, spawn, (m) => out.push(m))
    await tick()
    pool.handle(run('a'))
    pool.handle(run('b'))
    const first = spawned[0] as Fake
    expect(first.runs).toEqual(['a'])
    first.events.result('a', ok('a'), true)
    expect(first.terminated).toBe(true)
    expect(first.runs).toEqual(['a'])
    await tick()
    const second = spawned[1] as Fake
    expect(second.runs).toEqual(['b'])
    second.events.result('b', ok('b'), false)
    expect(out.filter((m) => m.type === 'result').map((m) => m.type === 'result' && m.runId)).toEqual(['a', 'b'])
    pool.dispose()
  })
})

describe('the run pool and big tables', () => {
  afterEach(() => {
    vi.useRealTimers()
  })
  const flush = async (): Promise<void> => {
    await vi.advanceTimersByTimeAsync(0)
  }
  const results = (out: PageToHost[]): Extract<PageToHost, { type: 'result' }>[] =>
    out.filter((m): m is Extract<PageToHost, { type: 'result' }> => m.type === 'result')

  it('loads a table into one idle interpreter as soon as it arrives, and runs it there', async () => {
    vi.useFakeTimers()
    const { spawned, spawn } = fakes()
    const pool = new RunPool({ poolSize: 2, loadPandas: false, killGraceMs: 10 }, spawn, () => undefined)
    await flush()
    pool.handle({ type: 'table', tableId: 't', payloadJson: '"v1"' })
    expect(spawned.map((f) => f.loads)).toEqual([['t="v1"'], []])
    // Another table goes to the other idle interpreter; the run needing it goes to the one that holds it.
    pool.handle({ type: 'table', tableId: 'u', payloadJson: '"u1"' })
    pool.handle({ ...run('a'), tableId: 'u' })
    expect(spawned.map((f) => f.runs)).toEqual([[], ['a']])
    expect(spawned.map((f) => f.loads)).toEqual([['t="v1"'], ['u="u1"']])
    pool.dispose()
  })

  it('loads tables into an interpreter once it has booted', async () => {
    vi.useFakeTimers()
    const { spawned, spawn } = fakes()
    const pool = new RunPool({ poolSize: 1, loadPandas: false, killGraceMs: 10 }, spawn, () => undefined)
    pool.handle({ type: 'table', tableId: 't', payloadJson: '"v1"' })
    expect(spawned[0]?.loads).toEqual([])
    await flush()
    expect(spawned[0]?.loads).toEqual(['t="v1"'])
    pool.dispose()
  })

  it('starts the program clock when the interpreter says the program started, not while it loads', async () => {
    vi.useFakeTimers()
    const { spawned, spawn } = fakes()
    const out: PageToHost[] = []
    const pool = new RunPool({ poolSize: 1, loadPandas: false, killGraceMs: 10 }, spawn, (m) => out.push(m))
    await flush()
    pool.handle({ type: 'table', tableId: 't', payloadJson: '"v1"' })
    pool.handle({ ...run('a'), tableId: 't', timeoutMs: 1_000 })
    const fake = spawned[0] as Fake
    await vi.advanceTimersByTimeAsync(30_000)
    expect(fake.interrupts).toBe(0)
    expect(results(out)).toEqual([])
    fake.events.started('a')
    await vi.advanceTimersByTimeAsync(999)
    expect(fake.interrupts).toBe(0)
    await vi.advanceTimersByTimeAsync(1)
    expect(fake.interrupts).toBe(1)
    await vi.advanceTimersByTimeAsync(10)
    expect(results(out).map((r) => r.result)).toMatchObject([
      { ok: false, error: { code: 'timeout', message: expect.stringMatching(/^Stopped after 1 s/) as unknown } }
    ])
    pool.dispose()
  })

  it('gives up on a load that takes longer than its own limit, with a message that says so', async () => {
    vi.useFakeTimers()
    const { spawned, spawn } = fakes()
    const out: PageToHost[] = []
    const pool = new RunPool({ poolSize: 1, loadPandas: false, killGraceMs: 10, tableLoadLimitMs: 20_000 }, spawn, (m) => out.push(m))
    await flush()
    pool.handle({ type: 'table', tableId: 't', payloadJson: '"v1"' })
    pool.handle({ ...run('a'), tableId: 't', timeoutMs: 1_000 })
    await vi.advanceTimersByTimeAsync(19_999)
    expect(results(out)).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(spawned[0]?.terminated).toBe(true)
    expect(spawned[0]?.interrupts).toBe(0)
    expect(results(out)).toMatchObject([
      {
        runId: 'a',
        killed: true,
        result: {
          ok: false,
          error: { code: 'timeout', message: expect.stringMatching(/^Loading the table into Python took longer than 20 s/) as unknown }
        }
      }
    ])
    // The replacement boots and gets the table again.
    await flush()
    expect(spawned[1]?.loads).toEqual(['t="v1"'])
    pool.dispose()
  })

  it('does not load a table ahead of runs again after an interpreter died holding it', async () => {
    vi.useFakeTimers()
    const { spawned, spawn } = fakes()
    const out: PageToHost[] = []
    const pool = new RunPool({ poolSize: 1, loadPandas: false, killGraceMs: 10 }, spawn, (m) => out.push(m))
    await flush()
    pool.handle({ type: 'table', tableId: 'big', payloadJson: '"huge"' })
    spawned[0]?.events.crash('The Python worker failed: out of memory')
    await flush()
    const second = spawned[1] as Fake
    expect(second.loads).toEqual([])
    // A run that needs it loads it; dying before the program starts is reported as a loading failure.
    pool.handle({ ...run('a'), tableId: 'big' })
    expect(second.loads).toEqual(['big="huge"'])
    second.events.crash('The Python worker failed: out of memory')
    expect(results(out)).toMatchObject([
      {
        runId: 'a',
        result: {
          ok: false,
          error: {
            code: 'executor-crashed',
            message: expect.stringMatching(/while loading the table, probably for lack of memory/) as unknown
          }
        }
      }
    ])
    pool.dispose()
  })

  it('puts a new layout where the old one was, and frees an old layout once its interpreter is idle', async () => {
    vi.useFakeTimers()
    const { spawned, spawn } = fakes()
    const pool = new RunPool({ poolSize: 2, loadPandas: false, killGraceMs: 10 }, spawn, () => undefined)
    await flush()
    const [first, second] = spawned as [Fake, Fake]
    pool.handle({ type: 'table', tableId: 't', payloadJson: '"v1"' })
    pool.handle({ type: 'table', tableId: 't', payloadJson: '"v2"' })
    expect([first.loads, second.loads]).toEqual([['t="v1"', 't="v2"'], []])
    pool.handle({ ...run('a'), tableId: 't' })
    pool.handle({ type: 'table', tableId: 't', payloadJson: '"v3"' })
    expect([first.loads, second.loads]).toEqual([['t="v1"', 't="v2"'], ['t="v3"']])
    first.events.result('a', ok('a'), false)
    expect(first.loads).toEqual(['t="v1"', 't="v2"', 'drop t'])
    pool.dispose()
  })
})
