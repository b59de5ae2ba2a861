/**
 * Pyodide's package files (the wheels pandas needs inside the sandbox): where they come from, and how far
 * main has got fetching and checking them. Shared by main (which fetches) and the UI (which shows it).
 */

import { fail, ok, type Result } from './result'

/** Where main takes the package files from; every file is checked against the installed lock whatever the source. */
export type PackageSource =
  /** The official Pyodide distribution of exactly the installed `pyodide` version. */
  | { kind: 'official' }
  /** A mirror of that distribution: a base URL the lock's file names are appended to. */
  | { kind: 'url'; url: string }
  /** A local folder holding the files (an unpacked release tarball, a copy from another machine). */
  | { kind: 'dir'; path: string }
  /** Fetch nothing: only files already in the package folders are used (a machine that must not reach out). */
  | { kind: 'off' }

export const DEFAULT_PACKAGE_SOURCE: PackageSource = { kind: 'official' }

/** One file being fetched: which, how far, and where it stands among the files of this round. */
export type DownloadProgress = {
  /** The package's name in the lock file ("numpy"). */
  package: string
  file: string
  /** 0-based position of this file among the `count` being fetched. */
  index: number
  count: number
  /** Bytes of this file on disk so far, a resumed part included. */
  bytes: number
  /** Its full size when the source says, else null. */
  fileBytes: number | null
  /** Bytes of the files this round has already finished. */
  doneBytes: number
}

/** A download's size as shown: KB below a megabyte, MB with one decimal above. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(0, Math.round(bytes / 1024))} KB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

/** Why one file could not be had. */
export type PackageProblem = { file: string; message: string }

/** What main knows about the package files; pushed as `packages:status`. */
export type PackagesState =
  /** Nothing checked yet. */
  | { state: 'idle' }
  /** Checking the files already on disk against the lock. */
  | { state: 'checking' }
  | { state: 'downloading'; from: string; progress: DownloadProgress }
  /** Every file is on disk and matches the lock; `fetched` names the packages this round downloaded. */
  | { state: 'ready'; packages: string[]; fetched: string[] }
  /** Some files are missing: programs get plain Python rows until a retry (on request, or at the next start) brings them. */
  | { state: 'failed'; message: string; missing: string[]; problems: PackageProblem[] }
  /** Some files are missing and fetching is turned off (source `off`): nothing was asked of any server. */
  | { state: 'off'; missing: string[] }

/** The package section of the settings. */
export type PackagesView = {
  source: PackageSource
  /** Base URL of the official distribution of the installed Pyodide. */
  officialUrl: string
  pyodideVersion: string
  /** Folders searched for the files, in order (the download cache first, then the bundled folder). */
  dirs: string[]
  /** Where downloads are stored. */
  cacheDir: string
  /** The packages fetched for pandas (the lock's closure of numpy and pandas). */
  packages: string[]
  state: PackagesState
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined
}

/** A source as the user gave it, checked: a mirror must be an http(s) URL, a folder an absolute path. */
export function checkPackageSource(value: unknown): Result<PackageSource> {
  const kind = field(value, 'kind')
  if (kind === 'official' || kind === 'off') return ok({ kind })
  if (kind === 'url') {
    const raw = field(value, 'url')
    const text = typeof raw === 'string' ? raw.trim() : ''
    let url: URL
    try {
      url = new URL(text)
    } catch {
      return fail('bad-input', 'Give the mirror as a full URL, e.g. https://mirror.example.org/pyodide/v314.0.7/full/.')
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return fail('bad-input', 'The mirror must be an http:// or https:// URL.')
    if (url.search !== '' || url.hash !== '') return fail('bad-input', 'The mirror URL must be a folder, without ? or #.')
    return ok({ kind, url: url.href.endsWith('/') ? url.href : `${url.href}/` })
  }
  if (kind === 'dir') {
    const raw = field(value, 'path')
    const path = typeof raw === 'string' ? raw.trim() : ''
    if (!/^(\/|[A-Za-z]:[\\/]|\\\\)/.test(path))
      return fail('bad-input', 'Give the folder as a full path (starting with / or a drive letter).')
    return ok({ kind, path })
  }
  return fail('bad-input', 'Choose the official Pyodide distribution, a mirror URL, a local folder, or no download.')
}

/** A stored source read defensively: anything malformed is the default. */
export function readPackageSource(value: unknown): PackageSource {
  const checked = checkPackageSource(value)
  return checked.ok ? checked.value : DEFAULT_PACKAGE_SOURCE
}

/** The official distribution's base URL for a Pyodide version (what JupyterLite, marimo and stlite load from). */
export function officialDistributionUrl(version: string): string {
  return `https://cdn.jsdelivr.net/pyodide/v${version}/full/`
}
