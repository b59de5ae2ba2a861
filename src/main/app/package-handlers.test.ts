import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PackageManager } from '../services/python/package-manager'
import { readLockFile } from '../services/python/package-source'
import type { KeyValueStore } from '../services/store/store'
import { createPackageHandlers, PACKAGES_SETTINGS_KEY, storedPackageSource } from './package-handlers'

function memoryStore(): KeyValueStore {
  const data = new Map<string, unknown>()
  return { path: ':memory:', get: <T>(key: string) => data.get(key) as T | undefined, set: (key, value) => void data.set(key, value) }
}

/** A one-package lock in a fresh folder (`root`), and handlers over a manager for it. */
function setup(): { handlers: ReturnType<typeof createPackageHandlers>; store: KeyValueStore; manager: PackageManager; root: string } {
  const root = mkdtempSync(join(tmpdir(), 'tableqa-pkg-handlers-'))
  const lockPath = join(root, 'pyodide-lock.json')
  writeFileSync(
    lockPath,
    JSON.stringify({ info: {}, packages: { a: { name: 'a', file_name: 'a-1-py3-none-any.whl', sha256: '0'.repeat(64), depends: [] } } })
  )
  const store = memoryStore()
  const manager = new PackageManager({
    set: { lockPath, lock: readLockFile(lockPath), wanted: ['a'] },
    cacheDir: join(root, 'cache'),
    bundledDirs: [join(root, 'bundled')],
    source: () => storedPackageSource(store),
    officialUrl: 'https://cdn.invalid/pyodide/v1/full/'
  })
  const handlers = createPackageHandlers({ manager, store, officialUrl: 'https://cdn.invalid/pyodide/v1/full/', pyodideVersion: '1' })
  return { handlers, store, manager, root }
}

describe('package handlers', () => {
  it('show the official distribution by default, with the folders searched', async () => {
    const { handlers, root } = setup()
    const got = await handlers['packages:get']()
    expect(got.ok && got.value).toEqual({
      source: { kind: 'official' },
      officialUrl: 'https://cdn.invalid/pyodide/v1/full/',
      pyodideVersion: '1',
      dirs: [join(root, 'cache'), join(root, 'bundled')],
      cacheDir: join(root, 'cache'),
      packages: ['a'],
      state: { state: 'idle' }
    })
  })

  it('store a mirror and fetch from it at once', async () => {
    const { handlers, store, manager } = setup()
    const set = await handlers['packages:setSource']({ source: { kind: 'url', url: 'http://127.0.0.1:9/full' } })
    expect(set.ok && set.value.source).toEqual({ kind: 'url', url: 'http://127.0.0.1:9/full/' })
    expect(store.get(PACKAGES_SETTINGS_KEY)).toEqual({ source: { kind: 'url', url: 'http://127.0.0.1:9/full/' } })
    const final = await manager.ensure()
    expect(final.state === 'failed' && final.message).toMatch(
      /^pandas could not be fetched from http:\/\/127\.0\.0\.1:9\/full\/: .*could not be reached/
    )
  })

  it('refuse a folder that is not there, and a malformed source, keeping what was stored', async () => {
    const { handlers, store, root } = setup()
    const missing = await handlers['packages:setSource']({ source: { kind: 'dir', path: join(root, 'nowhere') } })
    expect(missing).toEqual({ ok: false, error: { code: 'bad-input', message: `There is no folder at ${join(root, 'nowhere')}.` } })
    const bad = await handlers['packages:setSource']({ source: { kind: 'url', url: 'not a url' } })
    expect(!bad.ok && bad.error.code).toBe('bad-input')
    expect(store.get(PACKAGES_SETTINGS_KEY)).toBeUndefined()
  })

  it('store no download, after which a round asks no server', async () => {
    const { handlers, store, manager } = setup()
    const set = await handlers['packages:setSource']({ source: { kind: 'off' } })
    expect(set.ok && set.value.source).toEqual({ kind: 'off' })
    expect(store.get(PACKAGES_SETTINGS_KEY)).toEqual({ source: { kind: 'off' } })
    expect(await manager.ensure()).toEqual({ state: 'off', missing: ['a-1-py3-none-any.whl'] })
  })

  it('retry at once, answering with the round under way', async () => {
    const { handlers, manager } = setup()
    const retried = await handlers['packages:retry']()
    expect(retried.ok && retried.value.state.state).toBe('checking')
    expect((await manager.ensure()).state).toBe('failed')
  })
})
