import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, copyFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PackageSource, PackagesState } from '../../../shared/packages'
import { startDistributionServer, type DistributionServer } from '../../../../test/support/distribution-server'
import { missingTestWheels, testDistribution, testLockPackages, testWheelsNote, testWheelsPresent, writeTestLock } from '../../../../test/support/wheels'
import { sha256File } from './package-fetch'
import { PackageManager } from './package-manager'
import type { PackageSet } from './package-source'

const present = testWheelsPresent()
const packages = testLockPackages()
const files = Object.values(packages).map((p) => p.file_name)

let server: DistributionServer
let dist = ''
let set: PackageSet

beforeAll(async () => {
  if (!present) return
  const root = mkdtempSync(join(tmpdir(), 'tableqa-pkg-'))
  dist = testDistribution(join(root, 'dist'))
  set = writeTestLock(join(root, 'lock'))
  server = await startDistributionServer(dist)
})

afterAll(async () => {
  await server?.close()
})

function manager(options: { cacheDir?: string; bundledDirs?: string[]; source?: PackageSource; stallMs?: number; set?: PackageSet } = {}): {
  manager: PackageManager
  states: PackagesState[]
  cacheDir: string
} {
  const cacheDir = options.cacheDir ?? join(mkdtempSync(join(tmpdir(), 'tableqa-data-')), 'pyodide-packages')
  const m = new PackageManager({
    set: options.set ?? set,
    cacheDir,
    bundledDirs: options.bundledDirs ?? [],
    source: () => options.source ?? { kind: 'url', url: server.url },
    officialUrl: 'https://cdn.invalid/pyodide/v0/full/',
    stallMs: options.stallMs ?? 5_000
  })
  const states: PackagesState[] = []
  m.onStatus((s) => states.push(s))
  return { manager: m, states, cacheDir }
}

describe.runIf(!present)('the package manager', () => {
  it('is not run here, and says why', () => {
    expect(missingTestWheels().length, testWheelsNote(missingTestWheels())).toBeGreaterThan(0)
  })
})

