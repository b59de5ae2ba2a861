import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { appRoot } from '../paths'
import { ExecutorAssets } from './assets'
import { missingWheels, officialPackageUrl, packageClosure, packageDirs, pandasPackages, readLockFile, type PackageSet } from './package-source'

const lockOf = (packages: Record<string, unknown>): PackageSet => {
  const dir = mkdtempSync(join(tmpdir(), 'tableqa-lock-'))
  const lockPath = join(dir, 'pyodide-lock.json')
  writeFileSync(lockPath, JSON.stringify({ info: { abi_version: 'x' }, packages }))
  return { lockPath, lock: readLockFile(lockPath), wanted: ['b'] }
}
const SHA = 'a'.repeat(64)

describe('the package source', () => {
  it('derives the official distribution from the installed pyodide package, never a second copy of its version', () => {
    const version = (JSON.parse(readFileSync(join(appRoot(), 'node_modules', 'pyodide', 'package.json'), 'utf8')) as { version: string }).version
    expect(officialPackageUrl()).toBe(`https://cdn.jsdelivr.net/pyodide/v${version}/full/`)
  })

  it('takes from the installed lock numpy, pandas and everything they depend on, dependencies first', () => {
    const names = packageClosure(pandasPackages()).entries.map((e) => e.name)
    expect(new Set(names)).toEqual(new Set(['numpy', 'pandas', 'python-dateutil', 'pytz', 'six']))
    expect(names.indexOf('six')).toBeLessThan(names.indexOf('python-dateutil'))
    expect(names.at(-1)).toBe('pandas')
  })

  it('names packages the lock lacks or describes unusably, never a path outside the folder', () => {
    const set = lockOf({
      b: { name: 'b', file_name: 'b-1-py3-none-any.whl', sha256: SHA, depends: ['c', 'd', 'e'] },
      c: { name: 'c', file_name: '../../etc/c.whl', sha256: SHA, depends: [] },
      d: { name: 'd', file_name: 'd-1-py3-none-any.whl', sha256: 'short', depends: [] }
    })
    const { entries, unknown } = packageClosure(set)
    expect(entries.map((e) => e.name)).toEqual(['b'])
    expect(unknown).toEqual(['c', 'd', 'e'])
    expect(missingWheels(set, [])).toEqual(['c', 'd', 'e', 'b-1-py3-none-any.whl'])
  })

  it('searches the download cache first, then the bundled folder', () => {
    expect(packageDirs('/data')).toEqual(['/data/pyodide-packages', join(appRoot(), 'resources', 'pyodide-packages')])
  })

  it('serves the page the given lock and only the files it names, from the package folders', () => {
    const set = lockOf({ b: { name: 'b', file_name: 'b-1-py3-none-any.whl', sha256: SHA, depends: [] } })
    const dir = mkdtempSync(join(tmpdir(), 'tableqa-pkgdir-'))
    writeFileSync(join(dir, 'b-1-py3-none-any.whl'), 'wheel')
    writeFileSync(join(dir, 'other-1-py3-none-any.whl'), 'not named')
    const assets = new ExecutorAssets({ packageDirs: [dir], packages: set })
    const lock = assets.resolve('/pyodide/pyodide-lock.json')
    expect(lock?.size).toBe(readFileSync(set.lockPath).byteLength)
    expect(assets.resolve('/pyodide/b-1-py3-none-any.whl')?.size).toBe(5)
    expect(assets.resolve('/pyodide/other-1-py3-none-any.whl')).toBeNull()
    expect(assets.resolve('/pyodide/pyodide.mjs')).not.toBeNull()
  })
})
