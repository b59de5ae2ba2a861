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
