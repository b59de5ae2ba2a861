import { randomBytes } from 'node:crypto'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PACKAGES_SETTINGS_KEY } from '../../src/main/app/package-handlers'
import { packageClosure, pandasPackages } from '../../src/main/services/python/package-source'
import { openFileStore } from '../../src/main/services/store/store'
import type { PackagesState } from '../../src/shared/packages'
import { startDistributionServer, type DistributionServer } from '../support/distribution-server'
import { launchBrowser, recordEvents, screenshot, startWebApp, type EventRecorder, type WebApp } from './support'

/**
 * The browser-mode app with the installed lock, as a user sees the package download: a source that
 * refuses connections at start, then a mirror set in Settings that serves a numpy file that is not the
 * lock's (a slow 2 MB of other bytes) and nothing else, then no download at all. The app keeps working throughout.
 */
const numpy = packageClosure(pandasPackages()).entries.find((e) => e.name === 'numpy')?.file_name ?? ''

let app: WebApp
let browser: Browser
let page: Page
let mirror: DistributionServer
let events: EventRecorder
let refused = ''

beforeAll(async () => {
  const files = mkdtempSync(join(tmpdir(), 'tableqa-mirror-'))
  writeFileSync(join(files, numpy), randomBytes(2 * 1024 * 1024))
  mirror = await startDistributionServer(files, '/pyodide/v314/full/')
  // A source that refuses connections: what an offline machine or a firewall gives.
  const closed = await startDistributionServer(files)
  refused = closed.url
  await closed.close()
  const dataDir = mkdtempSync(join(tmpdir(), 'tableqa-web-'))
  openFileStore(dataDir, 'settings').store.set(PACKAGES_SETTINGS_KEY, { source: { kind: 'url', url: refused } })
  app = await startWebApp(dataDir)
  events = await recordEvents(app)
  browser = await launchBrowser()
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
})

afterAll(async () => {
  events?.stop()
  await browser?.close()
  await app?.stop()
  await mirror?.close()
})

const statusBar = (): Locator => page.getByTestId('package-status')

describe('the pandas download as the user sees it', () => {
  it('says in the status bar that the source refused, and the app works on plain rows', async () => {
    await page.goto(app.url)
    await statusBar().filter({ hasText: 'pandas not available in the sandbox (download failed)' }).waitFor({ timeout: 60_000 })
    expect(await statusBar().getAttribute('title')).toMatch(/could not be reached: ECONNREFUSED/)
    await expect(statusBar().getByRole('button', { name: 'Retry the pandas download' }).isVisible()).resolves.toBe(true)
    await page.getByTestId('python-status').filter({ hasText: 'ready (no pandas: plain Python rows)' }).waitFor({ timeout: 120_000 })
  })

  it('shows the mirror set in Settings downloading, then names the file it rejected', async () => {
    mirror.fault(numpy, { kind: 'trickle', bytes: 16 * 1024, everyMs: 50 }, 1)
    await page.getByRole('button', { name: 'Endpoints…' }).click()
    const settings = page.getByRole('dialog', { name: 'Model endpoints' })
    const section = settings.getByRole('region', { name: 'Pyodide packages' })
    await section.getByTestId('packages-state').filter({ hasText: 'ECONNREFUSED' }).waitFor({ timeout: 10_000 })
    await section.getByRole('radio', { name: 'A mirror' }).check()
    await section.getByLabel('Mirror URL (the folder holding pyodide-lock.json)').fill(mirror.url)
    await section.getByRole('button', { name: 'Save and fetch' }).click()
    await section.getByText('Source saved.').waitFor({ timeout: 10_000 })
    await section.getByTestId('packages-state').filter({ hasText: `Downloading numpy (1 of 5)` }).waitFor({ timeout: 10_000 })
    await settings.getByRole('button', { name: 'Close' }).click()
    await statusBar()
      .filter({ hasText: /Downloading pandas for the sandbox: numpy \(1 of 5\): [\d.]+ (KB|MB) of 2\.0 MB/ })
      .waitFor({ timeout: 10_000 })
    expect(await statusBar().locator('progress').count()).toBe(1)
    await screenshot(page, 'packages-downloading')
    mirror.hurry()
    await statusBar().filter({ hasText: 'download failed' }).waitFor({ timeout: 30_000 })
    expect(await statusBar().getAttribute('title')).toContain(`${numpy} was rejected: its sha256 is`)
    await page.getByRole('button', { name: 'Endpoints…' }).click()
    const state = page
      .getByRole('dialog', { name: 'Model endpoints' })
      .getByRole('region', { name: 'Pyodide packages' })
      .getByTestId('packages-state')
    await state.filter({ hasText: `${numpy} was rejected` }).waitFor({ timeout: 10_000 })
    await state.scrollIntoViewIfNeeded()
    await screenshot(page, 'packages-settings')
    // The rest were asked for and are not on the mirror.
    expect(mirror.requests.map((r) => r.file)).toEqual(packageClosure(pandasPackages()).entries.map((e) => e.file_name))
    const pushed = events.payloads('packages:status') as PackagesState[]
    expect(pushed.some((s) => s.state === 'downloading' && s.progress.package === 'numpy' && s.progress.bytes > 0)).toBe(true)
    await page.getByRole('dialog', { name: 'Model endpoints' }).getByRole('button', { name: 'Close' }).click()
  })

  it('downloads nothing once turned off, and the status bar stops flagging it', async () => {
    const asked = mirror.requests.length
    await page.getByRole('button', { name: 'Endpoints…' }).click()
    const section = page.getByRole('dialog', { name: 'Model endpoints' }).getByRole('region', { name: 'Pyodide packages' })
    await section.getByRole('radio', { name: /No download/ }).check()
    await section.getByRole('button', { name: 'Save', exact: true }).click()
    await section.getByText('Source saved.').waitFor({ timeout: 10_000 })
    await section
      .getByTestId('packages-state')
      .filter({ hasText: 'Downloading is turned off and 5 files are missing' })
      .waitFor({ timeout: 10_000 })
    await page.getByRole('dialog', { name: 'Model endpoints' }).getByRole('button', { name: 'Close' }).click()
    await statusBar().waitFor({ state: 'detached', timeout: 10_000 })
    expect(mirror.requests.length).toBe(asked)
    await page.getByTestId('python-status').filter({ hasText: 'ready (no pandas: plain Python rows)' }).waitFor({ timeout: 10_000 })
  })
})