describe.runIf(present)('the package manager', () => {
  it('fetches the closure on a first start, with progress, checks and caches it; a second start fetches nothing', async () => {
    const first = manager()
    const before = server.requests.length
    const final = await first.manager.ensure()
    expect(final).toEqual({ state: 'ready', packages: ['six', 'python-dateutil', 'pytz'], fetched: ['six', 'python-dateutil', 'pytz'] })
    expect(first.states[0]).toEqual({ state: 'checking' })
    const downloads = first.states.flatMap((s) => (s.state === 'downloading' ? [s.progress] : []))
    expect(new Set(downloads.map((p) => p.package))).toEqual(new Set(['six', 'python-dateutil', 'pytz']))
    expect(downloads.every((p) => p.count === 3)).toBe(true)
    const lastOfPytz = downloads.filter((p) => p.package === 'pytz').at(-1)
    expect(lastOfPytz?.bytes).toBe(lastOfPytz?.fileBytes)
    expect(lastOfPytz?.doneBytes).toBeGreaterThan(0)
    for (const entry of Object.values(packages)) expect(await sha256File(join(first.cacheDir, entry.file_name))).toBe(entry.sha256)
    expect(server.requests.length - before).toBe(3)

    const second = manager({ cacheDir: first.cacheDir })
    const again = await second.manager.ensure()
    expect(again).toEqual({ state: 'ready', packages: ['six', 'python-dateutil', 'pytz'], fetched: [] })
    expect(second.states.map((s) => s.state)).toEqual(['checking', 'ready'])
    expect(server.requests.length - before).toBe(3)
  })

  it('replaces a cached file that no longer matches the lock', async () => {
    const { manager: m, cacheDir } = manager()
    await m.ensure()
    const six = join(cacheDir, packages.six?.file_name ?? '')
    writeFileSync(six, 'not a wheel')
    const again = await m.ensure()
    expect(again.state === 'ready' && again.fetched).toEqual(['six'])
    expect(await sha256File(six)).toBe(packages.six?.sha256)
  })

  it('uses files a bundled folder holds, and fetches only what it lacks', async () => {
    const bundled = mkdtempSync(join(tmpdir(), 'tableqa-bundled-'))
    copyFileSync(join(dist, packages.pytz?.file_name ?? ''), join(bundled, packages.pytz?.file_name ?? ''))
    const { manager: m, cacheDir } = manager({ bundledDirs: [bundled] })
    const final = await m.ensure()
    expect(final.state === 'ready' && final.fetched).toEqual(['six', 'python-dateutil'])
    expect(existsSync(join(cacheDir, packages.pytz?.file_name ?? ''))).toBe(false)
    expect(m.dirs()).toEqual([cacheDir, bundled])
  })

  it('rejects a tampered file by name and keeps the good ones', async () => {
    const file = packages['python-dateutil']?.file_name ?? ''
    server.fault(file, { kind: 'tamper' }, 1)
    const { manager: m, cacheDir } = manager()
    const final = await m.ensure()
    expect(final.state).toBe('failed')
    if (final.state !== 'failed') return
    expect(final.missing).toEqual([file])
    expect(final.message).toContain(`${file} was rejected: its sha256 is`)
    expect(final.message).toContain(`from ${server.url}`)
    expect(existsSync(join(cacheDir, file))).toBe(false)
    expect(existsSync(join(cacheDir, packages.six?.file_name ?? ''))).toBe(true)
    // Asked again (Settings' retry), the good copy arrives and the others are not fetched again.
    const before = server.requests.length
    expect((await m.ensure()).state).toBe('ready')
    expect(server.requests.slice(before).map((r) => r.file)).toEqual([file])
  })

  it('resumes a download a broken connection interrupted, on the next round', async () => {
    const file = packages.pytz?.file_name ?? ''
    server.fault(file, { kind: 'cut', afterBytes: 300_000 }, 1)
    const { manager: m, cacheDir } = manager()
    const failed = await m.ensure()
    expect(failed.state === 'failed' && failed.message).toMatch(/broke off after \d+ bytes.*resumes there/)
    expect(existsSync(join(cacheDir, `${file}.part`))).toBe(true)
    const before = server.requests.length
    expect((await m.ensure()).state).toBe('ready')
    const resumed = server.requests.slice(before).find((r) => r.file === file)
    expect(resumed?.range).toMatch(/^bytes=\d+-$/)
  })

  it('gives up on a silent source after its time limit, without trying the other files', async () => {
    for (const file of files) server.fault(file, { kind: 'hang' }, 1)
    const { manager: m } = manager({ stallMs: 300 })
    const final = await m.ensure()
    server.clearFaults()
    expect(final.state).toBe('failed')
    if (final.state !== 'failed') return
    expect(final.message).toMatch(/did not answer within 0.3 s \(2 more files missing too\)\.$/)
    expect(final.problems.slice(1).map((p) => p.message)).toEqual(['not tried: the source did not answer', 'not tried: the source did not answer'])
  })

  it('says which file a mirror lacks (404)', async () => {
    const empty = await startDistributionServer(mkdtempSync(join(tmpdir(), 'tableqa-empty-')))
    try {
      const final = await manager({ source: { kind: 'url', url: empty.url } }).manager.ensure()
      expect(final.state === 'failed' && final.message).toBe(
        `pandas could not be fetched from ${empty.url}: ${empty.url}${packages.six?.file_name} answered HTTP 404 (it is not there) (2 more files missing too).`
      )
    } finally {
      await empty.close()
    }
  })

  it('says which package the lock does not have', async () => {
    const final = await manager({ set: { ...set, wanted: ['pandas', 'pytz'] } }).manager.ensure()
    expect(final).toEqual({
      state: 'failed',
      message: 'pandas could not be fetched: The lock file lists no usable package named "pandas".',
      missing: ['pandas'],
      problems: [{ file: 'pandas', message: 'The lock file lists no usable package named "pandas".' }]
    })
  })

  it('copies from a local folder, and names a file the folder lacks', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'tableqa-folder-'))
    for (const file of files) copyFileSync(join(dist, file), join(folder, file))
    expect((await manager({ source: { kind: 'dir', path: folder } }).manager.ensure()).state).toBe('ready')
    rmSync(join(folder, packages.six?.file_name ?? ''))
    const final = await manager({ source: { kind: 'dir', path: folder } }).manager.ensure()
    expect(final.state === 'failed' && final.message).toContain(`${packages.six?.file_name} is not in ${folder}.`)
  })

  it('asks no server when downloading is off, naming what is missing, and uses the files that are there', async () => {
    const before = server.requests.length
    const bundled = mkdtempSync(join(tmpdir(), 'tableqa-bundled-'))
    copyFileSync(join(dist, packages.pytz?.file_name ?? ''), join(bundled, packages.pytz?.file_name ?? ''))
    const off = manager({ source: { kind: 'off' }, bundledDirs: [bundled] })
    expect(await off.manager.ensure()).toEqual({ state: 'off', missing: [packages.six?.file_name, packages['python-dateutil']?.file_name] })
    expect(off.states.map((s) => s.state)).toEqual(['checking', 'off'])
    for (const file of files.filter((f) => f !== packages.pytz?.file_name)) copyFileSync(join(dist, file), join(bundled, file))
    expect(await off.manager.ensure()).toEqual({ state: 'ready', packages: ['six', 'python-dateutil', 'pytz'], fetched: [] })
    expect(server.requests.length).toBe(before)
  })

  it('joins a round already going, and a restart abandons the old one', async () => {
    const file = packages.pytz?.file_name ?? ''
    server.fault(file, { kind: 'trickle', bytes: 20_000, everyMs: 20 }, 1)
    const { manager: m, states } = manager()
    const a = m.ensure()
    expect(m.ensure()).toBe(a)
    while (!states.some((s) => s.state === 'downloading' && s.progress.package === 'pytz' && s.progress.bytes > 0)) {
      await new Promise((resolve) => setImmediate(resolve))
    }
    const restarted = await m.restart()
    expect(restarted.state).toBe('ready')
    server.clearFaults()
  })

  it('creates the cache folder it needs', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'tableqa-nested-'))
    mkdirSync(join(parent, 'a'))
    const { manager: m } = manager({ cacheDir: join(parent, 'a', 'b', 'pyodide-packages') })
    expect((await m.ensure()).state).toBe('ready')
  })
})
