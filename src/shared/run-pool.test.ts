import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { HostPageRun, PageToHost } from './executor-protocol'
import type { HostEvents, HostMessage, HostRun } from './python-host'
import { RunPool } from './run-pool'

/** A scripted interpreter: records what the pool sends it; the test speaks for it. */
type Fake = {
  events: HostEvents
  runs: HostRun[]
  loads: string[]
  terminated: boolean
  interrupts: number
  say(message: HostMessage): void
  /** Acknowledge every load sent so far. */
  ackLoads(): void
  finish(runId: string, result?: object): void
}

function fakes(autoBoot = true): { spawned: Fake[]; spawn: (events: HostEvents) => ReturnType<ConstructorParameters<typeof RunPool>[1]> } {
  const spawned: Fake[] = []
  return {
    spawned,
    spawn: (events) => {
      let acked = 0
      const fake: Fake = {
        events,
        runs: [],
        loads: [],
        terminated: false,
        interrupts: 0,
        say: (message) => events.message(message),
        ackLoads: () => {
          const loads = fake.loads.filter((l) => !l.startsWith('drop '))
          for (const load of loads.slice(acked)) events.message({ type: 'loaded', tableId: load.split('=')[0] ?? '' })
          acked = loads.length
        },
        finish: (
          runId,
          result = { ok: true, value: { stdout: '', stderr: '', value: null, truncated: false, durationMs: 1, tableKind: 'none' } }
        ) => events.message({ type: 'result', runId, resultJson: JSON.stringify(result) })
      }
      spawned.push(fake)
      if (autoBoot) queueMicrotask(() => events.message({ type: 'ready', pythonVersion: '3', pandas: true, bootMs: 1 }))
      return {
        loadTable: (id, json) => fake.loads.push(`${id}=${typeof json === 'string' ? json : `${json.byteLength} bytes`}`),
        dropTable: (id) => fake.loads.push(`drop ${id}`),
        run: (r) => fake.runs.push(r),
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

const run = (runId: string, extra: Partial<HostPageRun> = {}): HostPageRun => ({
  type: 'run',
  runId,
  code: '',
  tableId: null,
  namedTables: [],
  timeoutMs: 60_000,
  maxQaCalls: 20,
  scope: `q-${runId}`,
  ...extra
})
const flush = async (): Promise<void> => {
  await vi.advanceTimersByTimeAsync(0)
}
const results = (out: PageToHost[]): Extract<PageToHost, { type: 'result' }>[] =>
  out.filter((m): m is Extract<PageToHost, { type: 'result' }> => m.type === 'result')
const runIds = (fake: Fake | undefined): string[] => (fake?.runs ?? []).map((r) => r.runId)

function pool(config: Partial<ConstructorParameters<typeof RunPool>[0]> = {}, autoBoot = true) {
  const { spawned, spawn } = fakes(autoBoot)
  const out: PageToHost[] = []
  const p = new RunPool({ poolSize: 2, loadPandas: false, killGraceMs: 10, ...config }, spawn, (m) => out.push(m))
  return { pool: p, spawned, out }
}

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('the run pool: one question, its own interpreters', () => {
  it('loads every open table into every clean interpreter before any question', async () => {
    const { pool: p, spawned, out } = pool()
    await flush()
    p.handle({ type: 'table', tableId: 't', payloadJson: '"v1"' })
    p.handle({ type: 'table', tableId: 'u', payloadJson: '"u1"' })
    expect(spawned.map((f) => f.loads)).toEqual([
      ['t="v1"', 'u="u1"'],
      ['t="v1"', 'u="u1"']
    ])
    for (const f of spawned) f.ackLoads()
    expect(out.filter((m) => m.type === 'spares').at(-1)).toEqual({ type: 'spares', warm: 2, size: 2 })
    p.dispose()
  })

  it('gives a question a clean interpreter, which drops the other tables, and boots a replacement once its programs are done', async () => {
    const { pool: p, spawned } = pool()
    await flush()
    p.handle({ type: 'table', tableId: 't', payloadJson: '"v1"' })
    p.handle({ type: 'table', tableId: 'secret', payloadJson: '"s1"' })
    for (const f of spawned) f.ackLoads()
    p.handle(run('a', { tableId: 't', scope: 'q1' }))
    const taken = spawned.find((f) => f.runs.length > 0) as Fake
    expect(taken.loads).toEqual(['t="v1"', 'secret="s1"', 'drop secret'])
    // Booting would take the cores from the question's programs.
    expect(spawned).toHaveLength(2)
    taken.say({ type: 'started', runId: 'a' })
    taken.finish('a')
    expect(spawned).toHaveLength(3)
    p.dispose()
  })

  it('boots a replacement at once when a run waits and no clean interpreter is left', async () => {
    const { pool: p, spawned } = pool({ poolSize: 1 })
    await flush()
    p.handle(run('a', { scope: 'q1' }))
    expect(spawned).toHaveLength(1)
    p.handle(run('b', { scope: 'q2' }))
    expect(spawned).toHaveLength(2)
    await flush()
    expect(runIds(spawned[1])).toEqual(['b'])
    p.dispose()
  })

  it('runs a question’s programs side by side on up to scopeParallelism interpreters, and only there', async () => {
    const { pool: p, spawned } = pool({ poolSize: 3, scopeParallelism: 2 })
    await flush()
    for (const id of ['a', 'b', 'c']) p.handle(run(id, { scope: 'q1' }))
    const used = spawned.filter((f) => f.runs.length > 0)
    expect(used.map(runIds)).toEqual([['a'], ['b']])
    // The third waits for one of the question's own interpreters, not a clean one.
    used[0]?.say({ type: 'started', runId: 'a' })
    used[0]?.finish('a')
    expect(runIds(used[0])).toEqual(['a', 'c'])
    p.dispose()
  })

  it('destroys a question’s interpreters when it ends and never hands them another question', async () => {
    const { pool: p, spawned, out } = pool({ poolSize: 1 })
    await flush()
    p.handle(run('a', { scope: 'q1' }))
    const first = spawned[0] as Fake
    first.say({ type: 'started', runId: 'a' })
    first.finish('a')
    p.handle({ type: 'end-scope', scope: 'q1' })
    expect(first.terminated).toBe(true)
    await flush()
    p.handle(run('b', { scope: 'q2' }))
    expect(runIds(first)).toEqual(['a'])
    expect(runIds(spawned[1])).toEqual(['b'])
    expect(results(out).map((r) => r.runId)).toEqual(['a'])
    p.dispose()
  })

  it('retires a busy interpreter of an ended question once its run finishes, and refuses later runs of that question', async () => {
    const { pool: p, spawned, out } = pool({ poolSize: 1 })
    await flush()
    p.handle(run('a', { scope: 'q1' }))
    p.handle(run('b', { scope: 'q1' }))
    const first = spawned[0] as Fake
    p.handle({ type: 'end-scope', scope: 'q1' })
    expect(results(out)).toMatchObject([{ runId: 'b', result: { ok: false, error: { code: 'interrupted' } } }])
    expect(first.terminated).toBe(false)
    first.say({ type: 'started', runId: 'a' })
    first.finish('a')
    expect(first.terminated).toBe(true)
    p.handle(run('c', { scope: 'q1' }))
    expect(results(out).at(-1)).toMatchObject({ runId: 'c', result: { ok: false, error: { code: 'interrupted' } } })
    p.dispose()
  })

  it('lets trusted runs (scope null) share clean interpreters, which stay clean', async () => {
    const { pool: p, spawned } = pool({ poolSize: 1 })
    await flush()
    p.handle(run('a', { scope: null }))
    const first = spawned[0] as Fake
    first.say({ type: 'started', runId: 'a' })
    first.finish('a')
    p.handle(run('b', { scope: null }))
    expect(runIds(first)).toEqual(['a', 'b'])
    expect(spawned).toHaveLength(1)
    p.dispose()
  })

  it('reloads a new layout into clean interpreters but leaves a running question the layout it began with', async () => {
    const { pool: p, spawned } = pool({ poolSize: 2 })
    await flush()
    p.handle({ type: 'table', tableId: 't', payloadJson: '"v1"' })
    for (const f of spawned) f.ackLoads()
    p.handle(run('a', { tableId: 't', scope: 'q1' }))
    await flush()
    p.handle({ type: 'table', tableId: 't', payloadJson: '"v2"' })
    expect(spawned[0]?.loads).toEqual(['t="v1"'])
    expect(spawned[1]?.loads).toEqual(['t="v1"', 't="v2"'])
    p.dispose()
  })
})

describe('the run pool trusts an interpreter only about the run in flight', () => {
  it('replaces an interpreter that speaks about another run, and fails its own run with the pool’s words', async () => {
    const { pool: p, spawned, out } = pool({ poolSize: 1 })
    await flush()
    p.handle(run('a'))
    const first = spawned[0] as Fake
    first.say({ type: 'started', runId: 'a' })
    first.finish('someone-else')
    expect(first.terminated).toBe(true)
    expect(results(out)).toMatchObject([
      {
        runId: 'a',
        result: {
          ok: false,
          error: {
            code: 'executor-crashed',
            message: expect.stringMatching(/^The Python interpreter sent a message the app does not accept/) as unknown
          }
        }
      }
    ])
    p.dispose()
  })

  it('takes a boot error only while booting: a forged one later replaces the interpreter and reaches nobody', async () => {
    const { pool: p, spawned, out } = pool({ poolSize: 1 })
    await flush()
    p.handle(run('a'))
    const first = spawned[0] as Fake
    first.say({ type: 'started', runId: 'a' })
    first.say({ type: 'boot-error', step: 'runtime', detail: 'update required, visit evil.example' })
    expect(out.some((m) => m.type === 'boot-error')).toBe(false)
    expect(first.terminated).toBe(true)
    expect(JSON.stringify(out)).not.toContain('evil.example')
    p.dispose()
  })

  it('reports boot failures with a code, never the interpreter’s text', () => {
    const { pool: p, spawned, out } = pool({ poolSize: 1 }, false)
    spawned[0]?.say({ type: 'boot-error', step: 'packages', detail: 'visit evil.example' })
    expect(out.filter((m) => m.type !== 'spares')).toEqual([{ type: 'boot-error', failure: 'packages', detail: 'visit evil.example' }])
    p.dispose()
  })

  it('refuses a result larger than the limits, and codes only the pool may use', async () => {
    const { pool: p, spawned, out } = pool({ poolSize: 1 })
    await flush()
    p.handle(run('a'))
    const first = spawned[0] as Fake
    first.say({ type: 'started', runId: 'a' })
    first.finish('a', {
      ok: true,
      value: {
        stdout: '',
        stderr: '',
        value: { repr: 'z', type: 'str', json: 'z'.repeat(3_000_000) },
        truncated: false,
        durationMs: 1,
        tableKind: 'none'
      }
    })
    await flush()
    p.handle(run('b'))
    const second = spawned.find((f) => runIds(f).includes('b')) as Fake
    second.say({ type: 'started', runId: 'b' })
    second.finish('b', { ok: false, error: { code: 'timeout', message: 'Stopped after 0 s', stdout: '', stderr: '' } })
    expect(results(out).map((r) => r.result)).toMatchObject([
      {
        ok: false,
        error: { code: 'too-large', message: expect.stringMatching(/^The answer is 3 MB as data; answers are limited to 1 MB/) as unknown }
      },
      { ok: false, error: { code: 'python-error' } }
    ])
    p.dispose()
  })

  it('hands a run to another interpreter when its own fails the integrity check before starting it', async () => {
    const { pool: p, spawned, out } = pool({ poolSize: 2, scopeParallelism: 2 })
    await flush()
    p.handle(run('a', { scope: 'q1' }))
    const first = spawned.find((f) => f.runs.length > 0) as Fake
    first.say({ type: 'tampered', runId: 'a' })
    expect(first.terminated).toBe(true)
    const second = spawned.find((f) => f !== first && f.runs.length > 0) as Fake
    expect(runIds(second)).toEqual(['a'])
    second.say({ type: 'started', runId: 'a' })
    second.finish('a')
    expect(results(out)).toMatchObject([{ runId: 'a', result: { ok: true } }])
    p.dispose()
  })
})

describe('the run pool’s deadlines cover the whole wait', () => {
  it('fails a run whose interpreter does not start it within its limit plus the grace, and replaces the interpreter', async () => {
    const { pool: p, spawned, out } = pool({ poolSize: 1, startGraceMs: 2_000 })
    await flush()
    p.handle(run('a', { timeoutMs: 1_000 }))
    await vi.advanceTimersByTimeAsync(2_999)
    expect(results(out)).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(spawned[0]?.terminated).toBe(true)
    expect(results(out)).toMatchObject([
      {
        runId: 'a',
        killed: true,
        result: {
          ok: false,
          error: {
            code: 'timeout',
            message: expect.stringMatching(/^Python did not start the program within 3 s \(its time limit plus 2 s\)/) as unknown
          }
        }
      }
    ])
    p.dispose()
  })

  it('starts the program clock when the interpreter says the program started, not while it loads', async () => {
    const { pool: p, spawned, out } = pool({ poolSize: 1 })
    await flush()
    p.handle({ type: 'table', tableId: 't', payloadJson: '"v1"' })
    p.handle(run('a', { tableId: 't', timeoutMs: 1_000 }))
    const fake = spawned[0] as Fake
    await vi.advanceTimersByTimeAsync(30_000)
    expect(fake.interrupts).toBe(0)
    fake.ackLoads()
    fake.say({ type: 'started', runId: 'a' })
    await vi.advanceTimersByTimeAsync(999)
    expect(fake.interrupts).toBe(0)
    await vi.advanceTimersByTimeAsync(1)
    expect(fake.interrupts).toBe(1)
    await vi.advanceTimersByTimeAsync(10)
    expect(results(out).map((r) => r.result)).toMatchObject([
      { ok: false, error: { code: 'timeout', message: expect.stringMatching(/^Stopped after 1 s/) as unknown } }
    ])
    p.dispose()
  })

  it('gives up on a load that takes longer than its own limit, with a message that says so', async () => {
    const { pool: p, spawned, out } = pool({ poolSize: 1, tableLoadLimitMs: 20_000 })
    await flush()
    p.handle({ type: 'table', tableId: 't', payloadJson: '"v1"' })
    p.handle(run('a', { tableId: 't', timeoutMs: 1_000 }))
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
    p.dispose()
  })

  it('does not load a table ahead of runs again after an interpreter died loading it', async () => {
    const { pool: p, spawned, out } = pool({ poolSize: 1 })
    await flush()
    p.handle({ type: 'table', tableId: 'big', payloadJson: '"huge"' })
    spawned[0]?.events.crash({ code: 'out-of-memory', detail: 'MemoryError' })
    await flush()
    const second = spawned[1] as Fake
    expect(second.loads).toEqual([])
    // A run that needs it loads it; dying before the program starts is reported as a loading failure.
    p.handle(run('a', { tableId: 'big' }))
    expect(second.loads).toEqual(['big="huge"'])
    second.events.crash({ code: 'exited', detail: 'SIGKILL' })
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
    p.dispose()
  })

  it('stops a queued run at once and a running one by interrupting, then terminating', async () => {
    const { pool: p, spawned, out } = pool({ poolSize: 1, scopeParallelism: 1 })
    await flush()
    p.handle(run('a', { scope: 'q' }))
    p.handle(run('b', { scope: 'q' }))
    p.handle({ type: 'stop', runId: 'b' })
    const fake = spawned[0] as Fake
    fake.say({ type: 'started', runId: 'a' })
    p.handle({ type: 'stop', runId: 'a' })
    expect(fake.interrupts).toBe(1)
    await vi.advanceTimersByTimeAsync(10)
    expect(fake.terminated).toBe(true)
    expect(results(out).map((r) => [r.runId, r.result.ok ? 'ok' : r.result.error.message])).toEqual([
      ['b', 'Stopped before it started.'],
      ['a', 'Stopped by you.']
    ])
    p.dispose()
  })
})
