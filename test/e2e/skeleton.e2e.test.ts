import { readFileSync } from 'node:fs'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dataset, launchBrowser, screenshot, showPythonPanel, startWebApp, type WebApp } from './support'

const CSV = dataset('wikitq', 'csv', '204-csv', '104.csv')
// The sibling .tsv has one line per row and no quoting: an independent count of the data rows.
const EXPECTED_ROWS =
  readFileSync(dataset('wikitq', 'csv', '204-csv', '104.tsv'), 'utf8')
    .trimEnd()
    .split('\n').length - 1

let app: WebApp
let browser: Browser
let page: Page

beforeAll(async () => {
  app = await startWebApp()
  browser = await launchBrowser()
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
})

afterAll(async () => {
  await browser?.close()
  await app?.stop()
})

describe('browser mode: open a table, run Python on it, keep history', () => {
  it('opens a WikiTQ CSV and shows its cells in the grid', async () => {
    await page.goto(app.url)
    await page.getByTestId('file-input').setInputFiles(CSV)
    await expect.poll(() => page.getByTestId('table-title').textContent(), { timeout: 30_000 }).toContain('104.csv')
    const grid = page.getByRole('region', { name: 'Table' })
    await grid.getByText('Zenobia, regina de’ Palmireni').first().waitFor({ timeout: 30_000 })
    await grid.getByText('Venice, Teatro Santi Giovanni e Paolo').first().waitFor()
    await screenshot(page, 'skeleton-table')
  })

  it('runs a snippet that counts the rows and shows the right number', async () => {
    await page.getByRole('status').filter({ hasText: /ready/i }).first().waitFor({ timeout: 120_000 })
    await showPythonPanel(page)
    const editor = page.getByLabel('Python code')
    await editor.fill('len(df) if "df" in globals() else len(rows)')
    await page.getByRole('button', { name: 'Run', exact: true }).click()
    const value = page.getByTestId('run-value')
    await expect.poll(() => value.textContent(), { timeout: 60_000 }).toContain(String(EXPECTED_ROWS))
    expect(EXPECTED_ROWS).toBe(55)
    await screenshot(page, 'skeleton-run')
  })

  it('finds the run in history after a reload', async () => {
    await page.reload()
    const history = page.getByRole('list', { name: 'History' })
    const item = history.getByRole('listitem').first()
    await item.waitFor({ timeout: 30_000 })
    await expect.poll(() => item.textContent()).toContain('len(df)')
    await expect.poll(() => item.textContent()).toContain('104.csv')
    await screenshot(page, 'skeleton-history')
  })

  it('stops a runaway snippet with Stop, and the next run works', async () => {
    await page.getByTestId('file-input').setInputFiles(CSV)
    await page.getByRole('status').filter({ hasText: /ready/i }).first().waitFor({ timeout: 120_000 })
    await page.getByLabel('Python code').fill('while True:\n    pass')
    await page.getByRole('button', { name: 'Run', exact: true }).click()
    const stop = page.getByRole('button', { name: 'Stop', exact: true })
    await expect.poll(() => stop.isEnabled(), { timeout: 30_000 }).toBe(true)
    await stop.click()
    await expect.poll(() => page.getByRole('region', { name: 'Output' }).textContent(), { timeout: 30_000 }).toMatch(/Stopped by you/)
    await page.getByLabel('Python code').fill('6 * 7')
    await page.getByRole('button', { name: 'Run', exact: true }).click()
    await expect.poll(() => page.getByTestId('run-value').textContent(), { timeout: 30_000 }).toContain('42')
  })
})
