import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { appRoot } from '../paths'

/** The wheels pandas needs inside Pyodide, as named in Pyodide's lock file. */
export const PANDAS_PACKAGES = ['numpy', 'pandas', 'python-dateutil', 'pytz', 'six'] as const

export type LockPackage = { name: string; file_name: string; sha256: string; depends: string[] }

export function readPyodideLock(): { info: Record<string, string>; packages: Record<string, LockPackage> } {
  const path = join(appRoot(), 'node_modules', 'pyodide', 'pyodide-lock.json')
  return JSON.parse(readFileSync(path, 'utf8')) as { info: Record<string, string>; packages: Record<string, LockPackage> }
}

/** Package folders searched in order: the bundled folder, then the user's cache. */
export function packageDirs(dataDir: string): string[] {
  return [join(appRoot(), 'resources', 'pyodide-packages'), join(dataDir, 'pyodide-packages')]
}

/** Which pandas wheels are missing from every package folder (empty: pandas can load). */
export function missingPandasWheels(dirs: string[]): string[] {
  const lock = readPyodideLock()
  return PANDAS_PACKAGES.filter((name) => {
    const entry = lock.packages[name]
    return !entry || !dirs.some((dir) => existsSync(join(dir, entry.file_name)))
  }).map((name) => lock.packages[name]?.file_name ?? name)
}

/** Where `setup:python` takes wheels from: a folder, a base URL (a Pyodide distribution), or PyPI. */
export type PackageOrigin = { kind: 'dir'; path: string } | { kind: 'url'; base: string } | { kind: 'pypi'; index: string }

export type FetchReport = { file: string; status: 'present' | 'fetched' | 'missing' | 'bad-hash'; detail: string }

/** The lock entries pandas needs, dependencies included, in dependency order. */
export function pandasClosure(): LockPackage[] {
  const lock = readPyodideLock()
  const seen = new Map<string, LockPackage>()
  const visit = (name: string): void => {
    const entry = lock.packages[name]
    if (!entry || seen.has(name)) return
    for (const dep of entry.depends) visit(dep)
    seen.set(name, entry)
  }
  for (const name of PANDAS_PACKAGES) visit(name)
  return [...seen.values()]
}
