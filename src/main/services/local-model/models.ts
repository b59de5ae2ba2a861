/**
 * The models on disk: GGUF files in `<data folder>/models/` (downloads land there) and files the user
 * picked elsewhere, read through their headers; and which one the built-in endpoint runs.
 */

import { mkdirSync, readdirSync, statSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import type { BuiltinModelState, CatalogModel, InstalledModel } from '../../../shared/local-model'
import type { BuiltinSettings } from '../../../shared/model'
import { ok, type Result } from '../../../shared/result'
import { loadCatalog } from './catalog'
import { promptFormOf, readGguf } from './gguf'

export const DEFAULT_CONTEXT = 8192

export function modelsDir(dataDir: string): string {
  return join(dataDir, 'models')
}

/** Where the engine keeps the evaluated fixed part of prompts between starts (see prefix-cache.ts). */
export function engineStateDir(dataDir: string): string {
  return join(dataDir, 'engine-cache')
}

export class LocalModels {
  readonly dir: string
  private readonly headers = new Map<string, { stamp: string; result: Result<InstalledModel> }>()

  constructor(
    readonly dataDir: string,
    readonly catalog: CatalogModel[] = loadCatalog()
  ) {
    this.dir = modelsDir(dataDir)
  }

  ensureDir(): string {
    mkdirSync(this.dir, { recursive: true })
    return this.dir
  }

  /** The file as a model, read once per version of the file (size and modification time). */
  inspect(file: string): Result<InstalledModel> {
    const path = resolve(file)
    let stamp: string
    try {
      const s = statSync(path)
      stamp = `${s.size}:${s.mtimeMs}`
    } catch {
      stamp = 'missing'
    }
    const cached = this.headers.get(path)
    if (cached !== undefined && cached.stamp === stamp) return cached.result
    const header = readGguf(path)
    let result: Result<InstalledModel>
    if (!header.ok) result = header
    else {
      const entry = this.catalog.find((m) => m.fileName === basename(path) && m.sizeBytes === header.value.fileBytes)
      result = ok({
        file: path,
        name: entry?.name ?? header.value.name,
        sizeBytes: header.value.fileBytes,
        architecture: header.value.architecture,
        form: promptFormOf(header.value),
        trainContext: header.value.trainContext,
        catalogId: entry?.id ?? null
      })
    }
    this.headers.set(path, { stamp, result })
    return result
  }

  /** The usable GGUF files in the models folder: catalog models first, in catalog order, then the rest by name. */
  installed(): InstalledModel[] {
    let names: string[]
    try {
      names = readdirSync(this.dir).filter((n) => n.toLowerCase().endsWith('.gguf'))
    } catch {
      return []
    }
    const found = names.map((n) => this.inspect(join(this.dir, n))).flatMap((r) => (r.ok ? [r.value] : []))
    const rank = (m: InstalledModel): number => {
      const i = this.catalog.findIndex((c) => c.id === m.catalogId)
      const recommended = this.catalog[i]?.recommended === true
      return recommended ? -1 : i < 0 ? this.catalog.length : i
    }
    return found.sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name))
  }

  /** The model the built-in endpoint runs with these settings, or why there is none. */
  resolve(settings: BuiltinSettings): BuiltinModelState {
    if (settings.modelFile !== null && settings.modelFile !== '') {
      const chosen = this.inspect(settings.modelFile)
      return chosen.ok
        ? { state: 'ready', model: chosen.value }
        : { state: 'invalid', file: settings.modelFile, message: chosen.error.message }
    }
    const first = this.installed()[0]
    if (first !== undefined) return { state: 'ready', model: first }
    return {
      state: 'missing',
      message: 'No model is installed for the built-in endpoint: download one, or use a GGUF file you already have.'
    }
  }
}
