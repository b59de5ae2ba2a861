import { copyFileSync, mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import { CHROMIUM_ARGS, findChromium } from '../../src/main/services/python/chromium-channel'
import { appRoot, datasetsDir } from '../../src/main/services/paths'

export const ARTIFACTS = resolve(appRoot(), 'test-results', 'e2e')

import { afterAll, beforeAll } from 'vitest'
import { startWebApp as startApp, type WebApp } from '../support/web-app'

export { startWebApp, type WebApp } from '../support/web-app'

/**
 * The usual set-up of an e2e file: before its tests, the app in browser mode and one page opened on it at
 * `viewport`; after them, both closed. `page()` is the page, once the set-up has run.
 */
export function pageForFile(viewport: { width: number; height: number }): { page(): Page } {
  let app: WebApp | undefined
  let browser: Browser | undefined
  let page: Page | undefined
  beforeAll(async () => {
    app = await startApp()
    browser = await launchBrowser()
    page = await browser.newPage({ viewport })
    await page.goto(app.url)
  })
  afterAll(async () => {
    await browser?.close()
    await app?.stop()
  })
  return {
    page: () => {
      if (page === undefined) throw new Error('The page is opened before the tests of the file.')
      return page
    }
  }
}

export async function launchBrowser(): Promise<Browser> {
  const executablePath = findChromium()
  if (!executablePath) throw new Error('End-to-end tests need Chromium: apt-get install chromium (or set TABLEQA_CHROMIUM).')
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true })
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true })
  const path = join(ARTIFACTS, `${name}.png`)
  await page.screenshot({ path, fullPage: true })
  return path
}

/** Screenshots go to test-results; `TABLEQA_UPDATE_SCREENSHOTS=1` also refreshes the ones in docs/screenshots. */
export async function keepScreenshot(page: Page, name: string): Promise<void> {
  const path = await screenshot(page, name)
  if (process.env.TABLEQA_UPDATE_SCREENSHOTS !== '1') return
  const docs = join(appRoot(), 'docs', 'screenshots')
  mkdirSync(docs, { recursive: true })
  copyFileSync(path, join(docs, `${name}.png`))
}

export function dataset(...parts: string[]): string {
  return join(datasetsDir(), ...parts)
}

/** Unfold the Python panel (it starts folded to its title bar) unless it is open already. */
export async function showPythonPanel(page: Page): Promise<void> {
  const toggle = page.getByRole('group', { name: 'Panels' }).getByRole('button', { name: 'Python', exact: true })
  if ((await toggle.getAttribute('aria-pressed')) !== 'true') await toggle.click()
  await page.getByLabel('Python code').waitFor()
}

/**
 * Programs that need pandas: the sandbox has it only with a package source, local Python always. Switches
 * the executor to local Python through the settings dialog unless the status bar already reports pandas.
 */
export async function usePandas(page: Page): Promise<void> {
  if ((await page.getByTestId('python-status').innerText()).includes('(pandas)')) return
  await page.getByRole('button', { name: 'Endpoints…' }).click()
  const settings = page.getByRole('dialog', { name: 'Model endpoints' })
  await settings.getByRole('radio', { name: /Local Python/ }).check()
  await settings.getByTestId('python-path').fill('python3')
  await settings.getByRole('button', { name: 'Apply' }).click()
  await settings.getByText('Programs now run in your local Python.').waitFor({ timeout: 30_000 })
  await settings.getByRole('button', { name: 'Close' }).click()
  await page
    .getByTestId('python-status')
    .filter({ hasText: /ready \(pandas\)/i })
    .waitFor({ timeout: 60_000 })
}

/** Add an OpenAI-compatible server as the endpoint through the settings dialog, and wait until the status bar finds it reachable. */
export async function addEndpoint(page: Page, endpoint: { url: string; key: string; name?: string; model?: string }): Promise<void> {
  await page.getByRole('button', { name: 'Endpoints…' }).click()
  const dialog = page.getByRole('dialog', { name: 'Model endpoints' })
  await dialog.getByRole('button', { name: /Local server URL/ }).click()
  await dialog.getByRole('textbox', { name: 'Name' }).fill(endpoint.name ?? 'Scripted')
  await dialog.getByLabel('Base URL').fill(endpoint.url)
  await dialog.getByRole('textbox', { name: 'Model' }).fill(endpoint.model ?? 'test-model')
  await dialog.getByRole('combobox', { name: 'API kind' }).selectOption('chat')
  await dialog.getByLabel('API key').fill(endpoint.key)
  await dialog.getByRole('button', { name: 'Save endpoint' }).click()
  await dialog.getByTestId('endpoint-check').filter({ hasText: /^✓/ }).waitFor({ timeout: 30_000 })
  await dialog.getByRole('button', { name: 'Close' }).click()
  await page.getByTestId('endpoint-health').filter({ hasText: 'reachable' }).waitFor({ timeout: 30_000 })
}

export type EventRecorder = {
  /** Payloads of the named event, in the order the server pushed them. */
  payloads(event: string): unknown[]
  stop(): void
}

/** Follow the server's push events (`/api/events`) from the test process, as the page's EventSource does. */
export async function recordEvents(app: WebApp): Promise<EventRecorder> {
  const url = new URL(app.url)
  const token = new URLSearchParams(url.hash.slice(1)).get('token') ?? ''
  const controller = new AbortController()
  const seen: { event: string; payload: unknown }[] = []
  const response = await fetch(`${url.origin}/api/events?token=${encodeURIComponent(token)}`, { signal: controller.signal })
  if (!response.ok || !response.body) throw new Error(`the event stream answered HTTP ${response.status}`)
  const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  void (async () => {
    for (;;) {
      const chunk: { done: boolean; value?: Uint8Array } = await reader.read().catch(() => ({ done: true as const, value: undefined }))
      if (chunk.done || !chunk.value) return
      buffer += decoder.decode(chunk.value, { stream: true })
      let end = buffer.indexOf('\n\n')
      while (end >= 0) {
        const block = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        for (const line of block.split('\n')) {
          if (line.startsWith('data: ')) seen.push(JSON.parse(line.slice('data: '.length)) as { event: string; payload: unknown })
        }
        end = buffer.indexOf('\n\n')
      }
    }
  })()
  return { payloads: (event) => seen.filter((e) => e.event === event).map((e) => e.payload), stop: () => controller.abort() }
}
