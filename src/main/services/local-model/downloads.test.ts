import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { CatalogModel, ModelDownload } from '../../../shared/local-model'
import { ggufBytes, languageModelMetadata } from '../../../../test/support/gguf-writer'
import { startModelFileServer, type ModelFileServer } from '../../../../test/support/model-file-server'
import { partPath } from './download'
import { ModelDownloads } from './downloads'
import { importModelFile } from './import-file'
import { LocalModels } from './models'

// A well-formed GGUF of 4 MB: large enough to be paused in the middle, small enough to be quick.
const bytes = ggufBytes(languageModelMetadata({ 'tokenizer.chat_template': { type: 'string', value: '{{ messages }}' } }), [
  { name: 'w', dims: [1024, 1024], type: 0 }
])
const sha256 = createHash('sha256').update(bytes).digest('hex')
const root = mkdtempSync(join(tmpdir(), 'tableqa-downloads-'))
const source = join(root, 'source.gguf')
writeFileSync(source, bytes)

let server: ModelFileServer
let dataDir: string
beforeAll(async () => {
  server = await startModelFileServer(source)
})
afterAll(async () => {
  await server.close()
  rmSync(root, { recursive: true, force: true })
})
beforeEach(() => {
  server.mode = {}
  server.requests.length = 0
  dataDir = mkdtempSync(join(root, 'data-'))
})

function entry(extra: Partial<CatalogModel> = {}): CatalogModel {
  return {
    id: 'tiny-chat',
    name: 'Tiny Chat',
    description: 'a test model',
    licence: 'none',
    licenceUrl: 'https://example.com/',
    sizeBytes: bytes.length,
    url: server.url,
    fileName: 'tiny-chat.gguf',
    sha256,
    checksumSource: 'the test',
    form: 'chat',
    trainContext: 2048,
    ramBytes: 10_000_000,
    recommended: true,
    ...extra
  }
}

/** Downloads whose every state change is recorded, and a promise for the next state that is not `downloading`/`verifying`. */
function downloads(catalog: CatalogModel[] = [entry()]): {
  models: LocalModels
  manager: ModelDownloads
  seen: ModelDownload[]
  installed: string[]
  settled: () => Promise<ModelDownload>
} {
  const models = new LocalModels(dataDir, catalog)
  const seen: ModelDownload[] = []
  const installed: string[] = []
  let waiting: ((d: ModelDownload) => void) | null = null
  const manager = new ModelDownloads(models, {
    onChange: (d) => {
      seen.push(d)
      if (!['downloading', 'verifying'].includes(d.state)) waiting?.(d)
    },
    onInstalled: (file) => installed.push(file)
  })
  const settled = (): Promise<ModelDownload> => new Promise((resolve) => (waiting = resolve))
  return { models, manager, seen, installed, settled }
}

describe('model downloads in the app', () => {
  it('downloads a catalog model into the models folder, checks it, and says it is installed', async () => {
    const { models, manager, seen, installed, settled } = downloads()
    const done = settled()
    const started = manager.start('tiny-chat')
    expect(started.ok && started.value).toMatchObject({ state: 'downloading', totalBytes: bytes.length })
    expect(await done).toMatchObject({ id: 'tiny-chat', state: 'done', receivedBytes: bytes.length })
    expect(installed).toEqual([join(models.dir, 'tiny-chat.gguf')])
    expect(readFileSync(join(models.dir, 'tiny-chat.gguf')).equals(bytes)).toBe(true)
    expect(models.installed().map((m) => m.catalogId)).toEqual(['tiny-chat'])
    expect(seen.some((d) => d.state === 'downloading' && d.receivedBytes > 0)).toBe(true)
    const again = manager.start('tiny-chat')
    expect(!again.ok && again.error.message).toMatch(/already downloaded/)
  })

  it('pauses, shows the paused download after a restart, and resumes it from where it stopped', async () => {
    server.mode = { chunkDelayMs: 30 }
    const first = downloads()
    first.manager.start('tiny-chat')
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (first.seen.some((d) => d.receivedBytes > 0)) {
          clearInterval(check)
          resolve()
        }
      }, 5)
    })
    expect((await first.manager.pause('tiny-chat')).ok).toBe(true)
    const dest = join(first.models.dir, 'tiny-chat.gguf')
    const kept = statSync(partPath(dest)).size
    expect(kept).toBeGreaterThan(0)
    expect(kept).toBeLessThan(bytes.length)

    // As after a restart of the app: a new manager finds the part file.
    server.mode = {}
    const second = downloads()
    expect(second.manager.list()).toEqual([expect.objectContaining({ id: 'tiny-chat', state: 'paused', receivedBytes: kept })])
    const done = second.settled()
    second.manager.start('tiny-chat')
    expect((await done).state).toBe('done')
    expect(server.requests.at(-1)).toEqual({ range: `bytes=${kept}-` })
    expect(readFileSync(dest).equals(bytes)).toBe(true)
  })

  it('cancels a paused download and deletes what it received', async () => {
    server.mode = { dropAfterBytes: 1_000_000 }
    const { manager, models, settled } = downloads()
    const failed = settled()
    manager.start('tiny-chat')
    const stopped = await failed
    expect(stopped).toMatchObject({ state: 'failed', error: { code: 'download-failed' } })
    const part = partPath(join(models.dir, 'tiny-chat.gguf'))
    expect(existsSync(part)).toBe(true)
    expect((await manager.cancel('tiny-chat')).ok).toBe(true)
    expect(existsSync(part)).toBe(false)
    expect(manager.list()).toEqual([expect.objectContaining({ state: 'cancelled', receivedBytes: 0 })])
  })

  it('discards a download whose checksum is wrong and says so', async () => {
    const { manager, models, settled, installed } = downloads([entry({ sha256: '0'.repeat(64) })])
    const done = settled()
    manager.start('tiny-chat')
    expect(await done).toMatchObject({ state: 'failed', error: { code: 'checksum-mismatch' } })
    expect(installed).toEqual([])
    expect(models.installed()).toEqual([])
  })

  it('refuses an unknown model', () => {
    const { manager } = downloads()
    const r = manager.start('gpt-9')
    expect(!r.ok && r.error).toMatchObject({ code: 'not-found', message: "There is no model 'gpt-9' in the catalog." })
  })
})

describe('using a GGUF file already on this computer', () => {
  it('recognises a catalog model by its SHA-256 and copies it into the models folder under the catalog name', async () => {
    const models = new LocalModels(dataDir, [entry()])
    const r = await importModelFile(source, models, { copy: true })
    expect(r.ok && r.value).toMatchObject({
      copied: true,
      verifiedAs: { id: 'tiny-chat' },
      model: { file: join(models.dir, 'tiny-chat.gguf'), catalogId: 'tiny-chat' }
    })
    expect(existsSync(partPath(join(models.dir, 'tiny-chat.gguf')))).toBe(false)
  })

  it('uses a file where it is, and refuses one that is not a model with the reason', async () => {
    const models = new LocalModels(dataDir, [entry({ sha256: '1'.repeat(64) })])
    const r = await importModelFile(source, models, { copy: false })
    expect(r.ok && r.value).toMatchObject({ copied: false, verifiedAs: null, model: { file: source, form: 'chat' } })
    const text = join(dataDir, 'readme.gguf')
    writeFileSync(text, 'not a model at all, just text')
    const refused = await importModelFile(text, models, { copy: true })
    expect(!refused.ok && refused.error).toMatchObject({
      code: 'model-file',
      message: expect.stringMatching(/not a GGUF model file/) as unknown
    })
  })
})
