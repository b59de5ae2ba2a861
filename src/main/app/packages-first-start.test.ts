import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { EventName, EventSpec } from '../../shared/api'
import type { PackagesState } from '../../shared/packages'
import type { PythonRunResult } from '../../shared/python'
import { startDistributionServer, type DistributionServer } from '../../../test/support/distribution-server'
import {
  missingTestWheels,
  testDistribution,
  testLockPackages,
  testWheelsNote,
  testWheelsPresent,
  writeTestLock
} from '../../../test/support/wheels'
import { MemorySecretStore } from '../services/model'
import { ExecutorAssets } from '../services/python/assets'
import { chromiumChannelFactory, findChromium } from '../services/python/chromium-channel'
import { packageCacheDir, type PackageSet } from '../services/python/package-source'
import { openFileStore } from '../services/store/store'
import { composeServices } from './compose'
import { createHandlers, type AppServices } from './handlers'
import { PACKAGES_SETTINGS_KEY } from './package-handlers'

/**
 * The app's first start with real wheels, end to end: services composed as browser mode composes them,
 * the real executor page in Chromium, a local distribution server, and a test lock naming pure-Python
 * wheels PyPI serves (six, python-dateutil, pytz) with their real sha256.
 */
const present = testWheelsPresent()
const packages = testLockPackages()

/** Uses all three packages; fails with ModuleNotFoundError while they are missing. */
const USES_THEM = `
import six, pytz, dateutil, dateutil.parser
moment = pytz.timezone("Europe/Paris").localize(dateutil.parser.parse("2024-03-10 12:00"))
answer = [six.__version__, dateutil.__version__, moment.isoformat()]
`
const WHICH = `import importlib.util\nanswer = [importlib.util.find_spec(m) is not None for m in ("six", "dateutil", "pytz")]`
const CSV = new TextEncoder().encode('region,amount\nnorth,3\nsouth,4\n')

let server: DistributionServer
let set: PackageSet
const started: AppServices[] = []

beforeAll(async () => {
  if (!present) return
  const root = mkdtempSync(join(tmpdir(), 'tableqa-first-start-'))
  set = writeTestLock(join(root, 'lock'))
  server = await startDistributionServer(testDistribution(join(root, 'dist')))
})

afterAll(async () => {
  for (const services of started) {
    services.packages.close()
    await services.executor.close()
  }
  await server?.close()
})

type Started = {
  services: AppServices
  handlers: ReturnType<typeof createHandlers>
  seen: <E extends EventName>(event: E) => EventSpec[E][]
}

/** One start of the app on `dataDir`, taking the files from the local server. */
function start(dataDir: string): Started {
  const chromium = findChromium()
  if (!chromium) throw new Error('This test needs Chromium: apt-get install chromium (or set TABLEQA_CHROMIUM).')
  const settingsStore = openFileStore(dataDir, 'settings').store
  settingsStore.set(PACKAGES_SETTINGS_KEY, { source: { kind: 'url', url: server.url } })
  const assets = new ExecutorAssets({ packageDirs: [packageCacheDir(dataDir)], packages: set })
  if (!assets.built()) throw new Error('This test needs the built executor page: run `npm run build` first.')
  const services = composeServices({
    mode: 'web',
    dataDir,
    historyStore: openFileStore(dataDir, 'history').store,
    settingsStore,
    secrets: new MemorySecretStore(),
    channelFactory: chromiumChannelFactory(assets, chromium),
    openDialog: null,
    executor: { poolSize: 1 },
    packages: { set, bundledDirs: [], stallMs: 10_000 }
  })
  started.push(services)
  const events: { event: EventName; payload: unknown }[] = []
  services.events.subscribe((event, payload) => events.push({ event, payload }))
  return {
    services,
    handlers: createHandlers(services),
    seen: <E extends EventName>(event: E) => events.filter((e) => e.event === event).map((e) => e.payload as EventSpec[E])
  }
}

async function run(app: Started, code: string, tableId: string | null = null): Promise<PythonRunResult> {
  const record = await app.handlers['python:run']({ runId: crypto.randomUUID(), code, tableId })
  if (!record.ok) throw new Error(record.error.message)
  return record.value.result
}

const json = (result: PythonRunResult): unknown => (result.ok ? result.value.value?.json : result.error.message)

describe.runIf(!present)('the first start with real wheels', () => {
  it('is not run here, and says why', () => {
    expect(missingTestWheels().length, testWheelsNote(missingTestWheels())).toBeGreaterThan(0)
  })
})

