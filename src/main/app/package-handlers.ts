import { stat } from 'node:fs/promises'
import type { Handlers } from '../../shared/api'
import { checkPackageSource, readPackageSource, type PackageSource, type PackagesView } from '../../shared/packages'
import { fail, ok } from '../../shared/result'
import type { PackageManager } from '../services/python/package-manager'
import type { KeyValueStore } from '../services/store/store'

/** Settings-store key of the package source. */
export const PACKAGES_SETTINGS_KEY = 'packages'

export type PackageDeps = {
  manager: PackageManager
  store: KeyValueStore
  officialUrl: string
  pyodideVersion: string
}

type PackageHandlers = Pick<Handlers, 'packages:get' | 'packages:setSource' | 'packages:retry'>

/** The stored package source (the official distribution when none is stored or it is malformed). */
export function storedPackageSource(store: KeyValueStore): PackageSource {
  try {
    return readPackageSource(store.get<{ source?: unknown }>(PACKAGES_SETTINGS_KEY)?.source)
  } catch {
    return readPackageSource(undefined)
  }
}

export function createPackageHandlers(deps: PackageDeps): PackageHandlers {
  const view = (): PackagesView => {
    const dirs = deps.manager.dirs()
    return {
      source: storedPackageSource(deps.store),
      officialUrl: deps.officialUrl,
      pyodideVersion: deps.pyodideVersion,
      dirs,
      cacheDir: dirs[0] ?? '',
      packages: deps.manager.packages(),
      state: deps.manager.status()
    }
  }

  return {
    'packages:get': () => Promise.resolve(ok(view())),
    'packages:setSource': async (request) => {
      const checked = checkPackageSource(request?.source)
      if (!checked.ok) return checked
      const source = checked.value
      if (source.kind === 'dir') {
        const isDir = await stat(source.path).then(
          (info) => info.isDirectory(),
          () => false
        )
        if (!isDir) return fail('bad-input', `There is no folder at ${source.path}.`)
      }
      try {
        deps.store.set(PACKAGES_SETTINGS_KEY, { source })
      } catch (error) {
        return fail('store-error', 'The package source could not be saved.', String(error))
      }
      void deps.manager.restart()
      return ok(view())
    },
    'packages:retry': () => {
      void deps.manager.ensure()
      return Promise.resolve(ok(view()))
    }
  }
}
