import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import Conf from 'conf'

/** One store interface for settings and history: electron-store in Electron, a file store elsewhere. */
export type KeyValueStore = {
  get<T>(key: string): T | undefined
  set(key: string, value: unknown): void
  /** The file behind the store, shown to the user. */
  readonly path: string
}

/** What opening a store found: a corrupt file is moved aside, never silently lost. */
export type StoreOpening = { store: KeyValueStore; recovered: { backup: string; reason: string } | null }

/**
 * Open (or create) `<dir>/<name>.json`. If the file does not parse, it is renamed to
 * `<name>.corrupt-<time>.json` and a fresh store is started; the caller reports the backup.
 * Writes are atomic (temp file + rename), so a kill mid-write leaves the previous version.
 */
export function openFileStore(dir: string, name: string): StoreOpening {
  mkdirSync(dir, { recursive: true })
  const path = join(dir, `${name}.json`)
  removeStaleTempFiles(dir, name)
  const recovered = quarantineIfCorrupt(path, dir, name)
  const conf = new Conf<Record<string, unknown>>({ cwd: dir, configName: name, projectName: 'tableqa-studio', clearInvalidConfig: false })
  return {
    recovered,
    store: {
      path: conf.path,
      get: <T>(key: string) => conf.get(key) as T | undefined,
      set: (key, value) => conf.set(key, value)
    }
  }
}

/**
 * A write killed between creating its temp file and renaming it leaves `<name>.json.tmp-*` behind; the
 * store itself is intact (the rename never happened), so the leftovers are only clutter.
 */
export function removeStaleTempFiles(dir: string, name: string): void {
  for (const entry of readdirSync(dir)) {
    if (entry.startsWith(`${name}.json.tmp-`) || (entry.startsWith(`${name}.json.`) && entry.endsWith('.tmp')))
      rmSync(join(dir, entry), { force: true })
  }
}

/** Move an unreadable store file aside; returns where it went. Shared with the Electron store. */
export function quarantineIfCorrupt(path: string, dir: string, name: string): { backup: string; reason: string } | null {
  if (!existsSync(path)) return null
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'))
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return null
    return moveAside(path, dir, name, 'the file is JSON but not an object')
  } catch (error) {
    return moveAside(path, dir, name, error instanceof Error ? error.message : String(error))
  }
}

function moveAside(path: string, dir: string, name: string, reason: string): { backup: string; reason: string } {
  const backup = join(dir, `${name}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}.json`)
  renameSync(path, backup)
  return { backup, reason }
}
