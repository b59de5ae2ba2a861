import { fail, ok, type Result } from '../../../shared/result'
import type { LockPackage } from './package-source'

/**
 * PyPI as a place to look for the lock's files (`setup:python -- --from pypi`): the file of exactly the
 * lock's name, found through the simple JSON API. The sha256 check still decides: Pyodide rebuilds even
 * its pure-Python wheels, so a PyPI file of the same name usually differs from the one the lock names.
 */
export function pypiLocator(index: string, stallMs: number): { from: string; url: (entry: LockPackage) => Promise<Result<string>> } {
  const base = index.replace(/\/+$/, '')
  return {
    from: `${base}/simple/`,
    url: async (entry) => {
      const project = entry.name.toLowerCase().replace(/[-_.]+/g, '-')
      let listing: { files?: { filename?: unknown; url?: unknown }[] }
      try {
        const response = await fetch(`${base}/simple/${project}/`, {
          headers: { accept: 'application/vnd.pypi.simple.v1+json' },
          signal: AbortSignal.timeout(stallMs)
        })
        if (!response.ok) return fail('package-http', `PyPI answered HTTP ${response.status} for ${project}.`)
        listing = (await response.json()) as typeof listing
      } catch (error) {
        return fail('package-unreachable', `PyPI (${base}) could not be reached: ${error instanceof Error ? error.message : String(error)}.`)
      }
      const files = (listing.files ?? []).filter(
        (f): f is { filename: string; url: string } => typeof f.filename === 'string' && typeof f.url === 'string'
      )
      const file = files.find((f) => f.filename === entry.file_name)
      if (file) return ok(new URL(file.url, `${base}/simple/${project}/`).href)
      const wasm = files.filter((f) => /emscripten|wasm32/.test(f.filename)).map((f) => f.filename)
      const tag = /-(py[^-]*emscripten[^-.]*|pyodide[^-.]*)\.whl$/.exec(entry.file_name)?.[1] ?? 'this Pyodide'
      return fail(
        'package-missing',
        `PyPI lists ${files.length} files for ${project} and not ${entry.file_name}; WebAssembly wheels there: ${
          wasm.length === 0 ? 'none' : wasm.slice(-4).join(', ')
        } (none for ${tag}).`
      )
    }
  }
}
