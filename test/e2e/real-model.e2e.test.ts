import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { APP_SETTINGS_KEY } from '../../src/main/app/settings-handlers'
import { appRoot } from '../../src/main/services/paths'
import { SETTINGS_STORE } from '../../src/main/services/settings'
import { openFileStore } from '../../src/main/services/store/store'
import { describeWithRealModel } from '../support/test-model'
import { launchBrowser, screenshot, startWebApp, usePandas, type WebApp } from './support'

const SAMPLES = join(appRoot(), 'resources', 'samples')
const CHART_QUESTION = 'Plot the total amount of each customer as a bar chart.'
const TABLE_QUESTION = 'Show the rows whose revenue change from 2023 to 2024 is negative, as a table.'

let app: WebApp | undefined
let browser: Browser | undefined
let page: Page

afterAll(async () => {
  await browser?.close()
  await app?.stop()
})

async function open(file: string, title: string): Promise<void> {
  await page.getByTestId('file-input').setInputFiles(join(SAMPLES, file))
  await expect.poll(() => page.getByTestId('table-title').textContent(), { timeout: 60_000 }).toContain(title)
}

/** Asks, and waits for the real model's answer: loading, reading the prompt, one sample, its run. */
async function ask(question: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Question' })
  await box.fill(question)
  await box.press('Enter')
  await page.getByRole('status', { name: 'Question progress' }).waitFor({ timeout: 30_000 })
  await page.getByRole('status', { name: 'Question progress' }).waitFor({ state: 'detached', timeout: 540_000 })
}

// The mechanism through a real code model (Qwen2.5-Coder-1.5B-Instruct in the built-in engine): a chart
// question comes back as a drawn chart and a table question as a grid. Which program the model writes
// is its own; the tests assert what the app makes of it. Greedy and one sample, so a run is repeatable.
describeWithRealModel('charts and tables answered by the real built-in model', (model) => {
  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tableqa-web-real-model-'))
    const { store } = openFileStore(dataDir, SETTINGS_STORE)
    store.set(APP_SETTINGS_KEY, { sampling: { n: 1, temperature: 0, selection: 'logprob', score: 'sum' } })
    store.set('builtin', { modelFile: model, threads: 0, contextSize: 8192 })
    app = await startWebApp(dataDir)
    browser = await launchBrowser()
    page = await browser.newPage({ viewport: { width: 1440, height: 960 } })
  })

  it('starts with the real model ready, and programs running in a Python with pandas', async () => {
    await page.goto(app?.url ?? '')
    await expect.poll(() => page.getByTestId('endpoint-health').innerText(), { timeout: 120_000 }).toContain('ready on this computer')
    // Programs of a real model use pandas.
    await usePandas(page)
  })

  it('answers a chart question with a drawn chart', async () => {
    await open('orders.csv', 'orders.csv')
    await ask(CHART_QUESTION)
    const meta = page.locator('.answer-meta')
    await meta.waitFor({ timeout: 30_000 })
    expect(await meta.innerText()).toMatch(/^On this computer · Qwen2\.5 Coder 1\.5B Instruct \(Q4_K_M\) · 1 candidate/)
    const chart = page.getByTestId('answer-chart')
    await expect.poll(() => chart.getAttribute('data-state'), { timeout: 60_000 }).toBe('drawn')
    // A bar chart of something: marks drawn in the SVG, and the figure says what it holds.
    expect(await chart.locator('svg .mark-rect path').count()).toBeGreaterThan(1)
    expect(await page.getByRole('figure', { name: 'Answer chart' }).innerText()).toMatch(/\bbar of /)
    await screenshot(page, 'real-model-chart')
  })

  it('answers a table question on the sample workbook with a grid', async () => {
    await open('regional-report.xlsx', 'regional-report.xlsx')
    await ask(TABLE_QUESTION)
    const table = page.getByRole('region', { name: 'Answer table' })
    await table.waitFor({ timeout: 30_000 })
    const size = /(\d+) rows? × (\d+) columns?/.exec(await table.innerText())
    expect(size).not.toBeNull()
    // A table of several rows and columns is named by its size above the grid, not by a wall of its values.
    if (Number(size?.[1]) > 1 && Number(size?.[2]) > 1)
      expect(await page.getByTestId('answer-text').innerText()).toBe(`A table of ${size?.[1]} rows × ${size?.[2]} columns`)
    expect(await table.locator('[role="row"] [col-id]').count()).toBeGreaterThan(1)
    await screenshot(page, 'real-model-table')
  })
})
