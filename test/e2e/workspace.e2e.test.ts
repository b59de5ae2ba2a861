import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dataset, keepScreenshot, launchBrowser, showPythonPanel, startWebApp, type WebApp } from './support'

// A StatCan table: three header rows (sex › statistic › bound) and nested row labels.
const HITAB = dataset('hitab', 'data', 'tables', 'raw', '1284.json')

let app: WebApp
let browser: Browser
let page: Page

beforeAll(async () => {
  app = await startWebApp()
  browser = await launchBrowser()
  page = await browser.newPage({ viewport: { width: 1600, height: 1000 } })
})

afterAll(async () => {
  await browser?.close()
  await app?.stop()
})

const grid = (): ReturnType<Page['getByRole']> => page.getByRole('region', { name: 'Table' })
const groupHeaders = (): Promise<string[]> => grid().locator('.ag-header-group-cell').allInnerTexts()
const indexCells = (level: number): ReturnType<Page['locator']> => grid().locator(`[role="gridcell"][col-id="i:${level}"]`)
const highlighted = (): ReturnType<Page['locator']> => grid().locator('[role="gridcell"].cell-highlight')
const firstTuple = (): Promise<string | null> =>
  page.getByRole('list', { name: 'Column tuples' }).getByRole('listitem').first().textContent()

/**
 * Levels of the open table's columns as Python sees them: pandas `nlevels`, or without pandas, 3 when the
 * rows view names the third column by its joined path ("both sexes | 95% … | from") and 1 when the flat
 * view's single-level name ("both sexes - 95% … - from") comes through.
 */
async function columnLevels(): Promise<string> {
  await page.getByRole('status').filter({ hasText: /ready/i }).first().waitFor({ timeout: 120_000 })
  await showPythonPanel(page)
  await page.getByLabel('Python code').fill('df.columns.nlevels if "df" in globals() else (3 if " | " in columns[2] else 1)')
  const before = await page
    .getByTestId('run-value')
    .textContent()
    .catch(() => null)
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  await expect
    .poll(
      () =>
        page
          .getByTestId('run-value')
          .textContent()
          .catch(() => null),
      { timeout: 60_000 }
    )
    .not.toBe(before)
  return ((await page.getByTestId('run-value').textContent()) ?? '').trim()
}

