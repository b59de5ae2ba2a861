/// <reference lib="webworker" />
/**
 * The package step of an interpreter's boot, through Pyodide's documented mechanism: the lock file and
 * `packageBaseUrl` given to `loadPyodide`, then `loadPackage` by name. Everything comes from the page's
 * own origin (`indexURL`), where main serves the lock it checked every file against and those files only;
 * the page's policy refuses any other origin, so a package cannot be fetched from anywhere else.
 */

import { readLock, type LockLike } from '../../shared/boot-steps'

type PackageLoader = {
  loadPackage(names: string[], options?: { messageCallback?: (m: string) => void; errorCallback?: (m: string) => void }): Promise<unknown>
}

/** The lock file as served: its JSON for Pyodide and the part the boot plan reads; null when it cannot be read. */
export type ServedLock = { json: unknown; lock: LockLike }

export async function fetchLock(indexURL: string): Promise<ServedLock | null> {
  try {
    const response = await fetch(`${indexURL}pyodide-lock.json`)
    if (!response.ok) return null
    const json: unknown = await response.json()
    const lock = readLock(json)
    return lock ? { json, lock } : null
  } catch {
    return null
  }
}

/** The `loadPyodide` options that make packages load from the served lock, with files resolved beside it. */
export function packageOptions(indexURL: string, served: ServedLock | null): { lockFileContents?: string; packageBaseUrl: string } {
  return served ? { lockFileContents: JSON.stringify(served.json), packageBaseUrl: indexURL } : { packageBaseUrl: indexURL }
}

/**
 * Load one package (its dependencies are loaded before it, in plan order). A failed `loadPackage`
 * resolves instead of throwing, so callers check the import itself.
 */
export async function loadPackage(py: PackageLoader, name: string): Promise<void> {
  await py.loadPackage([name], { messageCallback: () => {}, errorCallback: () => {} })
}
