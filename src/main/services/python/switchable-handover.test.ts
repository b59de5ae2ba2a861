import { describe, expect, it } from 'vitest'
import type { ExecutorState } from '../../../shared/python'
import { SwitchableExecutor } from './switchable'
import { encodeTable, type Executor, type RunOutcome } from './types'

type Fake = Executor & {
  name: string
  loaded: string[]
  dropped: string[]
  closed: boolean
  set: (s: ExecutorState) => void
  /** Runs answered by `finish`, so a test can hold one open. */
  held: (() => void)[]
}

/** An executor whose state the test sets; each run answers with the executor's name once `finish` is called (or at once). */
function fake(name: string, initial: ExecutorState = { state: 'starting', detail: '' }, hold = false): Fake {
  const listeners = new Set<(s: ExecutorState) => void>()
  let state = initial
  const self: Fake = {
    kind: 'pyodide',
    name,
    loaded: [],
    dropped: [],
    closed: false,
    held: [],
    set: (s) => {
      state = s
      for (const l of listeners) l(s)
    },
    start: () => Promise.resolve(null),
    status: () => state,
    onStatus: (l) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    loadTable: (id) => {
      self.loaded.push(id)
      return Promise.resolve()
    },
    dropTable: (id) => {
      self.dropped.push(id)
      return Promise.resolve()
    },
    run: () =>
      new Promise<RunOutcome>((resolve) => {
        const answer = (): void => {
          resolve({ result: { ok: false, error: { code: 'internal', message: name, stdout: '', stderr: '' } }, killed: false, qaCalls: 0 })
          if (hold) self.set({ state: 'ready', pandas: false, pythonVersion: '3' })
        }
        if (hold) {
          self.set({ state: 'busy', runId: 'r' })
          self.held.push(answer)
        } else answer()
      }),
    stop: () => Promise.resolve(false),
    close: () => {
      self.closed = true
      return Promise.resolve()
    }
  }
  return self
}

const READY: ExecutorState = { state: 'ready', pandas: true, pythonVersion: '3' }
const who = (outcome: RunOutcome): string => (outcome.result.ok ? 'ok' : outcome.result.error.message)
const table = { tableId: 't1', payload: encodeTable({ name: 't', columns: [], index: [], values: [] }) }

describe('handing over to an executor with packages', () => {
  it('keeps runs on the old executor until the new one is ready, then sends every run to the new one', async () => {
    const old = fake('old', { state: 'ready', pandas: false, pythonVersion: '3' })
    const next = fake('next')
    const s = new SwitchableExecutor(old)
    const shown: ExecutorState[] = []
    s.onStatus((state) => shown.push(state))
    const done = s.handOver(next, [table])
    expect(who(await s.run({ runId: 'a', code: '', tableId: null }))).toBe('old')
    // A table opened while the new one boots reaches both; so does a close.
    await s.loadTable('t2', table.payload)
    await s.dropTable('t1')
    next.set(READY)
    expect(await done).toBe(true)
    expect(who(await s.run({ runId: 'b', code: '', tableId: null }))).toBe('next')
    expect(next.loaded).toEqual(['t1', 't2'])
    expect(next.dropped).toEqual(['t1'])
    expect(old.closed).toBe(true)
    expect(shown.at(-1)).toEqual(READY)
  })

  it('lets a run still going on the old executor finish before closing it', async () => {
    const old = fake('old', { state: 'ready', pandas: false, pythonVersion: '3' }, true)
    const next = fake('next')
    const s = new SwitchableExecutor(old)
    const going = s.run({ runId: 'a', code: '', tableId: null })
    const done = s.handOver(next, [])
    next.set(READY)
    await new Promise((resolve) => setImmediate(resolve))
    expect(who(await s.run({ runId: 'b', code: '', tableId: null }))).toBe('next')
    expect(old.closed).toBe(false)
    old.held.shift()?.()
    expect(who(await going)).toBe('old')
    expect(await done).toBe(true)
    expect(old.closed).toBe(true)
  })

  it('keeps the old executor when the new one fails to start', async () => {
    const old = fake('old', { state: 'ready', pandas: false, pythonVersion: '3' })
    const next = fake('next')
    const s = new SwitchableExecutor(old)
    const done = s.handOver(next, [])
    next.set({ state: 'error', message: 'no' })
    expect(await done).toBe(false)
    expect(next.closed).toBe(true)
    expect(old.closed).toBe(false)
    expect(who(await s.run({ runId: 'a', code: '', tableId: null }))).toBe('old')
  })

  it('gives way to a switch the user made meanwhile', async () => {
    const old = fake('old', { state: 'ready', pandas: false, pythonVersion: '3' })
    const next = fake('next')
    const chosen = fake('chosen', READY)
    const s = new SwitchableExecutor(old)
    const done = s.handOver(next, [])
    await s.switchTo(chosen, [])
    next.set(READY)
    expect(await done).toBe(false)
    expect(next.closed).toBe(true)
    expect(who(await s.run({ runId: 'a', code: '', tableId: null }))).toBe('chosen')
  })

  it('closes an executor still being readied when the app closes', async () => {
    const next = fake('next')
    const s = new SwitchableExecutor(fake('old', READY))
    const done = s.handOver(next, [])
    await s.close()
    next.set(READY)
    expect(await done).toBe(false)
    expect(next.closed).toBe(true)
  })
})