describe('workspace: tables of any shape', () => {
  it('greets with samples when no table is open', async () => {
    await page.goto(app.url)
    await page.getByRole('heading', { name: /tables of any shape/i }).waitFor({ timeout: 30_000 })
    const samples = page.getByRole('list', { name: 'Sample tables' }).getByRole('button')
    expect(await samples.count()).toBe(3)
    // A first launch offers the built-in model: the catalog's default, its size, and a file already here.
    const offer = page.locator('[aria-label="Built-in model"]')
    await offer.waitFor({ timeout: 30_000 })
    expect(await offer.innerText()).toMatch(/Qwen2\.5 Coder 1\.5B Instruct \(Q4_K_M\)/)
    await keepScreenshot(page, 'welcome')
  })

  it('opens the XLSX sample: merged headers become column groups, indented labels pinned index columns', async () => {
    await page.getByRole('button', { name: 'Open sample: Regional revenue report' }).click()
    await expect.poll(() => page.getByTestId('table-title').textContent(), { timeout: 30_000 }).toContain('regional-report.xlsx')
    await grid().getByText('Whole-bean coffee').first().waitFor({ timeout: 30_000 })
    await expect.poll(groupHeaders).toEqual(expect.arrayContaining(['2023', '2024', 'Revenue ($ thousands)', 'Units sold (thousands)']))
    const regions = indexCells(0)
    await expect.poll(() => regions.allInnerTexts()).toContain('Atlantic')
    expect(await indexCells(1).allInnerTexts()).toContain('Whole-bean coffee')
    // Row spanning: one cell shows "Atlantic" for the region row and its four product lines.
    const atlantic = indexCells(0).filter({ hasText: /^Atlantic$/ })
    expect(await atlantic.count()).toBe(1)
    expect(await atlantic.getAttribute('aria-rowspan')).toBe('5')
    // Numbers are right-aligned and show the source text on hover.
    const numberCell = grid().locator('[role="gridcell"].numeric-cell').nth(3)
    // The test compiles with Node's types only: reach the page's getComputedStyle through a cast.
    const style = (el: unknown): string =>
      (globalThis as unknown as { getComputedStyle(e: unknown): { textAlign: string } }).getComputedStyle(el).textAlign
    expect(await numberCell.evaluate(style)).toBe('right')
    const shown = (await numberCell.innerText()).trim()
    await numberCell.hover()
    await expect.poll(() => page.locator('.ag-tooltip').innerText(), { timeout: 10_000 }).toBe(shown)
    await page.mouse.move(0, 0)
  })

  it('opens a HiTab table in a second tab with its header trees in the inspector', async () => {
    await page.getByTestId('file-input').setInputFiles(HITAB)
    await expect.poll(() => page.getByTestId('table-title').textContent(), { timeout: 30_000 }).toContain('1284.json')
    expect(await page.getByRole('tablist', { name: 'Open tables' }).getByRole('tab').count()).toBe(2)
    await expect.poll(groupHeaders, { timeout: 30_000 }).toEqual(expect.arrayContaining(['both sexes', 'men', '95% confidence interval']))
    await expect.poll(() => indexCells(0).allInnerTexts()).toContain('education')
    const topTree = page.getByRole('tree', { name: 'Top header tree' })
    await topTree.getByRole('treeitem', { name: 'both sexes' }).waitFor()
    expect(await page.getByLabel('Header rows').inputValue()).toBe('3')
    expect(await firstTuple()).toBe("('both sexes', 'mean', '')")
    await keepScreenshot(page, 'workspace')
  })

  it('re-parses live when the header rows change, and back', async () => {
    await page.getByLabel('Header rows').fill('2')
    await expect.poll(firstTuple, { timeout: 30_000 }).toBe("('both sexes', 'mean')")
    await expect.poll(() => page.getByTestId('table-title').textContent()).toContain('1284.json')
    await page.getByLabel('Header rows').fill('3')
    await expect.poll(firstTuple, { timeout: 30_000 }).toBe("('both sexes', 'mean', '')")
  })

  it('highlights the cells under a selected tree node, and selects the node of a clicked cell', async () => {
    const topTree = page.getByRole('tree', { name: 'Top header tree' })
    await topTree.getByRole('treeitem', { name: 'men', exact: true }).click()
    await expect.poll(() => highlighted().count(), { timeout: 10_000 }).toBeGreaterThan(0)
    expect(await grid().locator('.ag-header-group-cell.header-highlight').allInnerTexts()).toContain('men')
    await expect.poll(() => page.getByTestId('header-selection').textContent()).toContain('Columns: men')

    // Keyboard: arrows move within the tree, Enter selects.
    const leftTree = page.getByRole('tree', { name: 'Left header tree' })
    await leftTree.getByRole('treeitem').first().focus()
    await page.keyboard.press('End')
    await page.keyboard.press('Enter')
    await expect.poll(() => page.getByTestId('header-selection').textContent()).toMatch(/^Rows: /)
    expect(await leftTree.locator('[aria-selected="true"]').count()).toBe(1)

    await indexCells(0).filter({ hasText: 'education' }).first().click()
    await expect.poll(() => leftTree.locator('[aria-selected="true"]').textContent()).toContain('education')
    await expect.poll(() => highlighted().count()).toBeGreaterThan(0)
    await keepScreenshot(page, 'inspector')
  })

  it('flattens and goes back to the multi-index', async () => {
    await page.getByRole('radio', { name: 'Flatten' }).check()
    await expect.poll(firstTuple, { timeout: 30_000 }).toBe("('level 1',)")
    await expect.poll(groupHeaders).toEqual([])
    expect(await grid().locator('.ag-header-cell-text').allInnerTexts()).toContain('both sexes - mean')
    expect(await grid().locator('[col-id="i:0"]').count()).toBe(0)
    // Python gets the restructured table under the same id.
    expect(await columnLevels()).toBe('1')
    await page.getByRole('radio', { name: 'Multi-index' }).check()
    await expect.poll(groupHeaders, { timeout: 30_000 }).toEqual(expect.arrayContaining(['both sexes']))
    expect(await columnLevels()).toBe('3')
  })

  it('gets its tabs back after a reload, and / focuses the text box for questions or code', async () => {
    await page.reload()
    const tabs = page.getByRole('tablist', { name: 'Open tables' }).getByRole('tab')
    await expect
      .poll(() => tabs.allInnerTexts(), { timeout: 30_000 })
      .toEqual([expect.stringContaining('regional-report.xlsx'), '1284.json'])
    await expect.poll(() => page.getByTestId('table-title').textContent()).toContain('1284.json')
    await page.locator('body').click({ position: { x: 5, y: 5 } })
    expect(await page.evaluate('document.activeElement?.tagName')).toBe('BODY')
    await page.keyboard.press('/')
    expect(await page.evaluate('document.activeElement?.tagName')).toMatch(/^(TEXTAREA|INPUT)$/)
    // The key moved focus; it was not typed.
    expect(await page.evaluate('document.activeElement?.value ?? ""')).toBe('')
  })
})

