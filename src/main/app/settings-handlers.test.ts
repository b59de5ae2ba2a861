import { describe, expect, it } from 'vitest'
import type { ExecutorState } from '../../shared/python'
import { DEFAULT_APP_SETTINGS, type ExecutorChoice } from '../../shared/settings'
import { probePython } from '../services/python/cpython-channel'
import { SwitchableExecutor } from '../services/python/switchable'
import { encodeTable, type Executor } from '../services/python/types'
import type { KeyValueStore } from '../services/store/store'
import type { RunRequest } from '../services/python/types'
import { createSettingsHandlers, defaultRunTimeout, storedAppSettings, withStoredQaTimeout } from './settings-handlers'

function memoryStore(): KeyValueStore {
  const data = new Map<string, unknown>()
  return { path: ':memory:', get: <T>(key: string) => data.get(key) as T | undefined, set: (key, value) => void data.set(key, value) }
}

function stubExecutor(kind: Executor['kind']): Executor & { tables: string[] } {
  const tables: string[] = []
  return {
    kind,
    tables,
    start: () => Promise.resolve(null),
    status: (): ExecutorState => ({ state: 'starting', detail: '' }),
    onStatus: () => () => {},
    loadTable: (id) => {
      tables.push(id)
      return Promise.resolve()
    },
    dropTable: () => Promise.resolve(),
    run: () => Promise.reject(new Error('not used')),
    stop: () => Promise.resolve(false),
    close: () => Promise.resolve()
  }
}

function setup(probe: typeof probePython = probePython) {
  const store = memoryStore()
  const executor = new SwitchableExecutor(stubExecutor('pyodide'))
  const created: (Executor & { tables: string[] })[] = []
  const handlers = createSettingsHandlers({
    store,
    executor,
    tables: () => [{ tableId: 'a', payload: encodeTable({}) }],
    createExecutor: (choice: ExecutorChoice) => {
      const next = stubExecutor(choice.kind)
      created.push(next)
      return next
    },
    probe
  })
  return { store, executor, created, handlers }
}

