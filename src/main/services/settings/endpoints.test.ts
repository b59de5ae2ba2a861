import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MemorySecretStore } from '../model'
import { openFileStore } from '../store/store'
import { EndpointRegistry } from './endpoints'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tableqa-endpoints-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

function open(secrets = new MemorySecretStore()): { registry: EndpointRegistry; secrets: MemorySecretStore; file: string } {
  const { store } = openFileStore(dir, 'settings')
  return { registry: new EndpointRegistry(store, secrets), secrets, file: store.path }
}

const draft = { name: 'Local vLLM', baseUrl: 'http://127.0.0.1:8000/v1/', model: 'starcoder2-15b', api: 'completions' as const }

describe('endpoint registry', () => {
  it('keeps the key in the secret store and never in the settings file', async () => {
    const { registry, secrets, file } = open()
    const saved = await registry.save(draft, 'sk-very-secret-key-123')
    if (!saved.ok) throw new Error(saved.error.message)
    expect(saved.value.baseUrl).toBe('http://127.0.0.1:8000/v1')
    expect(saved.value.apiKeyRef).toBe(`endpoint:${saved.value.id}`)
    expect(await secrets.get(saved.value.apiKeyRef ?? '')).toBe('sk-very-secret-key-123')
    expect(readFileSync(file, 'utf8')).not.toContain('sk-very-secret')
    expect((await registry.views())[0]).toMatchObject({ hasKey: true, isDefault: true, promptTokenBudget: 6_000 })
  })

  it('survives a reopen and finds endpoints by id or by name', async () => {
    const first = open()
    const saved = await first.registry.save(draft)
    if (!saved.ok) throw new Error(saved.error.message)
    const again = open(first.secrets).registry
    expect(again.find('local vllm')?.id).toBe(saved.value.id)
    expect(again.find(saved.value.id)?.model).toBe('starcoder2-15b')
    expect(again.find('other')).toBeUndefined()
  })

  it('updates in place, keeps or removes the key as told, and deletes with the key', async () => {
    const { registry, secrets } = open()
    const saved = await registry.save(draft, 'sk-key-number-one')
    if (!saved.ok) throw new Error(saved.error.message)
    const kept = await registry.save({ ...draft, id: saved.value.id, model: 'other-model' })
    expect(kept.ok && kept.value.apiKeyRef).toBe(saved.value.apiKeyRef)
    expect(registry.list()).toHaveLength(1)
    expect(registry.list()[0]?.model).toBe('other-model')
    const removed = await registry.save({ ...draft, id: saved.value.id }, null)
    expect(removed.ok && removed.value.apiKeyRef).toBeUndefined()
    await registry.save({ ...draft, id: saved.value.id }, 'sk-key-number-two')
    expect((await registry.delete(saved.value.id)).ok).toBe(true)
    expect(await secrets.get(`endpoint:${saved.value.id}`)).toBeNull()
    expect(registry.list()).toEqual([])
    expect((await registry.delete('nope')).ok).toBe(false)
  })

  it('refuses bad endpoints with a specific message', async () => {
    const { registry } = open()
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ name: ' ' }, /name/],
      [{ baseUrl: 'localhost:8000' }, /not a URL|not an http/],
      [{ baseUrl: 'ftp://host/v1' }, /not an http/],
      [{ baseUrl: 'https://user:pw@host/v1' }, /not in the URL/],
      [{ model: '' }, /model/],
      [{ api: 'grpc' }, /API must be/],
      [{ promptTokenBudget: 10 }, /at least 500/]
    ]
    for (const [change, message] of cases) {
      const result = await registry.save({ ...draft, ...change })
      expect(result.ok || result.error.message, JSON.stringify(change)).toMatch(message)
    }
    await registry.save(draft)
    const twin = await registry.save({ ...draft, name: 'LOCAL VLLM' })
    expect(twin.ok || twin.error.message).toMatch(/already named/)
  })

  it('skips stored entries that are not endpoints', () => {
    const { store } = openFileStore(dir, 'settings')
    store.set('endpoints', [
      { id: 'x' },
      'junk',
      { id: 'ok', name: 'A', baseUrl: 'http://a/v1', model: 'm', api: 'chat', timeoutMs: 1, maxRetries: 0, promptTokenBudget: 1000 }
    ])
    const registry = new EndpointRegistry(store, new MemorySecretStore())
    expect(registry.list().map((e) => e.id)).toEqual(['ok'])
  })
})