describe('workspace: tables side by side on one sheet', () => {
  it('opens each as a tab of its own, with its own title, and gets them back after a reload', async () => {
    await page.goto(app.url)
    await page.getByTestId('file-input').setInputFiles(dataset('spreadsheets', 'forestry-gss-cogs', 'Ch1_Woodland_FS2022.xlsx'))
    const tabs = page.getByRole('tablist', { name: 'Open tables' }).getByRole('tab')
    // Tab labels drop the file name only while every open tab shares it.
    const split = async (): Promise<string[]> =>
      (await tabs.allInnerTexts()).map((t) => t.replace(/^.*› /, '')).filter((t) => t.startsWith('Table_1.6 '))
    await expect.poll(split, { timeout: 30_000 }).toEqual(['Table_1.6 (1 of 3)', 'Table_1.6 (2 of 3)', 'Table_1.6 (3 of 3)'])
    // Twenty-odd tabs scroll inside their strip: the strip, and the Ask button above it, stay left of the
    // sessions panel (they used to widen the main column under it).
    const panel = await page.getByRole('heading', { name: 'Sessions' }).boundingBox()
    const strip = await page.getByRole('tablist', { name: 'Open tables' }).boundingBox()
    const ask = await page.getByRole('button', { name: 'Ask', exact: true }).boundingBox()
    expect(panel && strip && ask && strip.x + strip.width <= panel.x && ask.x + ask.width <= panel.x).toBe(true)
    await tabs.filter({ hasText: 'Table_1.6 (3 of 3)' }).click()
    await expect
      .poll(() => page.getByTestId('source-title').textContent(), { timeout: 30_000 })
      .toContain('Table 1.6c: Stocked woodland area by age class')
    await expect.poll(firstTuple, { timeout: 30_000 }).toContain('England')
    await page.reload()
    await expect.poll(split, { timeout: 30_000 }).toEqual(['Table_1.6 (1 of 3)', 'Table_1.6 (2 of 3)', 'Table_1.6 (3 of 3)'])
  })
})

