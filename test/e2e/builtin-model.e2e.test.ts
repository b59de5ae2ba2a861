import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { APP_SETTINGS_KEY } from '../../src/main/app/settings-handlers'
import { appRoot } from '../../src/main/services/paths'
import { SETTINGS_STORE } from '../../src/main/services/settings'
import { openFileStore } from '../../src/main/services/store/store'
import { describeWithModel } from '../support/test-model'
import { launchBrowser, screenshot, startWebApp, type WebApp } from './support'

const ORDERS = join(appRoot(), 'resources', 'samples', 'orders.csv')
const QUESTION = 'How many orders are there?'

let app: WebApp | undefined
let browser: Browser | undefined
let page: Page

afterAll(async () => {
  await browser?.close()
  await app?.stop()
})

// The test model answers badly (it has 135M parameters): these tests check that the app runs the real
// engine and shows what it sampled, never what the answer is.
describeWithModel('browser mode with the built-in model (the real test model in the data folder)', (model) => {
  beforeAll(async () => {
    // A first launch whose data folder already holds a model, as after the welcome screen's download.
    const dataDir = mkdtempSync(join(tmpdir(), 'tableqa-web-builtin-'))
    mkdirSync(join(dataDir, 'models'))
    copyFileSync(model, join(dataDir, 'models', basename(model)))
    // Two samples rather than five, each up to 600 tokens from a CPU engine; one thread, which keeps its
    // speed on a machine whose cores other work is using (two threads there wait on each other).
    const { store } = openFileStore(dataDir, SETTINGS_STORE)
    store.set(APP_SETTINGS_KEY, { sampling: { n: 2, temperature: 0.7, selection: 'logprob', score: 'sum' } })
    store.set('builtin', { threads: 1, contextSize: 4096 })
    app = await startWebApp(dataDir)
    browser = await launchBrowser()
    page = await browser.newPage({ viewport: { width: 1440, height: 960 } })
  })

  it('shows the built-in model as ready on first launch, with no endpoint to set up', async () => {
    await page.goto(app?.url ?? '')
    const ready = page.getByTestId('builtin-ready')
    await ready.waitFor({ timeout: 60_000 })
    expect(await ready.innerText()).toMatch(/The built-in model is ready: SmolLM2 135M Instruct \(Q4_1\) \(98 MB\)/)
    await expect.poll(() => page.getByTestId('endpoint-health').innerText(), { timeout: 30_000 }).toContain('ready on this computer')
    expect(await page.getByText('No model endpoint is set up.').count()).toBe(0)
  })

  it("answers a question about a sample table with the engine's candidates and their programs", async () => {
    await page.getByTestId('file-input').setInputFiles(ORDERS)
    await expect.poll(() => page.getByTestId('table-title').textContent(), { timeout: 30_000 }).toContain('orders.csv')
    await page.getByRole('status').filter({ hasText: /ready/i }).first().waitFor({ timeout: 120_000 })
    const box = page.getByRole('textbox', { name: 'Question' })
    await box.fill(QUESTION)
    await box.press('Enter')
    await page.getByRole('status', { name: 'Question progress' }).waitFor({ timeout: 30_000 })
    // Samples of up to 600 tokens each from the real engine, then the sandbox: minutes on a busy machine.
    const meta = page.locator('.answer-meta')
    await meta.waitFor({ timeout: 540_000 })
    expect(await meta.innerText()).toMatch(/^On this computer · SmolLM2 135M Instruct \(Q4_1\) · 2 candidates · chosen by logprob/)
    await page.getByText(/Candidates \(2\)/).click()
    const candidates = page.getByRole('list', { name: 'Candidates' }).locator(':scope > li')
    expect(await candidates.count()).toBe(2)
    for (const text of await candidates.allInnerTexts()) {
      // Every sample carries the engine's log-probability of its tokens, a real negative number.
      expect(text).toMatch(/log p -\d+\.\d{3} \(-\d+\.\d{3}\)/)
    }
    // Each candidate shows its program, or says that the reply held none.
    const programs = await page.getByLabel(/^Program of candidate \d$/).count()
    const none = await page.getByText('The reply held no program.').count()
    expect(programs + none).toBe(2)
    await screenshot(page, 'builtin-model-answer')
  }, 600_000)

  it('finds the question in history after a reload', async () => {
    await page.reload()
    const asked = page.getByRole('list', { name: 'Questions' }).getByRole('listitem')
    await expect.poll(() => asked.first().innerText(), { timeout: 30_000 }).toContain(QUESTION)
    await asked.first().getByRole('button').click()
    await expect.poll(() => page.locator('.answer-meta').innerText(), { timeout: 30_000 }).toContain('On this computer')
  })
})
