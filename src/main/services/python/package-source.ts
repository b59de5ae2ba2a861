import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { officialDistributionUrl } from '../../../shared/packages'
import { appRoot } from '../paths'

/**
 * Which package files pandas needs inside Pyodide and where they may lie. The lock file that ships with the
 * installed `pyodide` package is the trust anchor: it names every file and its sha256, and nothing
 * downloaded can change either.
 */

/** What the sandbox loads for pandas; the lock adds their dependencies (python-dateutil, pytz, six). */
export const PANDAS_PACKAGES = ['numpy', 'pandas'] as const

/** The part of a lock entry read here. */
export type LockPackage = { name: string; version?: string; file_name: string; sha256: string; depends: string[] }

export type PyodideLock = { info: Record<string, string>; packages: Record<string, LockPackage | undefined> }

/** Packages to fetch and load: a lock file and the names wanted from it (their dependencies come along). */
export type PackageSet = {
  /** The lock file on disk; the executor page is served exactly this file. */
  lockPath: string
  lock: PyodideLock
  wanted: readonly string[]
}

function pyodideDir(): string {
  return join(appRoot(), 'node_modules', 'pyodide')
}

/** The installed Pyodide's version, from its package.json: the one version the distribution URL is derived from. */
export function pyodideVersion(): string {
  const manifest = JSON.parse(readFileSync(join(pyodideDir(), 'package.json'), 'utf8')) as { version?: unknown }
  if (typeof manifest.version !== 'string') throw new Error('node_modules/pyodide/package.json names no version')
  return manifest.version
}

/** The official distribution of exactly the installed Pyodide. */
export function officialPackageUrl(): string {
  return officialDistributionUrl(pyodideVersion())
}

export function installedLockPath(): string {
  return join(pyodideDir(), 'pyodide-lock.json')
}

/** Reads a lock file; throws with the path when it is not one. */
export function readLockFile(path: string): PyodideLock {
  const value = JSON.parse(readFileSync(path, 'utf8')) as unknown
  const packages = (value as { packages?: unknown } | null)?.packages
  const info = (value as { info?: unknown } | null)?.info
  if (typeof packages !== 'object' || packages === null || typeof info !== 'object' || info === null) {
    throw new Error(`${path} is not a Pyodide lock file (no "info" and "packages")`)
  }
  return { info: info as Record<string, string>, packages: packages as PyodideLock['packages'] }
}

/** Reads the installed lock file (the trust anchor). */
export function readPyodideLock(): PyodideLock {
  return readLockFile(installedLockPath())
}

/** numpy and pandas from the installed lock. */
export function pandasPackages(): PackageSet {
  const lockPath = installedLockPath()
  return { lockPath, lock: readLockFile(lockPath), wanted: PANDAS_PACKAGES }
}

/** A lock file name that stays inside the folder it is stored in. */
function plainFileName(name: unknown): name is string {
  return typeof name === 'string' && /^[\w.+-]+\.(whl|zip|tar)$/.test(name) && !name.startsWith('.')
}

/**
 * The lock entries of the wanted packages and their dependencies, dependencies first; `unknown` names
 * what the lock lacks or describes unusably (no plain file name, no sha256).
 */
export function packageClosure(set: PackageSet): { entries: LockPackage[]; unknown: string[] } {
  const entries = new Map<string, LockPackage>()
  const unknown: string[] = []
  const seen = new Set<string>()
  const visit = (name: string): void => {
    if (seen.has(name)) return
    seen.add(name)
    const entry = set.lock.packages[name]
    if (!entry || !plainFileName(entry.file_name) || typeof entry.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(entry.sha256)) {
      unknown.push(name)
      return
    }
    for (const dep of Array.isArray(entry.depends) ? entry.depends : []) if (typeof dep === 'string') visit(dep)
    entries.set(name, { ...entry, name })
  }
  for (const name of set.wanted) visit(name)
  return { entries: [...entries.values()], unknown }
}

/** Where downloads are stored. */
export function packageCacheDir(dataDir: string): string {
  return join(dataDir, 'pyodide-packages')
}

/** Folders shipped with the app (`npm run bundle:python` fills the first; a packaged app may carry them as resources). */
export function bundledPackageDirs(): string[] {
  const dirs = [join(appRoot(), 'resources', 'pyodide-packages')]
  // Set by Electron in a packaged app: extra resources live beside app.asar.
  const resources = (process as { resourcesPath?: unknown }).resourcesPath
  if (typeof resources === 'string' && resources !== '') dirs.push(join(resources, 'pyodide-packages'))
  return dirs
}

/**
 * Package folders searched in order: the download cache first (only checked files are ever stored there,
 * and it is where a bad bundled copy gets replaced), then the bundled folders.
 */
export function packageDirs(dataDir: string): string[] {
  return [packageCacheDir(dataDir), ...bundledPackageDirs()]
}

/** The set's files (or names the lock lacks) present in none of `dirs`; empty: everything can load. Existence only: main checks hashes. */
export function missingWheels(set: PackageSet, dirs: readonly string[]): string[] {
  const { entries, unknown } = packageClosure(set)
  return [...unknown, ...entries.filter((e) => !dirs.some((dir) => existsSync(join(dir, e.file_name)))).map((e) => e.file_name)]
}

/** The file names the set may load: the executor page is served these and no other package file. */
export function servedFileNames(set: PackageSet): Set<string> {
  return new Set(packageClosure(set).entries.map((e) => e.file_name))
}
