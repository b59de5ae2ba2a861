/**
 * The built-in model of one app process: the models on disk, the downloads, and the engine process
 * that runs the chosen model (started on first use).
 */

import type { EngineView, LocalModelsView, ModelDownload } from '../../../shared/local-model'
import type { BuiltinBackend } from '../model/builtin'
import { builtinSettings, saveBuiltin } from '../settings/builtin-endpoint'
import type { KeyValueStore } from '../store/store'
import { ModelDownloads, type DownloadsOptions } from './downloads'
import { EngineHost } from './engine-host'
import type { SpawnEngine } from './engine-protocol'
import { freeDiskBytes, memory, physicalCores } from './hardware'
import { engineStateDir, LocalModels } from './models'

export type BuiltinModelOptions = {
  dataDir: string
  settings: KeyValueStore
  spawn: SpawnEngine
  onDownload?: (download: ModelDownload) => void
  fetch?: DownloadsOptions['fetch']
  catalog?: DownloadsOptions['catalog']
  cancelGraceMs?: number
}

export class BuiltinModel {
  readonly models: LocalModels
  readonly downloads: ModelDownloads
  readonly host: EngineHost

  constructor(private readonly options: BuiltinModelOptions) {
    this.models = new LocalModels(options.dataDir, options.catalog)
    this.host = new EngineHost(options.spawn, options.cancelGraceMs === undefined ? {} : { cancelGraceMs: options.cancelGraceMs })
    this.downloads = new ModelDownloads(this.models, {
      ...(options.onDownload === undefined ? {} : { onChange: options.onDownload }),
      ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
      // The model just downloaded is the one the user wants to run.
      onInstalled: (file) => void saveBuiltin(options.settings, this.models, { kind: 'builtin', builtin: { modelFile: file } })
    })
  }

  backend(): BuiltinBackend {
    return { host: this.host, stateDir: engineStateDir(this.options.dataDir) }
  }

  view(): LocalModelsView {
    const installed = this.models.installed()
    const { totalBytes, freeBytes } = memory()
    return {
      catalog: this.models.catalog.map((m) => ({ ...m, installed: installed.some((i) => i.catalogId === m.id) })),
      installed,
      builtin: this.models.resolve(builtinSettings(this.options.settings)),
      modelsDir: this.models.dir,
      freeDiskBytes: freeDiskBytes(this.models.ensureDir()),
      totalMemoryBytes: totalBytes,
      freeMemoryBytes: freeBytes,
      physicalCores: physicalCores(),
      downloads: this.downloads.list(),
      engine: this.engineView()
    }
  }

  engineView(): EngineView {
    const status = this.host.status()
    const m = status.model
    return {
      state: status.state,
      model: m?.name ?? null,
      backend: m?.backend ?? null,
      gpuLayers: m?.gpuLayers ?? null,
      layers: m?.layers ?? null,
      threads: m?.threads ?? null,
      sequences: m?.sequences ?? null,
      note: status.note ?? m?.note ?? null
    }
  }

  async close(): Promise<void> {
    await this.downloads.close()
    await this.host.close()
  }
}

export { engineStateDir, LocalModels, modelsDir } from './models'
export { nodeEngineSpawner } from './spawn-node'