describe('settings handlers', () => {
  it('start from the Pyodide sandbox', async () => {
    const { handlers } = setup()
    const got = await handlers['settings:get']()
    expect(got.ok && got.value).toEqual({
      settings: DEFAULT_APP_SETTINGS,
      active: 'pyodide',
      python: null
    })
  })

  it('refuse an interpreter without pandas, with a clear message, and keep the sandbox', async () => {
    const { handlers, store, created } = setup(() => Promise.resolve({ ok: true, version: '3.12.1', pandas: null }))
    const set = await handlers['settings:set']({ settings: { executor: { kind: 'cpython', python: '/usr/bin/python3.12' } } })
    expect(set.ok).toBe(false)
    if (!set.ok) {
      expect(set.error.code).toBe('bad-input')
      expect(set.error.message).toMatch(/no pandas/)
    }
    expect(storedAppSettings(store).executor.kind).toBe('pyodide')
    expect(created).toHaveLength(0)
  })

  it('refuse a path that does not run', async () => {
    const { handlers } = setup()
    const set = await handlers['settings:set']({ settings: { executor: { kind: 'cpython', python: '/no/such/python' } } })
    expect(!set.ok && set.error.message).toMatch(/could not be used/)
    const blank = await handlers['settings:set']({ settings: { executor: { kind: 'cpython', python: '  ' } } })
    expect(!blank.ok && blank.error.code).toBe('bad-input')
  })

  it('store a good choice, switch with the open tables, and switch back', async () => {
    const { handlers, store, executor, created } = setup(() => Promise.resolve({ ok: true, version: '3.11.2', pandas: '2.2.0' }))
    const set = await handlers['settings:set']({ settings: { executor: { kind: 'cpython', python: ' python3 ' } } })
    expect(set.ok && set.value).toMatchObject({
      settings: { executor: { kind: 'cpython', python: 'python3' } },
      active: 'cpython',
      python: { version: '3.11.2', pandas: '2.2.0' }
    })
    expect(store.get('app')).toEqual({ ...DEFAULT_APP_SETTINGS, executor: { kind: 'cpython', python: 'python3' } })
    expect(executor.kind).toBe('cpython')
    expect(created[0]?.tables).toEqual(['a'])

    const again = await handlers['settings:set']({ settings: { executor: { kind: 'cpython', python: 'python3' } } })
    expect(again.ok).toBe(true)
    expect(created).toHaveLength(1)

    const back = await handlers['settings:set']({ settings: { executor: { kind: 'pyodide' } } })
    expect(back.ok && back.value.active).toBe('pyodide')
    expect(created).toHaveLength(2)
  })

  it('round-trip sampling and time limits through set and get', async () => {
    const { handlers, created } = setup()
    const settings = {
      executor: { kind: 'pyodide' as const },
      sampling: { n: 3, temperature: 0.2, selection: 'vote' as const, score: 'mean' as const },
      timeouts: { runMs: 5_000, qaMs: 90_000 }
    }
    const set = await handlers['settings:set']({ settings })
    expect(set.ok && set.value.settings).toEqual(settings)
    const got = await handlers['settings:get']()
    expect(got.ok && got.value.settings).toEqual(settings)
    expect(created).toHaveLength(0)
    // Leaving sampling and time limits out keeps them.
    await handlers['settings:set']({ settings: { executor: { kind: 'pyodide' } } })
    const kept = await handlers['settings:get']()
    expect(kept.ok && kept.value.settings).toEqual(settings)
  })

  it('refuse out-of-range values with a clear message and keep what was stored', async () => {
    const { handlers, store } = setup()
    const base = DEFAULT_APP_SETTINGS
    const cases: [Parameters<(typeof handlers)['settings:set']>[0]['settings'], RegExp][] = [
      [{ ...base, sampling: { ...base.sampling, n: 0 } }, /Samples must be a whole number from 1 to 20/],
      [{ ...base, sampling: { ...base.sampling, n: 21 } }, /Samples/],
      [{ ...base, sampling: { ...base.sampling, n: 2.5 } }, /Samples/],
      [{ ...base, sampling: { ...base.sampling, temperature: 2.5 } }, /Temperature must be between 0 and 2/],
      [{ ...base, sampling: { ...base.sampling, temperature: -0.1 } }, /Temperature/],
      [{ ...base, timeouts: { ...base.timeouts, runMs: 500 } }, /run time limit must be between 1 second and 10 minutes/],
      [{ ...base, timeouts: { ...base.timeouts, runMs: 10 * 60_000 + 1 } }, /run time limit/]
    ]
    for (const [settings, message] of cases) {
      const set = await handlers['settings:set']({ settings })
      expect(set.ok).toBe(false)
      if (!set.ok) {
        expect(set.error.code).toBe('bad-input')
        expect(set.error.message).toMatch(message)
      }
    }
    expect(store.get('app')).toBeUndefined()
  })

  it('give python:run the stored run time limit when a request names none', async () => {
    const { handlers, store } = setup()
    expect(defaultRunTimeout(store, 12_345)).toBe(12_345)
    await handlers['settings:set']({ settings: { ...DEFAULT_APP_SETTINGS, timeouts: { runMs: 45_000, qaMs: 60_000 } } })
    expect(defaultRunTimeout(store, 12_345)).toBe(45_000)
    const broken: KeyValueStore = {
      path: ':memory:',
      get: () => {
        throw new Error('unreadable')
      },
      set: () => {}
    }
    expect(defaultRunTimeout(broken, 12_345)).toBe(12_345)
  })

  it('give question runs the stored QA call limit unless they name one', async () => {
    const { handlers, store, executor } = setup()
    const seen: RunRequest[] = []
    const inner = stubExecutor('pyodide')
    inner.run = (request) => {
      seen.push(request)
      return Promise.reject(new Error('stub'))
    }
    const wrapped = withStoredQaTimeout(inner, store)
    await handlers['settings:set']({ settings: { ...DEFAULT_APP_SETTINGS, timeouts: { runMs: 30_000, qaMs: 7_000 } } })
    await expect(wrapped.run({ runId: 'a', code: '1', tableId: null })).rejects.toThrow('stub')
    await expect(wrapped.run({ runId: 'b', code: '1', tableId: null, qaTimeoutMs: 2_000 })).rejects.toThrow('stub')
    expect(seen.map((r) => r.qaTimeoutMs)).toEqual([7_000, 2_000])
    expect(wrapped.kind).toBe('pyodide')
    expect(withStoredQaTimeout(executor, store).kind).toBe(executor.kind)
  })
})
