import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sheetsOf, writeXlsx } from '../support/workbook-writer'
import { dataset, keepScreenshot, launchBrowser, screenshot, startWebApp, type WebApp } from './support'

/**
 * A workbook of more than a hundred sheets, built from the tables of five published workbooks. It opens
 * with the construction bulletin's cover and contents sheets, whose first table is "Table 1a".
 */
const FILE = 'statistics-digest.xlsx'
const sources = [
  { path: dataset('spreadsheets', 'ons-databaker', 'bulletindataset2v2.xls'), title: 'Construction output' },
  { path: dataset('spreadsheets', 'tidyabs', '92080DO001_1231201610.xlsx'), title: 'Motor vehicle use' },
  { path: dataset('spreadsheets', 'forestry-gss-cogs', 'Ch1_Woodland_FS2022.xlsx'), title: 'Woodland area' },
  { path: dataset('spreadsheets', 'tidyabs', '46040do0001_2015_16.xlsx'), title: 'Energy account' },
  { path: dataset('spreadsheets', 'tidyabs', '63060.0.xlsx'), title: 'Employee earnings and hours' }
]

let app: WebApp
let browser: Browser
let page: Page
let path: string
let sheetNames: string[]

beforeAll(async () => {
  const sheets = sheetsOf(sources)
  sheetNames = sheets.map((s) => s.name)
  path = join(mkdtempSync(join(tmpdir(), 'tableqa-workbook-')), FILE)
  writeFileSync(path, writeXlsx(sheets))
  app = await startWebApp()
  browser = await launchBrowser()
  page = await browser.newPage({ viewport: { width: 1600, height: 1000 } })
})

afterAll(async () => {
  await browser?.close()
  await app?.stop()
})

const strip = (): ReturnType<Page['getByRole']> => page.getByRole('tablist', { name: 'Open tables' })
const tabs = (): ReturnType<Page['locator']> => strip().getByRole('tab')
const activeTab = (): ReturnType<Page['locator']> => strip().locator('[role="tab"][aria-selected="true"]')
const title = (): Promise<string | null> => page.getByTestId('table-title').textContent()
const card = (): ReturnType<Page['locator']> =>
  page
    .getByRole('list', { name: 'Sessions' })
    .getByRole('listitem')
    .filter({ has: page.locator('.badge', { hasText: 'current' }) })

/** The active tab lies within the visible part of the tab strip. */
async function activeTabInView(): Promise<boolean> {
  const [box, tab] = await Promise.all([strip().boundingBox(), activeTab().boundingBox()])
  return box !== null && tab !== null && tab.x >= box.x - 1 && tab.x + tab.width <= box.x + box.width + 1
}

describe('a workbook of more than a hundred sheets', () => {
  it('opens at its first table, with a distinct short label on every tab and the full name on hover', async () => {
    expect(sheetNames.length).toBeGreaterThanOrEqual(100)
    await page.goto(app.url)
    await page.getByTestId('file-input').setInputFiles(path)
    // The cover and contents sheets come first; the first view is the first table of figures.
    await expect.poll(title, { timeout: 90_000 }).toBe(`${FILE} › Construction output – Table 1a`)
    const names = await tabs().evaluateAll((els) =>
      els.map((el) => (el as unknown as { title: string }).title.replace(/: [\d,]+ rows$/, ''))
    )
    expect(names.length).toBeGreaterThanOrEqual(sheetNames.length)
    // Every sheet is there, the cover and contents too, in the workbook's order.
    expect(names.slice(0, 3)).toEqual([
      `${FILE} › Construction output – Cover Sheet`,
      `${FILE} › Construction output – Contents`,
      `${FILE} › Construction output – Table 1a`
    ])
    for (const sheet of sheetNames) expect(names.some((n) => n.startsWith(`${FILE} › ${sheet}`))).toBe(true)
    const labels = await tabs().allInnerTexts()
    expect(new Set(labels).size).toBe(labels.length)
    expect(labels.filter((l) => l.includes('…')).length).toBeGreaterThan(10)
    expect(Math.max(...labels.map((l) => l.length))).toBeLessThanOrEqual(30)
    // The tab shown is scrolled into view, and the picker counts every table.
    expect(await activeTabInView()).toBe(true)
    expect(await page.getByRole('button', { name: `All tables (${names.length})` }).count()).toBe(1)
    await screenshot(page, 'workbook-opened')
  })

  it('finds a sheet by part of its name in the picker and shows it', async () => {
    await page.getByRole('button', { name: /^All tables/ }).click()
    const search = page.getByRole('combobox', { name: 'Find a table' })
    await expect.poll(() => page.evaluate('document.activeElement?.getAttribute("aria-label")')).toBe('Find a table')
    await search.fill('vehicle table_12')
    const options = page.getByRole('listbox', { name: 'Tables' }).getByRole('option')
    await expect.poll(() => options.allInnerTexts()).toEqual([expect.stringContaining('Motor vehicle use – Table_12')])
    expect(await page.getByRole('dialog', { name: 'Find a table' }).getByRole('status').innerText()).toMatch(/^1 of \d+$/)
    await keepScreenshot(page, 'workbook')
    await search.press('Enter')
    await expect.poll(title, { timeout: 30_000 }).toBe(`${FILE} › Motor vehicle use – Table_12`)
    expect(await page.getByRole('dialog', { name: 'Find a table' }).count()).toBe(0)
    await expect.poll(activeTabInView).toBe(true)
    // Arrow keys move through the list; Escape closes it and leaves the table as it was.
    await page.getByRole('button', { name: /^All tables/ }).click()
    await search.fill('woodland')
    await search.press('ArrowDown')
    const cursor = page.getByRole('listbox', { name: 'Tables' }).locator('[data-cursor="true"]')
    expect(await cursor.innerText()).toContain('Woodland area')
    await search.press('Escape')
    expect(await page.getByRole('dialog', { name: 'Find a table' }).count()).toBe(0)
    expect(await title()).toBe(`${FILE} › Motor vehicle use – Table_12`)
  })

  it('opened again, gives back its tabs instead of copies, and the session card follows every change', async () => {
    const count = await tabs().count()
    await expect.poll(() => card().innerText(), { timeout: 30_000 }).toContain(`${count} tables`)
    await page.getByTestId('file-input').setInputFiles(path)
    await page
      .getByTestId('info-banner')
      .filter({ hasText: `${FILE} is open already` })
      .waitFor({ timeout: 60_000 })
    expect(await tabs().count()).toBe(count)
    await expect.poll(title).toBe(`${FILE} › Construction output – Table 1a`)
    expect(await card().innerText()).toContain(`${count} tables`)

    // Closing a table and opening another file show on the card at once, without a reload.
    await activeTab()
      .locator('xpath=..')
      .getByRole('button', { name: /^Close / })
      .click()
    await expect.poll(() => card().innerText(), { timeout: 30_000 }).toContain(`${count - 1} tables`)
    await page.getByTestId('file-input').setInputFiles(dataset('spreadsheets', 'census-govfinances', 'nst-est2019-01.xlsx'))
    await expect.poll(title, { timeout: 30_000 }).toBe('nst-est2019-01.xlsx › NST01')
    await expect.poll(() => card().innerText(), { timeout: 30_000 }).toContain(`${count} tables`)
    expect(await card().innerText()).toContain('nst-est2019-01.xlsx › NST01')
    // With tables of two files open, each tab names its file, shortened.
    expect(await activeTab().innerText()).toBe('nst-est2019-01.xlsx › NST01')
    expect(await tabs().first().innerText()).toMatch(/^statistics-digest\.x… › Construction output – /)
  })
})