describe.runIf(present)('the first start with real wheels', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tableqa-data-'))

  it('downloads with progress, checks and caches, and brings the sandbox up with the packages, working throughout', async () => {
    const app = start(dataDir)
    const handOver = vi.spyOn(app.services.executor, 'handOver')
    const opened = await app.handlers['table:openBytes']({ name: 'sales.csv', bytes: CSV })
    if (!opened.ok) throw new Error(opened.error.message)
    const tableId = opened.value[0]?.id ?? ''
    // The largest file comes over a slow link (about 200 s for it all), so programs run while it downloads.
    const pytz = packages.pytz?.file_name ?? ''
    server.fault(pytz, { kind: 'trickle', bytes: 256, everyMs: 100 }, 1)
    const before = server.requests.length
    const round = app.services.packages.ensure()
    const during = await run(app, WHICH)
    expect(app.services.packages.status().state).toBe('downloading')
    expect(json(during)).toEqual([false, false, false])
    expect(json(await run(app, 'answer = sum(int(r["amount"]) for r in rows)', tableId))).toBe(7)
    expect(app.services.packages.status().state).toBe('downloading')
    server.hurry()

    const final = await round
    expect(final).toEqual({ state: 'ready', packages: ['six', 'python-dateutil', 'pytz'], fetched: ['six', 'python-dateutil', 'pytz'] })
    expect(server.requests.slice(before).map((r) => r.file)).toEqual(Object.values(packages).map((p) => p.file_name))
    const progress = app.seen('packages:status').flatMap((s: PackagesState) => (s.state === 'downloading' ? [s.progress] : []))
    const ofPytz = progress.filter((p) => p.package === 'pytz')
    expect(ofPytz.length).toBeGreaterThan(3)
    expect(ofPytz.some((p) => p.bytes > 0 && p.fileBytes !== null && p.bytes < p.fileBytes)).toBe(true)
    expect(ofPytz.at(-1)?.bytes).toBe(ofPytz.at(-1)?.fileBytes)
    const view = await app.handlers['packages:get']()
    expect(view.ok && view.value.state).toEqual(final)

    // No restart: interpreters that load the files take over, with the open table.
    expect(handOver).toHaveBeenCalledTimes(1)
    expect(await handOver.mock.results[0]?.value).toBe(true)
    expect(json(await run(app, USES_THEM))).toEqual(['1.17.0', '2.9.0.post0', '2024-03-10T12:00:00+01:00'])
    expect(json(await run(app, 'answer = [r["region"] for r in rows]', tableId))).toEqual(['north', 'south'])
  }, 240_000)

  it('downloads nothing at the next start, and the interpreters load the cached files from the start', async () => {
    const previous = started.at(-1)
    previous?.packages.close()
    await previous?.executor.close()
    const app = start(dataDir)
    const handOver = vi.spyOn(app.services.executor, 'handOver')
    const before = server.requests.length
    expect(await app.services.packages.ensure()).toEqual({ state: 'ready', packages: ['six', 'python-dateutil', 'pytz'], fetched: [] })
    expect(json(await run(app, USES_THEM))).toEqual(['1.17.0', '2.9.0.post0', '2024-03-10T12:00:00+01:00'])
    expect(server.requests.length).toBe(before)
    expect(handOver).not.toHaveBeenCalled()
  }, 240_000)

  it('keeps working after a rejected file, says which, and a retry on request brings the packages', async () => {
    const app = start(mkdtempSync(join(tmpdir(), 'tableqa-data-')))
    const dateutil = packages['python-dateutil']?.file_name ?? ''
    server.fault(dateutil, { kind: 'tamper' }, 1)
    const failed = await app.services.packages.ensure()
    expect(failed.state === 'failed' && failed.message).toContain(`${dateutil} was rejected`)
    expect(json(await run(app, WHICH))).toEqual([false, false, false])
    const handOver = vi.spyOn(app.services.executor, 'handOver')
    const retried = await app.handlers['packages:retry']()
    expect(retried.ok).toBe(true)
    await vi.waitFor(() => expect(app.services.packages.status().state).toBe('ready'), { timeout: 30_000, interval: 20 })
    expect(await handOver.mock.results[0]?.value).toBe(true)
    expect(json(await run(app, USES_THEM))).toEqual(['1.17.0', '2.9.0.post0', '2024-03-10T12:00:00+01:00'])
  }, 240_000)
})
