import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { findCatalogModel, loadCatalog, recommendedModel } from './catalog'

const dir = mkdtempSync(join(tmpdir(), 'tableqa-catalog-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function catalogFile(models: unknown[]): string {
  const path = join(dir, `catalog-${Math.random().toString(36).slice(2)}.json`)
  writeFileSync(path, JSON.stringify({ version: 1, models }))
  return path
}

describe('the model catalog', () => {
  it('ships a StarCoder2 completion model and an instruction-tuned code model, one of them the default, each with a checksum', () => {
    const catalog = loadCatalog()
    expect(catalog.some((m) => /starcoder2/i.test(m.id) && m.form === 'completion')).toBe(true)
    expect(catalog.some((m) => /coder/i.test(m.id) && m.form === 'chat')).toBe(true)
    const fallback = recommendedModel(catalog)
    // The default must suit an 8-16 GB laptop.
    expect(fallback.ramBytes).toBeLessThan(8e9)
    for (const m of catalog) {
      expect(m.sha256).toMatch(/^[0-9a-f]{64}$/)
      expect(m.url).toMatch(/^https:\/\/.+\/resolve\/[0-9a-f]{40}\//)
      expect(m.url.endsWith(`/${m.fileName}`)).toBe(true)
    }
    expect(findCatalogModel(' SmolLM2-135M-Instruct ', catalog)?.sizeBytes).toBe(98_362_432)
  })

  it('refuses a malformed catalog with the entry and the field', () => {
    const good = loadCatalog()[0]
    expect(() => loadCatalog(catalogFile([{ ...good, sha256: 'abc' }]))).toThrow(/model 1: "sha256" is not 64 lower-case hex digits/)
    expect(() => loadCatalog(catalogFile([{ ...good, url: 'http://example.com/model.gguf' }]))).toThrow(/"url" is not https/)
    expect(() => loadCatalog(catalogFile([{ ...good, form: 'instruct' }]))).toThrow(/"form" must be one of completion, chat/)
    expect(() => loadCatalog(catalogFile([{ ...good, fileName: '../x.gguf' }]))).toThrow(/plain \.gguf file name/)
    expect(() => loadCatalog(catalogFile([good, good]))).toThrow(/two models have the same id/)
    expect(() => loadCatalog(catalogFile([{ ...good, recommended: false }]))).toThrow(/exactly one model must be "recommended"/)
    // A server on this computer may serve plain http (a local mirror, the tests).
    expect(loadCatalog(catalogFile([{ ...good, url: 'http://127.0.0.1:8080/m.gguf' }]))).toHaveLength(1)
  })
})