describe('workspace: a 200,000-row table', () => {
  it('loads in blocks, scrolls to the last row, and restructures with spanned index columns', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'tableqa-big-')), 'stores.csv')
    const lines = ['region,store,day,units,revenue']
    for (let i = 0; i < 200_000; i++)
      lines.push(`R${Math.floor(i / 20_000)},S${Math.floor(i / 50)},${i % 50},${(i * 7) % 101},${((i * 13) % 1000) / 10}`)
    writeFileSync(path, `${lines.join('\n')}\n`)
    await page.goto(app.url)
    await page.getByTestId('file-input').setInputFiles(path)
    let started = Date.now()
    await grid().getByText('S0', { exact: true }).first().waitFor({ timeout: 60_000 })
    const firstRows = Date.now() - started
    // Rows arrive in blocks: the progress shows before all 200,000 are in.
    await page.getByText(/Loading rows [\d,]+ \/ 200,000/).waitFor({ timeout: 10_000 })
    await page.getByText(/Loading rows/).waitFor({ state: 'detached', timeout: 120_000 })
    const allRows = Date.now() - started
    await grid().locator('[role="gridcell"][col-id="1"]').first().click()
    await page.keyboard.press('Control+End')
    await grid().getByText('S3999', { exact: true }).first().waitFor({ timeout: 10_000 })

    started = Date.now()
    await page.getByLabel('Header columns').fill('2')
    await indexCells(0).filter({ hasText: 'R0' }).first().waitFor({ timeout: 60_000 })
    const restructured = Date.now() - started
    expect(await indexCells(0).filter({ hasText: 'R0' }).first().getAttribute('aria-rowspan')).toBe('20000')
    await page.getByRole('tree', { name: 'Left header tree' }).getByRole('treeitem', { name: 'R3', exact: true }).click()
    await expect.poll(() => indexCells(1).filter({ hasText: 'S1200' }).count(), { timeout: 10_000 }).toBeGreaterThan(0)
    expect(await highlighted().count()).toBeGreaterThan(0)
    console.log(`200,000 rows: first rows ${firstRows} ms, all rows ${allRows} ms, restructured to 2 header columns ${restructured} ms`)
  })
})

describe('workspace: a spreadsheet with a title block', () => {
  it('sets the title rows aside, shows the title, and gives them back when the user asks', async () => {
    await page.goto(app.url)
    await page.getByTestId('file-input').setInputFiles(dataset('spreadsheets', 'tidyabs', 'PhD_major-field.xlsx'))
    await expect.poll(() => page.getByTestId('table-title').textContent(), { timeout: 30_000 }).toContain('PhD_major-field.xlsx')
    await expect.poll(groupHeaders, { timeout: 30_000 }).toEqual(expect.arrayContaining(['1987', '1992']))
    await expect.poll(() => indexCells(0).allInnerTexts()).toContain('All fields')
    expect(await page.getByLabel('Title rows').inputValue()).toBe('3')
    await expect.poll(() => page.getByTestId('source-title').textContent()).toContain('Doctorate recipients, by major field')
    expect(await firstTuple()).toBe("('1987', 'Number')")
    await keepScreenshot(page, 'title-block')
    // With no title rows the title lines become the header again, as the grid had them before.
    await page.getByLabel('Title rows').fill('0')
    await expect.poll(firstTuple, { timeout: 30_000 }).not.toBe("('1987', 'Number')")
    expect(await page.getByTestId('source-title').count()).toBe(0)
    await page.getByRole('button', { name: 'Reset to detected' }).click()
    await expect.poll(firstTuple, { timeout: 30_000 }).toBe("('1987', 'Number')")
  })
})

describe('workspace: a web table that writes its header again between groups of rows', () => {
  it('leaves the repeated header out of the rows and says so in the inspector', async () => {
    await page.goto(app.url)
    await page.getByTestId('file-input').setInputFiles(dataset('wikitq', 'csv', '202-csv', '76.csv'))
    await expect.poll(() => page.getByTestId('table-title').textContent(), { timeout: 30_000 }).toContain('76.csv')
    const warnings = page.getByRole('list', { name: 'Structure warnings' })
    await expect
      .poll(() => warnings.textContent(), { timeout: 30_000 })
      .toContain('Rows 5, 12 and 17 repeat the column headers and are not read as data.')
    const members = grid().locator('[role="gridcell"][col-id="0"]')
    await expect.poll(() => members.allInnerTexts(), { timeout: 30_000 }).toContain('Ian Armstrong')
    expect(await members.allInnerTexts()).not.toContain('Member')
    expect(await members.count()).toBe(14)
  })
})
