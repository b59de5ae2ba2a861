import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ggufBytes, languageModelMetadata } from '../../../../test/support/gguf-writer'
import { LocalModels } from '../local-model/models'
import { MemorySecretStore } from '../model'
import { openFileStore } from '../store/store'
import { EndpointRegistry } from './endpoints'
import { BUILTIN_ID, promptBudget } from './builtin-endpoint'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tableqa-builtin-endpoint-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

function open(): { registry: EndpointRegistry; models: LocalModels } {
  const models = new LocalModels(dir, [])
  return { registry: new EndpointRegistry(openFileStore(dir, 'settings').store, new MemorySecretStore(), models), models }
}

/** A small but well-formed GGUF language model; with a chat template unless told otherwise. */
function fakeModel(path: string, chat = true, name = 'Tiny Chat'): string {
  mkdirSync(join(path, '..'), { recursive: true })
  const extra: Parameters<typeof languageModelMetadata>[0] = chat
    ? { 'tokenizer.chat_template': { type: 'string', value: '{{ messages }}' } }
    : {}
  writeFileSync(path, ggufBytes(languageModelMetadata({ ...extra, 'general.name': { type: 'string', value: name } })))
  return path
}

const server = { name: 'Local vLLM', baseUrl: 'http://127.0.0.1:8000/v1', model: 'starcoder2-15b', api: 'completions' as const }

describe('the built-in endpoint in the registry', () => {
  it('is listed first and is the default while no other endpoint exists, and says that it has no model yet', async () => {
    const { registry } = open()
    expect(registry.defaultId()).toBe(BUILTIN_ID)
    const [view, ...rest] = await registry.views()
    expect(rest).toEqual([])
    expect(view).toMatchObject({ id: BUILTIN_ID, kind: 'builtin', name: 'On this computer', isDefault: true, hasKey: false })
    expect(view?.builtinState).toMatchObject({
      state: 'missing',
      message: expect.stringMatching(/download one, or use a GGUF file/) as unknown
    })
  })

  it('runs the first model in the models folder, in chat or completion form as its header says', () => {
    const { registry, models } = open()
    fakeModel(join(models.dir, 'base.gguf'), false, 'Base Coder')
    const config = registry.get(BUILTIN_ID)
    expect(config).toMatchObject({ model: 'Base Coder', api: 'completions', maxRetries: 0 })
    expect(config?.builtin).toEqual({ modelFile: join(models.dir, 'base.gguf'), contextSize: 2048, threads: 0, gpu: 'auto' })
    // The context is capped at what the model was trained for (2048 in the fake header), and the prompt budget follows.
    expect(config?.promptTokenBudget).toBe(promptBudget(2048))
    expect(registry.builtinState()?.state).toBe('ready')
  })

  it('saves a chosen file, context size and threads, and refuses what the engine could not use', async () => {
    const { registry } = open()
    const chat = fakeModel(join(dir, 'elsewhere', 'chat.gguf'))
    const saved = await registry.save({ kind: 'builtin', builtin: { modelFile: chat, contextSize: 4096, threads: 2 } })
    expect(saved.ok && saved.value).toMatchObject({
      api: 'chat',
      model: 'Tiny Chat',
      builtin: { modelFile: chat, contextSize: 2048, threads: 2 }
    })
    const notModel = join(dir, 'notes.gguf')
    writeFileSync(notModel, 'just some text')
    const refused = await registry.save({ kind: 'builtin', builtin: { modelFile: notModel } })
    expect(!refused.ok && refused.error).toMatchObject({
      code: 'model-file',
      message: expect.stringMatching(/not a GGUF model file/) as unknown
    })
    const small = await registry.save({ kind: 'builtin', builtin: { contextSize: 100 } })
    expect(!small.ok && small.error.message).toMatch(/context size must be a whole number of tokens from 1024/)
    const threads = await registry.save({ kind: 'builtin', builtin: { threads: -1 } })
    expect(!threads.ok && threads.error.message).toMatch(/Threads must be a whole number from 0/)
    const gpu = await registry.save({ kind: 'builtin', builtin: { gpu: 'tpu' as 'cpu' } })
    expect(!gpu.ok && gpu.error.message).toMatch(/must be 'auto' \(the GPU when there is one\) or 'cpu'/)
    const cpu = await registry.save({ kind: 'builtin', builtin: { gpu: 'cpu' } })
    expect(cpu.ok && cpu.value.builtin?.gpu).toBe('cpu')
    // What was refused changed nothing.
    expect(registry.get(BUILTIN_ID)?.builtin).toMatchObject({ modelFile: chat, threads: 2, gpu: 'cpu' })
  })

  it('says which file is wrong when the chosen model has gone', async () => {
    const { registry } = open()
    const chat = fakeModel(join(dir, 'elsewhere', 'chat.gguf'))
    expect((await registry.save({ kind: 'builtin', builtin: { modelFile: chat } })).ok).toBe(true)
    rmSync(chat)
    expect(registry.builtinState()).toMatchObject({
      state: 'invalid',
      file: chat,
      message: expect.stringMatching(/does not exist/) as unknown
    })
  })

  it('gives way as the default to the first server added, and comes back when it is made the default', async () => {
    const { registry } = open()
    const added = await registry.save(server)
    if (!added.ok) throw new Error(added.error.message)
    expect(registry.defaultId()).toBe(added.value.id)
    expect(registry.list().map((e) => e.id)).toEqual([BUILTIN_ID, added.value.id])
    expect(registry.setDefault(BUILTIN_ID).ok).toBe(true)
    expect(registry.defaultId()).toBe(BUILTIN_ID)
  })

  it('cannot be deleted or shadowed by a server of the same name or id, and is found as "builtin"', async () => {
    const { registry } = open()
    expect((await registry.delete(BUILTIN_ID)).ok).toBe(false)
    expect((await registry.save({ ...server, name: 'builtin' })).ok).toBe(false)
    expect((await registry.save({ ...server, name: 'On this computer' })).ok).toBe(false)
    expect((await registry.save({ ...server, id: BUILTIN_ID })).ok).toBe(false)
    expect(registry.find('builtin')?.kind).toBe('builtin')
    expect(registry.find('on this computer')?.id).toBe(BUILTIN_ID)
  })

  it('is absent from a registry without local models (as before)', () => {
    const registry = new EndpointRegistry(openFileStore(dir, 'settings').store, new MemorySecretStore())
    expect(registry.list()).toEqual([])
    expect(registry.defaultId()).toBeNull()
    expect(registry.builtinState()).toBeNull()
  })
})
