import { resolve } from 'node:path'
import { formatBytes, type PackageSource, type PackagesState } from '../../../shared/packages'
import { PackageManager } from './package-manager'
import { pypiLocator } from './package-pypi'
import { officialPackageUrl, pandasPackages, type PackageSet } from './package-source'

/**
 * Filling a package folder from the command line (`setup:python`, `bundle:python`): the same checks,
 * downloads and resumes as the app's first start, reported as lines.
 */

export type FillOptions = {
  /** "official" (default), "pypi", an http(s) URL of a distribution folder, or a local folder. */
  from: string
  /** The folder to fill. */
  target: string
  set?: PackageSet
  stallMs?: number
  log: (line: string) => void
}

/** What `--from` names, in the terms of a package source (PyPI is looked up file by file). */
export function sourceOf(from: string): { source: PackageSource; pypi: boolean } {
  if (from === 'official' || from === '') return { source: { kind: 'official' }, pypi: false }
  if (from === 'pypi') return { source: { kind: 'official' }, pypi: true }
  if (/^https?:\/\//i.test(from)) return { source: { kind: 'url', url: from.endsWith('/') ? from : `${from}/` }, pypi: false }
  return { source: { kind: 'dir', path: resolve(from) }, pypi: false }
}

export async function fillPackageFolder(options: FillOptions): Promise<PackagesState> {
  const { source, pypi } = sourceOf(options.from)
  const stallMs = options.stallMs ?? 60_000
  const manager = new PackageManager({
    set: options.set ?? pandasPackages(),
    cacheDir: options.target,
    bundledDirs: [],
    source: () => source,
    officialUrl: officialPackageUrl(),
    stallMs,
    ...(pypi ? { locate: pypiLocator(process.env.TABLEQA_PYPI_INDEX ?? 'https://pypi.org', stallMs) } : {})
  })
  let current = -1
  let lastBytes = 0
  manager.onStatus((state) => {
    if (state.state !== 'downloading') return
    const { progress } = state
    if (progress.index !== current) {
      // The size of the file before, once it has bytes (a file the source did not give is named at the end).
      if (current >= 0 && lastBytes > 0) options.log(`    ${formatBytes(lastBytes)}`)
      current = progress.index
      options.log(`  [${progress.index + 1}/${progress.count}] ${progress.file} from ${state.from}`)
    }
    lastBytes = progress.bytes
  })
  const final = await manager.ensure()
  if (final.state === 'ready') {
    if (current >= 0 && lastBytes > 0) options.log(`    ${formatBytes(lastBytes)}`)
    const already = final.packages.filter((name) => !final.fetched.includes(name))
    if (already.length > 0) options.log(`  already there and matching the lock: ${already.join(', ')}`)
  } else if (final.state === 'failed') {
    for (const problem of final.problems) options.log(`  missing  ${problem.file}: ${problem.message}`)
  }
  return final
}
