import { existsSync, mkdtempSync, readdirSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startDistributionServer, type DistributionServer } from '../../../../test/support/distribution-server'
import { missingTestWheels, testDistribution, testLockPackages, testWheelsNote, testWheelsPresent, writeTestLock } from '../../../../test/support/wheels'
import { fillPackageFolder, sourceOf } from './package-fill'
import type { PackageSet } from './package-source'

/** The command line's fill (`setup:python`, `bundle:python`) on the test lock's real wheels. */

const present = testWheelsPresent()
const packages = testLockPackages()
const files = Object.values(packages).map((p) => p.file_name)

let dist: DistributionServer
let distDir = ''
let set: PackageSet
/** A PyPI simple index (JSON) on 127.0.0.1 listing six and python-dateutil at `dist`, and pytz without the lock's file. */
let pypi: Server
let pypiUrl = ''

beforeAll(async () => {
  if (!present) return
  const root = mkdtempSync(join(tmpdir(), 'tableqa-fill-'))
  distDir = testDistribution(join(root, 'dist'))
  set = writeTestLock(join(root, 'lock'))
  dist = await startDistributionServer(distDir)
  pypi = createServer((request, response) => {
    const project = /^\/simple\/([^/]+)\/$/.exec(request.url ?? '')?.[1] ?? ''
    const listed = Object.values(packages).filter((p) => p.name === project && p.name !== 'pytz')
    const other = project === 'pytz' ? [{ filename: 'pytz-2020.1-py2.py3-none-any.whl', url: `${dist.url}pytz-2020.1-py2.py3-none-any.whl` }] : []
    if (listed.length === 0 && other.length === 0) return void response.writeHead(404).end()
    response.writeHead(200, { 'content-type': 'application/vnd.pypi.simple.v1+json' })
    response.end(JSON.stringify({ files: [...listed.map((p) => ({ filename: p.file_name, url: `${dist.url}${p.file_name}` })), ...other] }))
  })
  await new Promise<void>((done) => pypi.listen(0, '127.0.0.1', done))
  pypiUrl = `http://127.0.0.1:${(pypi.address() as AddressInfo).port}`
})

afterAll(async () => {
  await dist?.close()
  await new Promise((done) => (pypi ? pypi.close(done) : done(undefined)))
})

describe('what --from names', () => {
  it('reads official (the default), pypi, a URL and a folder', () => {
    expect(sourceOf('official')).toEqual({ source: { kind: 'official' }, pypi: false })
    expect(sourceOf('')).toEqual({ source: { kind: 'official' }, pypi: false })
    expect(sourceOf('pypi')).toEqual({ source: { kind: 'official' }, pypi: true })
    expect(sourceOf('https://mirror.example/full')).toEqual({ source: { kind: 'url', url: 'https://mirror.example/full/' }, pypi: false })
    expect(sourceOf('some/dir')).toEqual({ source: { kind: 'dir', path: resolve('some/dir') }, pypi: false })
  })
})

describe.runIf(!present)('filling a package folder from the command line', () => {
  it('is not run here, and says why', () => {
    expect(missingTestWheels().length, testWheelsNote(missingTestWheels())).toBeGreaterThan(0)
  })
})

describe.runIf(present)('filling a package folder from the command line', () => {
  it('fetches every file from a mirror with a line each, and a second run fetches nothing', async () => {
    const target = join(mkdtempSync(join(tmpdir(), 'tableqa-fill-to-')), 'packages')
    const lines: string[] = []
    const first = await fillPackageFolder({ from: dist.url, target, set, stallMs: 5_000, log: (line) => lines.push(line) })
    expect(first.state).toBe('ready')
    expect(readdirSync(target).sort()).toEqual([...files].sort())
    // Dependencies first: six before python-dateutil.
    const order = ['six', 'python-dateutil', 'pytz'].map((name) => packages[name]?.file_name)
    for (const [index, file] of order.entries()) expect(lines).toContain(`  [${index + 1}/3] ${file} from ${dist.url}`)
    expect(lines.filter((line) => /^ {4}\d+ KB$/.test(line))).toHaveLength(3)

    const before = dist.requests.length
    const again: string[] = []
    const second = await fillPackageFolder({ from: dist.url, target, set, log: (line) => again.push(line) })
    expect(second.state === 'ready' && second.fetched).toEqual([])
    expect(dist.requests.length).toBe(before)
    expect(again).toEqual(['  already there and matching the lock: six, python-dateutil, pytz'])
  })

  it('copies from a local folder, and names what a folder lacks', async () => {
    const target = mkdtempSync(join(tmpdir(), 'tableqa-fill-to-'))
    const copied = await fillPackageFolder({ from: distDir, target, set, log: () => {} })
    expect(copied.state).toBe('ready')
    const empty = mkdtempSync(join(tmpdir(), 'tableqa-fill-empty-'))
    const lines: string[] = []
    const none = await fillPackageFolder({ from: empty, target: mkdtempSync(join(tmpdir(), 'tableqa-fill-to-')), set, log: (l) => lines.push(l) })
    expect(none.state).toBe('failed')
    expect(lines).toContain(`  missing  six-1.17.0-py2.py3-none-any.whl: six-1.17.0-py2.py3-none-any.whl is not in ${empty}.`)
  })

  it('finds files on PyPI by their exact name, checks them, and says which PyPI does not have', async () => {
    const saved = process.env.TABLEQA_PYPI_INDEX
    process.env.TABLEQA_PYPI_INDEX = pypiUrl
    try {
      const target = mkdtempSync(join(tmpdir(), 'tableqa-fill-to-'))
      const lines: string[] = []
      const final = await fillPackageFolder({ from: 'pypi', target, set, stallMs: 5_000, log: (l) => lines.push(l) })
      expect(final.state === 'failed' && final.missing).toEqual([packages.pytz?.file_name])
      expect(existsSync(join(target, packages.six?.file_name ?? ''))).toBe(true)
      expect(existsSync(join(target, packages['python-dateutil']?.file_name ?? ''))).toBe(true)
      expect(lines).toContain(
        `  missing  ${packages.pytz?.file_name}: PyPI lists 1 files for pytz and not ${packages.pytz?.file_name}; WebAssembly wheels there: none (none for this Pyodide).`
      )
    } finally {
      if (saved === undefined) delete process.env.TABLEQA_PYPI_INDEX
      else process.env.TABLEQA_PYPI_INDEX = saved
    }
  })
})
