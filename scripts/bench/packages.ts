/**
 * The sandbox's package files: a first start's fetch and check from a distribution server on this machine,
 * a later start's check of the files already there, the sha256 rate that check runs at, and how much a
 * boot that loads packages costs over one that loads none. Real files: the pure-Python wheels of the
 * test lock (six, python-dateutil, pytz; `.ci/run` fetches them), since Pyodide's numpy/pandas wheels
 * cannot be had here.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { PackageManager } from '../../src/main/services/python/package-manager'
import { sha256File } from '../../src/main/services/python/package-fetch'
import type { PackageSet } from '../../src/main/services/python/package-source'
import { startDistributionServer } from '../../test/support/distribution-server'
import { testExecutor } from '../../test/support/executor'
import { missingTestWheels, testDistribution, testLockPackages, testWheelsNote, writeTestLock } from '../../test/support/wheels'
import type { SuiteResult } from '../bench'

const ROUNDS = 5
const BOOTS = 3

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN
}
const round = (n: number, digits = 1): number => Number(n.toFixed(digits))

async function bootMs(set: PackageSet, dir: string, packages: string[]): Promise<number> {
  const executor = testExecutor({ poolSize: 1, loadPandas: false, packages }, 10_000, [dir], set)
  const t0 = performance.now()
  const ready = new Promise<void>((resolve) => executor.onStatus((s) => s.state === 'ready' && resolve()))
  await executor.start()
  await ready
  const ms = performance.now() - t0
  const { result } = await executor.run({
    runId: 'check',
    code: 'import importlib.util\nall(importlib.util.find_spec(m) for m in ("six", "dateutil", "pytz"))',
    tableId: null
  })
  await executor.close()
  if (!result.ok || result.value.value?.json !== packages.length > 0) throw new Error('the boot did not load what it was asked to')
  return ms
}

export async function run(): Promise<SuiteResult> {
  const missing = missingTestWheels()
  if (missing.length > 0) throw new Error(testWheelsNote(missing))
  const root = mkdtempSync(join(tmpdir(), 'tableqa-bench-packages-'))
  const dist = testDistribution(join(root, 'dist'))
  const set = writeTestLock(join(root, 'lock'))
  const bytes = Object.values(testLockPackages()).reduce((sum, p) => sum + statSync(join(dist, p.file_name)).size, 0)
  const server = await startDistributionServer(dist)
  const manager = (cacheDir: string): PackageManager =>
    new PackageManager({ set, cacheDir, bundledDirs: [], source: () => ({ kind: 'url', url: server.url }), officialUrl: server.url })

  const fetches: number[] = []
  const checks: number[] = []
  let cache = ''
  try {
    for (let i = 0; i < ROUNDS; i++) {
      cache = join(root, `cache-${i}`)
      const t0 = performance.now()
      const state = await manager(cache).ensure()
      fetches.push(performance.now() - t0)
      if (state.state !== 'ready' || state.fetched.length !== 3) throw new Error('the first round did not fetch every file')
    }
    for (let i = 0; i < ROUNDS * 2; i++) {
      const t0 = performance.now()
      const state = await manager(cache).ensure()
      checks.push(performance.now() - t0)
      if (state.state !== 'ready' || state.fetched.length !== 0) throw new Error('a later round fetched again')
    }
  } finally {
    await server.close()
  }

  // The rate the check at each start hashes at, on a file of the size numpy and pandas add up to, roughly.
  const big = join(root, 'hash.bin')
  writeFileSync(big, randomBytes(64 * 1024 * 1024))
  const hashes: number[] = []
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now()
    await sha256File(big)
    hashes.push(performance.now() - t0)
  }
  rmSync(big)

  const plain: number[] = []
  const loaded: number[] = []
  for (let i = 0; i < BOOTS; i++) {
    plain.push(await bootMs(set, cache, []))
    loaded.push(await bootMs(set, cache, ['python-dateutil', 'pytz']))
  }
  rmSync(root, { recursive: true, force: true })

  return {
    metrics: {
      first_start_fetch_and_check_ms: round(median(fetches)),
      first_start_bytes: bytes,
      later_start_check_ms: round(median(checks), 2),
      sha256_mb_per_s: round(64 / (median(hashes) / 1000)),
      boot_without_packages_ms: Math.round(median(plain)),
      boot_with_test_packages_ms: Math.round(median(loaded)),
      boot_cost_of_test_packages_ms: Math.round(median(loaded) - median(plain))
    },
    details: {
      rounds: ROUNDS,
      boots: BOOTS,
      fetches,
      checks,
      hashes,
      plain,
      loaded,
      files: Object.values(testLockPackages()).map((p) => p.file_name)
    }
  }
}
