/**
 * Downloads of catalog models in the app: start, pause, resume, cancel, with the state of each for the
 * UI (pushed on every change). A download left paused, or cut off when the app quit, shows as paused
 * the next time and resumes from where it stopped.
 */

import { existsSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { CatalogModel, ModelDownload } from '../../../shared/local-model'
import { fail, ok, type Result } from '../../../shared/result'
import { findCatalogModel } from './catalog'
import { downloadModel, partPath, type DownloadRequest } from './download'
import type { LocalModels } from './models'

export type DownloadsOptions = {
  /** Told of every change of a download's state or progress. */
  onChange?: (download: ModelDownload) => void
  /** Told when a model finished downloading and was verified. */
  onInstalled?: (file: string, model: CatalogModel) => void
  fetch?: DownloadRequest['fetch']
  freeBytes?: DownloadRequest['freeBytes']
  /** Catalog entries to use instead of the shipped catalog (tests serve their own file). */
  catalog?: CatalogModel[]
}

export class ModelDownloads {
  private readonly states = new Map<string, ModelDownload>()
  private readonly running = new Map<string, { controller: AbortController; finished: Promise<void> }>()

  constructor(
    private readonly models: LocalModels,
    private readonly options: DownloadsOptions = {}
  ) {}

  private catalog(): CatalogModel[] {
    return this.options.catalog ?? this.models.catalog
  }

  private dest(model: CatalogModel): string {
    return join(this.models.dir, model.fileName)
  }

  /** Running and stopped downloads, and downloads a part file on disk shows were left unfinished. */
  list(): ModelDownload[] {
    for (const model of this.catalog()) {
      if (this.states.has(model.id)) continue
      const part = partPath(this.dest(model))
      if (existsSync(part) && !existsSync(this.dest(model))) {
        const received = statSync(part).size
        this.states.set(model.id, {
          id: model.id,
          state: 'paused',
          receivedBytes: received,
          totalBytes: model.sizeBytes,
          bytesPerSecond: 0,
          secondsLeft: null
        })
      }
    }
    return [...this.states.values()]
  }

  private set(download: ModelDownload): void {
    this.states.set(download.id, download)
    this.options.onChange?.(download)
  }

  /** Starts a download, or resumes a paused one. Resolves at once; progress comes through `onChange`. */
  start(id: string): Result<ModelDownload> {
    const model = findCatalogModel(id, this.catalog())
    if (model === undefined) return fail('not-found', `There is no model '${id}' in the catalog.`)
    const current = this.states.get(model.id)
    if (this.running.has(model.id) && current !== undefined) return ok(current)
    if (existsSync(this.dest(model))) return fail('bad-input', `${model.name} is already downloaded.`)
    this.models.ensureDir()
    const controller = new AbortController()
    const first: ModelDownload = {
      id: model.id,
      state: 'downloading',
      receivedBytes: current?.receivedBytes ?? 0,
      totalBytes: model.sizeBytes,
      bytesPerSecond: 0,
      secondsLeft: null
    }
    this.set(first)
    const finished = downloadModel({
      url: model.url,
      sha256: model.sha256,
      sizeBytes: model.sizeBytes,
      dest: this.dest(model),
      signal: controller.signal,
      ...(this.options.fetch === undefined ? {} : { fetch: this.options.fetch }),
      ...(this.options.freeBytes === undefined ? {} : { freeBytes: this.options.freeBytes }),
      onProgress: (p) =>
        this.set({
          id: model.id,
          state: p.phase === 'verifying' ? 'verifying' : 'downloading',
          receivedBytes: p.receivedBytes,
          totalBytes: p.totalBytes,
          bytesPerSecond: p.bytesPerSecond,
          secondsLeft: p.secondsLeft
        })
    }).then((result) => {
      this.running.delete(model.id)
      const last = this.states.get(model.id) ?? first
      if (!result.ok) return this.set({ ...last, state: 'failed', bytesPerSecond: 0, secondsLeft: null, error: result.error })
      const outcome = result.value
      switch (outcome.state) {
        case 'done':
          this.set({ ...last, state: 'done', receivedBytes: model.sizeBytes, bytesPerSecond: 0, secondsLeft: 0 })
          this.options.onInstalled?.(outcome.file, model)
          return
        case 'paused':
          return this.set({ ...last, state: 'paused', receivedBytes: outcome.receivedBytes, bytesPerSecond: 0, secondsLeft: null })
        case 'cancelled':
          return this.set({ ...last, state: 'cancelled', receivedBytes: 0, bytesPerSecond: 0, secondsLeft: null })
      }
    })
    this.running.set(model.id, { controller, finished })
    return ok(first)
  }

  async pause(id: string): Promise<Result<null>> {
    const run = this.running.get(id)
    if (run === undefined) return fail('not-found', 'That download is not running.')
    run.controller.abort('pause')
    await run.finished
    return ok(null)
  }

  /** Stops a download and deletes what it received. */
  async cancel(id: string): Promise<Result<null>> {
    const run = this.running.get(id)
    if (run !== undefined) {
      run.controller.abort('cancel')
      await run.finished
      return ok(null)
    }
    const model = findCatalogModel(id, this.catalog())
    const state = this.states.get(id)
    if (model === undefined || state === undefined) return fail('not-found', 'There is no such download.')
    rmSync(partPath(this.dest(model)), { force: true })
    this.set({ ...state, state: 'cancelled', receivedBytes: 0, bytesPerSecond: 0, secondsLeft: null })
    return ok(null)
  }

  /** Stops running downloads, keeping what they received (the app is closing). */
  async close(): Promise<void> {
    const runs = [...this.running.values()]
    for (const r of runs) r.controller.abort('pause')
    await Promise.all(runs.map((r) => r.finished))
  }
}
