/**
 * Real wheels for tests of the package path: pure-Python py3-none-any wheels PyPI serves (six,
 * python-dateutil, pytz), listed with PyPI's sha256 in a test lock. Pyodide's own numpy/pandas wheels
 * cannot be had on our machines; these prove the same download, check, cache and load path on real files.
 */

import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { appRoot } from '../../src/main/services/paths'
import { readPyodideLock, type LockPackage, type PackageSet } from '../../src/main/services/python/package-source'

/** Where `.ci/run` puts the wheels (`pip download`); gitignored. */
export const TEST_WHEELS_DIR = join(appRoot(), '.cache', 'test-wheels')

const FIXTURE = join(appRoot(), 'test', 'fixtures', 'wheels', 'packages.json')

/** The test lock's entries: six, python-dateutil (needs six), pytz. */
export function testLockPackages(): Record<string, LockPackage> {
  return (JSON.parse(readFileSync(FIXTURE, 'utf8')) as { packages: Record<string, LockPackage> }).packages
}

/** `pip download` arguments that fetch exactly the fixture's wheels. */
export function pipRequirements(): string[] {
  return Object.values(testLockPackages()).map((p) => `${p.name}==${p.version ?? ''}`)
}

/** Fixture files absent from the wheel cache. */
export function missingTestWheels(): string[] {
  return Object.values(testLockPackages())
    .map((p) => p.file_name)
    .filter((file) => !existsSync(join(TEST_WHEELS_DIR, file)))
}

/** Said by every test that needs the wheels and does not find them. */
export function testWheelsNote(missing: string[]): string {
  return (
    `package-path tests with real wheels NOT RUN: ${missing.join(', ')} missing from ${TEST_WHEELS_DIR}. ` +
    `Fetch them with: python3 -m pip download --no-deps --only-binary=:all: -d ${TEST_WHEELS_DIR} ${pipRequirements().join(' ')} ` +
    '(.ci/run does, and fails if it cannot).'
  )
}

/**
 * Whether the wheels are there; when not, says so in the test output. Under CI
 * (TABLEQA_REQUIRE_TEST_WHEELS=1, set by .ci/run) their absence fails instead.
 */
export function testWheelsPresent(): boolean {
  const missing = missingTestWheels()
  if (missing.length === 0) return true
  if (process.env.TABLEQA_REQUIRE_TEST_WHEELS === '1') throw new Error(testWheelsNote(missing))
  console.warn(testWheelsNote(missing))
  return false
}

/**
 * Write a test lock into `dir`: the installed lock's `info` (Pyodide refuses a lock of another ABI) with
 * the fixture's packages only, and the set that wants python-dateutil and pytz from it (six comes along).
 */
export function writeTestLock(dir: string, packages: Record<string, LockPackage> = testLockPackages()): PackageSet {
  mkdirSync(dir, { recursive: true })
  const lock = { info: readPyodideLock().info, packages }
  const lockPath = join(dir, 'pyodide-lock.json')
  writeFileSync(lockPath, JSON.stringify(lock))
  return { lockPath, lock, wanted: ['python-dateutil', 'pytz'] }
}

/** A distribution folder holding the test wheels (copied, so a test may alter its copy). */
export function testDistribution(dir: string): string {
  mkdirSync(dir, { recursive: true })
  for (const p of Object.values(testLockPackages())) copyFileSync(join(TEST_WHEELS_DIR, p.file_name), join(dir, p.file_name))
  return dir
}
