import { existsSync } from 'node:fs'
import { mkdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { DownloadProgress, PackageProblem, PackageSource, PackagesState } from '../../../shared/packages'
import { ok, type Result } from '../../../shared/result'
import { copyFile, downloadFile, matchesHash, type Fetched } from './package-fetch'
import { packageClosure, type LockPackage, type PackageSet } from './package-source'

export type PackageManagerOptions = {
  set: PackageSet
  /** Where downloads are stored (searched first). */
  cacheDir: string
  /** Folders shipped with the app, searched after the cache and never written. */
  bundledDirs: readonly string[]
  /** The source to fetch from, read at the start of each round (the setting can change). */
  source: () => PackageSource
  /** Base URL of the official distribution of the installed Pyodide. */
  officialUrl: string
  /** Longest silence from the source before a download gives up (default 30 s). */
  stallMs?: number
  /**
   * Where each file is found when the source is not a distribution folder (PyPI, for the command line):
   * replaces `source`.
   */
  locate?: { from: string; url: (entry: LockPackage) => Promise<Result<string>> }
}

const PROGRESS_EVERY_MS = 100
/** After these, the source is down or gone: the other files are not tried this round. */
const SOURCE_DOWN = new Set(['package-unreachable', 'timeout', 'cancelled'])

/**
 * The package files pandas needs in the sandbox: checks what is on disk against the lock, fetches what is
 * missing from the chosen source into the cache, and reports each step (`onStatus`). One round runs at a
 * time; the app stays usable throughout (programs get plain rows until the files are there).
 */
export class PackageManager {
  private state: PackagesState = { state: 'idle' }
  private readonly listeners = new Set<(state: PackagesState) => void>()
  private round: Promise<PackagesState> | null = null
  private controller: AbortController | null = null

  constructor(private readonly options: PackageManagerOptions) {}

  status(): PackagesState {
    return this.state
  }

  onStatus(listener: (state: PackagesState) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Folders searched for the files, in order. */
  dirs(): string[] {
    return [this.options.cacheDir, ...this.options.bundledDirs]
  }

  /** Names of the packages fetched for the set (the wanted ones and their dependencies). */
  packages(): string[] {
    return packageClosure(this.options.set).entries.map((e) => e.name)
  }

  /** Check the files and fetch what is missing; a call while a round runs joins it. */
  ensure(): Promise<PackagesState> {
    if (!this.round) {
      const controller = new AbortController()
      this.controller = controller
      this.round = this.check(controller.signal)
        .catch((error: unknown) => this.failed([{ file: '', message: `The package files could not be checked: ${String(error)}` }], []))
        .finally(() => {
          this.round = null
          this.controller = null
        })
    }
    return this.round
  }

  /** Stop the round under way, if any, and start again (after the source changed). */
  async restart(): Promise<PackagesState> {
    const running = this.round
    this.controller?.abort()
    await running
    return this.ensure()
  }

  /** Stop for good (the app is closing). */
  close(): void {
    this.controller?.abort()
    this.listeners.clear()
  }

  private async check(signal: AbortSignal): Promise<PackagesState> {
    this.setState({ state: 'checking' })
    const { entries, unknown } = packageClosure(this.options.set)
    if (unknown.length > 0) {
      const problems = unknown.map((name) => ({ file: name, message: `The lock file lists no usable package named "${name}".` }))
      return this.failed(problems, unknown)
    }
    const missing: LockPackage[] = []
    for (const entry of entries) if (!(await this.present(entry))) missing.push(entry)
    if (missing.length === 0) return this.setState({ state: 'ready', packages: entries.map((e) => e.name), fetched: [] })
    const source = this.options.source()
    if (source.kind === 'off' && !this.options.locate) return this.setState({ state: 'off', missing: missing.map((e) => e.file_name) })
    return this.fetchMissing(entries, missing, source, signal)
  }

  /** Whether a copy that matches the lock is on disk; a cached copy that does not is removed (it is fetched again). */
  private async present(entry: LockPackage): Promise<boolean> {
    for (const dir of this.dirs()) {
      const path = join(dir, entry.file_name)
      if (!existsSync(path)) continue
      if (await matchesHash(path, entry.sha256)) return true
      if (dir === this.options.cacheDir) await rm(path, { force: true })
    }
    return false
  }

  private async fetchMissing(entries: LockPackage[], missing: LockPackage[], source: PackageSource, signal: AbortSignal): Promise<PackagesState> {
    const locate = this.options.locate
    const from = locate?.from ?? (source.kind === 'dir' ? source.path : source.kind === 'url' ? source.url : this.options.officialUrl)
    await mkdir(this.options.cacheDir, { recursive: true })
    const problems: PackageProblem[] = []
    const fetched: string[] = []
    let doneBytes = 0
    for (const [index, entry] of missing.entries()) {
      let shownAt = 0
      const progress = (bytes: number, fileBytes: number | null): void => {
        const now = Date.now()
        if (now - shownAt < PROGRESS_EVERY_MS && bytes !== fileBytes) return
        shownAt = now
        const step: DownloadProgress = { package: entry.name, file: entry.file_name, index, count: missing.length, bytes, fileBytes, doneBytes }
        this.setState({ state: 'downloading', from, progress: step })
      }
      progress(0, null)
      const options = { stallMs: this.options.stallMs ?? 30_000, signal, onBytes: progress }
      const url = locate ? await locate.url(entry) : ok(`${from}${entry.file_name}`)
      const result: Result<Fetched> = !url.ok
        ? url
        : source.kind === 'dir' && !locate
          ? await copyFile(source.path, this.options.cacheDir, entry.file_name, entry.sha256, options)
          : await downloadFile(url.value, this.options.cacheDir, entry.file_name, entry.sha256, options)
      if (signal.aborted) return this.state
      if (result.ok) {
        fetched.push(entry.name)
        doneBytes += result.value.bytes
        continue
      }
      problems.push({ file: entry.file_name, message: result.error.message })
      if (SOURCE_DOWN.has(result.error.code)) {
        for (const rest of missing.slice(index + 1)) problems.push({ file: rest.file_name, message: 'not tried: the source did not answer' })
        break
      }
    }
    if (problems.length === 0) return this.setState({ state: 'ready', packages: entries.map((e) => e.name), fetched })
    return this.failed(problems, problems.map((p) => p.file), from)
  }

  private failed(problems: PackageProblem[], missing: string[], from?: string): PackagesState {
    const [first] = problems
    const more = problems.length > 1 ? ` (${problems.length - 1} more file${problems.length > 2 ? 's' : ''} missing too)` : ''
    const where = from ? ` from ${from}` : ''
    const reason = (first?.message ?? 'unknown problem').replace(/\.$/, '')
    const message = `pandas could not be fetched${where}: ${reason}${more}.`
    return this.setState({ state: 'failed', message, missing, problems })
  }

  private setState(state: PackagesState): PackagesState {
    this.state = state
    for (const listener of this.listeners) listener(state)
    return state
  }
}
