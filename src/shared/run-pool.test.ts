import { describe, expect, it } from 'vitest'
import type { PageToHost } from './executor-protocol'
import type { Interpreter, InterpreterEvents } from './run-pool'
import { RunPool } from './run-pool'

type Fake = { events: InterpreterEvents; runs: string[]; loads: string[]; terminated: boolean }

/** Interpreters that boot at once and finish a run only when the test says so. */
function fakes(): { spawned: Fake[]; spawn: (events: InterpreterEvents) => Interpreter } {
  const spawned: Fake[] = []
  return {
    spawned,
    spawn: (events) => {
      const fake: Fake = { events, runs: [], loads: [], terminated: false }
      spawned.push(fake)
      queueMicrotask(() => events.ready({ pythonVersion: '3', pandas: true, bootMs: 1 }))
      return {
        loadTable: (id, json) => fake.loads.push(`${id}=${json}`),
        dropTable: (id) => fake.loads.push(`drop ${id}`),
        run: (r) => fake.runs.push(r.runId),
        answerQa: () => undefined,
        interrupt: () => undefined,
        terminate: () => {
          fake.terminated = true
        }
      }
    }
  }
}

const ok = (runId: string): string => JSON.stringify({ ok: true, value: { stdout: '', stderr: '', value: null, truncated: false, durationMs: 1, tableKind: 'none', runId } })
const tick = (): Promise<void> => new Promise((done) => setTimeout(done, 0))
const run = (runId: string): { type: 'run'; runId: string; code: string; tableId: null; namedTables: []; timeoutMs: number; maxQaCalls: number } => ({ type: 'run', runId, code: '', tableId: null, namedTables: [], timeoutMs: 60_000, maxQaCalls: 20 })

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
