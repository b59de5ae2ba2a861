import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dataset, launchBrowser, screenshot, startWebApp, type WebApp } from './support'

const VIEWPORT = { width: 1600, height: 1000 }
const sheet = (folder: string, file: string): string => dataset('spreadsheets', folder, file)
const POPULATION = sheet('census-govfinances', 'nst-est2019-01.xlsx')
const DOCTORATES = sheet('tidyabs', 'PhD_major-field.xlsx')

/** Published reports with more than eight data columns, and the table each opens at. */
const REPORTS = [
  { path: POPULATION, table: 'nst-est2019-01.xlsx › NST01' },
  { path: DOCTORATES, table: 'PhD_major-field.xlsx › Table 12' },
  { path: sheet('census-govfinances', '2016_asfin_state_totals.xlsx'), table: '2016_asfin_state_totals.xlsx › 2016 ASFIN State Totals' },
  { path: sheet('smungs', 'toronto_transit.xlsx'), table: 'toronto_transit.xlsx › 1985-2017 ACTUALS' },
  { path: sheet('ons-databaker', 'bulletindataset2v2.xls'), table: 'bulletindataset2v2.xls › Table 1a' },
  {
    path: sheet('tidyabs', 'PhD_ subfield-citizenship-status-ethnicity-race.xlsx'),
    table: 'PhD_ subfield-citizenship-status-ethnicity-race.xlsx › Table 22'
  }
]

let app: WebApp
let browser: Browser
let page: Page

beforeAll(async () => {
  app = await startWebApp()
  browser = await launchBrowser()
  page = await browser.newPage({ viewport: VIEWPORT })
})

afterAll(async () => {
  await browser?.close()
  await app?.stop()
})

const grid = (): ReturnType<Page['getByRole']> => page.getByRole('region', { name: 'Table', exact: true })

/**
 * In the page: where the scrolled part of the grid is visible (right of the pinned index columns, left
 * of the vertical scroll bar that AG Grid draws over the cells' right edge).
 */
const VISIBLE = `
  const host = document.querySelector('.grid-host')
  const headers = [...host.querySelectorAll('.ag-header-cell[col-id]')]
  const isData = (el) => /^\\d+$/.test(el.getAttribute('col-id'))
  const pinned = Math.max(host.getBoundingClientRect().left, ...headers.filter((h) => !isData(h)).map((h) => h.getBoundingClientRect().right))
  const viewport = host.querySelector('.ag-grid-viewport').getBoundingClientRect()
  const bar = host.querySelector('.ag-body-vertical-scroll')?.getBoundingClientRect()
  const right = bar && bar.width > 0 && bar.height > 0 ? Math.min(viewport.right, bar.left) : viewport.right
`

/** Data columns whose header lies wholly in view. */
function columnsInView(): Promise<number> {
  return page.evaluate(`(() => {${VISIBLE}
    return headers.filter(isData).map((h) => h.getBoundingClientRect()).filter((b) => b.width > 0 && b.left >= pinned - 1 && b.right <= right + 1).length
  })()`)
}

type NumberCheck = { checked: number; cutAtStart: number; problems: string[] }

/**
 * Every number in view either shows whole, inside the visible part of the grid, or shows its end with an
 * ellipsis at its start (a right-to-left line with an ellipsis). Never digits lost at the grid's edge.
 */
function numbersInView(): Promise<NumberCheck> {
  return page.evaluate(`(() => {${VISIBLE}
    const out = { checked: 0, cutAtStart: 0, problems: [] }
    for (const cell of host.querySelectorAll('.ag-grid-scrolling-cells .numeric-cell')) {
      const box = cell.getBoundingClientRect()
      if (box.right <= pinned + 1 || box.left >= right - 1) continue
      const value = cell.querySelector('.ag-cell-value')
      const text = (value?.textContent ?? '').trim()
      if (!value || text === '') continue
      out.checked++
      const v = value.getBoundingClientRect()
      const style = getComputedStyle(value)
      const overflows = value.scrollWidth > value.clientWidth + 0.5
      const marked = style.direction === 'rtl' && style.textOverflow === 'ellipsis' && style.overflowX === 'hidden'
      const where = cell.getAttribute('col-id') + '/' + cell.closest('[row-index]')?.getAttribute('row-index') + ' "' + text + '"'
      if (v.left < pinned - 0.5 || v.right > right + 0.5) out.problems.push(where + ' lies partly outside the visible grid')
      else if (overflows && !marked) out.problems.push(where + ' is cut without a mark')
      else if (overflows) out.cutAtStart++
    }
    return out
  })()`)
}

/** Numbers in columns wholly in view that do not fit their column. */
function numbersNotFitting(): Promise<string[]> {
  return page.evaluate(`(() => {${VISIBLE}
    const out = []
    for (const cell of host.querySelectorAll('.ag-grid-scrolling-cells .numeric-cell')) {
      const box = cell.getBoundingClientRect()
      if (box.left < pinned - 1 || box.right > right + 1) continue
      const value = cell.querySelector('.ag-cell-value')
      if (value && value.scrollWidth > value.clientWidth + 0.5) out.push(cell.getAttribute('col-id') + ' "' + value.textContent + '"')
    }
    return out
  })()`)
}

async function openReport(path: string, table: string): Promise<void> {
  if (!page.url().startsWith(app.url.replace(/#.*$/, ''))) await page.goto(app.url)
  await page.getByTestId('file-input').setInputFiles(path)
  await expect.poll(() => page.getByTestId('table-title').textContent(), { timeout: 60_000 }).toBe(table)
  await page.getByText(/Loading rows/).waitFor({ state: 'detached', timeout: 60_000 })
  await expect.poll(() => grid().locator('.numeric-cell .ag-cell-value').count(), { timeout: 60_000, message: table }).toBeGreaterThan(0)
}

describe('layout: the grid gets the room', () => {
  it('shows at least eight data columns of published reports at 1600 × 1000 with the panels as they start', async () => {
    await page.goto(app.url)
    await page.getByRole('heading', { name: /tables of any shape/i }).waitFor({ timeout: 30_000 })
    const seen: string[] = []
    for (const report of REPORTS) {
      await openReport(report.path, report.table)
      // Poll: the columns take their widths once the first rows are in.
      await expect.poll(columnsInView, { timeout: 30_000, message: report.table }).toBeGreaterThanOrEqual(8)
      seen.push(`${report.table}: ${await columnsInView()}`)
      const box = await grid().boundingBox()
      expect(box && box.width >= 0.65 * VIEWPORT.width && box.height >= 0.75 * VIEWPORT.height).toBe(true)
    }
    console.log(`data columns in full view at ${VIEWPORT.width}×${VIEWPORT.height}:\n  ${seen.join('\n  ')}`)
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(VIEWPORT.width)
    await screenshot(page, 'layout')
  })
})

describe('layout: numbers are never cut', () => {
  it('sizes numeric columns to their numbers and marks a number cut by the edge of the grid at its start', async () => {
    await openReport(POPULATION, 'nst-est2019-01.xlsx › NST01')
    await expect.poll(numbersNotFitting, { timeout: 30_000 }).toEqual([])
    // The table is wider than the grid: the last column in view is cut by its edge.
    let check = await numbersInView()
    expect(check.problems).toEqual([])
    expect(check.checked).toBeGreaterThan(50)
    expect(check.cutAtStart).toBeGreaterThan(0)
    // Scrolled sideways, whatever column the edge cuts.
    await grid().locator('.numeric-cell').first().hover()
    for (const dx of [37, 160, 95]) {
      await page.mouse.wheel(dx, 0)
      await expect.poll(async () => (await numbersInView()).problems, { timeout: 10_000 }).toEqual([])
    }
    check = await numbersInView()
    expect(check.checked).toBeGreaterThan(50)
  })

  it('shows the end of a number in a column made too narrow, and the whole number on hover', async () => {
    await grid().locator('.ag-header-cell[col-id="0"]').scrollIntoViewIfNeeded()
    await page.mouse.wheel(-2_000, 0)
    const header = grid().locator('.ag-header-cell[col-id="0"]')
    // The grid scrolls and lays out its pinned columns after the wheel: the handle is read once the header has come
    // to rest (read at once, it lay where the header had been, and the drag missed it).
    await expect
      .poll(async () => {
        const before = await header.boundingBox()
        await page.waitForTimeout(150)
        const after = await header.boundingBox()
        return before !== null && after !== null && before.x === after.x && before.width === after.width
      })
      .toBe(true)
    const handle = await header.locator('.ag-header-cell-resize').boundingBox()
    const width = (await header.boundingBox())?.width ?? 0
    if (!handle || width === 0) throw new Error('no resize handle on the first data column')
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2)
    await page.mouse.down()
    await page.mouse.move(handle.x + handle.width / 2 - (width - 52), handle.y + handle.height / 2, { steps: 8 })
    await page.mouse.up()
    await expect.poll(async () => (await header.boundingBox())?.width ?? 0).toBeLessThan(60)
    const check = await numbersInView()
    expect(check.problems).toEqual([])
    expect(check.cutAtStart).toBeGreaterThan(3)
    const cell = grid().locator('[role="gridcell"][col-id="0"].numeric-cell').nth(2)
    const shown = (await cell.innerText()).trim()
    expect(shown).toMatch(/^\d{1,3}(,\d{3})+$/)
    await cell.hover()
    await expect.poll(() => page.locator('.ag-tooltip').innerText(), { timeout: 10_000 }).toBe(shown)
    await page.mouse.move(0, 0)
  })

  it('heads index columns by their level name, or "level n", without a filter', async () => {
    await openReport(DOCTORATES, 'PhD_major-field.xlsx › Table 12')
    const indexHeaders = grid().locator('.ag-header-cell[col-id^="i:"]')
    await expect.poll(() => indexHeaders.locator('.ag-header-cell-text').allInnerTexts()).toEqual(['level 1', 'level 2', 'Field of study'])
    expect(await indexHeaders.locator('.ag-header-cell-filter-button, .ag-header-cell-menu-button').count()).toBe(0)
    // Data columns keep their filter: its button takes no room, and shows on hover.
    const data = grid().locator('.ag-header-cell[col-id="0"]')
    const button = data.locator('.ag-header-cell-filter-button')
    expect(await button.count()).toBe(1)
    const opacity = (el: unknown): string =>
      (globalThis as unknown as { getComputedStyle(e: unknown): { opacity: string } }).getComputedStyle(el).opacity
    expect(await button.evaluate(opacity)).toBe('0')
    await data.hover()
    await expect.poll(() => button.evaluate(opacity)).toBe('1')
    await page.mouse.move(0, 0)
  })
})

describe('layout: panels', () => {
  const toggle = (name: string): ReturnType<Page['getByRole']> =>
    page.getByRole('group', { name: 'Panels' }).getByRole('button', { name, exact: true })
  const gridWidth = async (): Promise<number> => (await grid().boundingBox())?.width ?? 0
  const separator = (name: string): ReturnType<Page['getByRole']> => page.getByRole('separator', { name })

  it('folds the side panels so the grid takes their room, and keeps them so after a reload', async () => {
    const start = await gridWidth()
    await toggle('Sessions').click()
    expect(await toggle('Sessions').getAttribute('aria-pressed')).toBe('false')
    await page.getByRole('button', { name: 'Show sessions and history' }).waitFor()
    await expect.poll(gridWidth).toBeGreaterThan(start + 200)
    const withoutSessions = await gridWidth()
    await toggle('Header tree').click()
    expect(await page.locator('#inspector').count()).toBe(0)
    await expect.poll(gridWidth).toBeGreaterThan(withoutSessions + 200)
    const folded = await gridWidth()

    await page.reload()
    await expect.poll(() => page.getByTestId('table-title').textContent(), { timeout: 30_000 }).toBe('PhD_major-field.xlsx › Table 12')
    expect(await toggle('Sessions').getAttribute('aria-pressed')).toBe('false')
    expect(await toggle('Header tree').getAttribute('aria-pressed')).toBe('false')
    await expect.poll(gridWidth).toBe(folded)

    await page.getByRole('button', { name: 'Show sessions and history' }).click()
    await toggle('Header tree').click()
    await page.getByRole('heading', { name: 'Sessions' }).waitFor()
    await expect.poll(gridWidth).toBe(start)
  })

  it('resizes a panel by dragging its handle or with the keyboard, remembers the size, and resets it on double-click', async () => {
    const handle = separator('Resize the header tree')
    expect(await handle.getAttribute('aria-valuenow')).toBe('260')
    const box = await handle.boundingBox()
    if (!box) throw new Error('no handle')
    await page.mouse.move(box.x + box.width / 2, box.y + 200)
    await page.mouse.down()
    await page.mouse.move(box.x + box.width / 2 - 100, box.y + 200, { steps: 5 })
    await page.mouse.up()
    expect(await handle.getAttribute('aria-valuenow')).toBe('360')
    await expect.poll(async () => Math.round((await page.locator('#inspector').boundingBox())?.width ?? 0)).toBe(360)

    const sessions = separator('Resize sessions and history')
    await sessions.focus()
    await page.keyboard.press('ArrowLeft')
    await page.keyboard.press('Shift+ArrowLeft')
    expect(await sessions.getAttribute('aria-valuenow')).toBe(String(260 + 16 + 64))
    await page.keyboard.press('End')
    expect(await sessions.getAttribute('aria-valuenow')).toBe('640')
    await page.keyboard.press('Home')
    expect(await sessions.getAttribute('aria-valuenow')).toBe('220')

    await page.reload()
    await expect.poll(() => page.getByTestId('table-title').textContent(), { timeout: 30_000 }).toBe('PhD_major-field.xlsx › Table 12')
    expect(await separator('Resize the header tree').getAttribute('aria-valuenow')).toBe('360')
    expect(await separator('Resize sessions and history').getAttribute('aria-valuenow')).toBe('220')
    await separator('Resize the header tree').dblclick()
    await separator('Resize sessions and history').dblclick()
    expect(await separator('Resize the header tree').getAttribute('aria-valuenow')).toBe('260')
    expect(await separator('Resize sessions and history').getAttribute('aria-valuenow')).toBe('260')
  })

  it('starts with the Python panel folded, and unfolded it is empty, with help that is not code', async () => {
    expect(await page.getByLabel('Python code').count()).toBe(0)
    await page.locator('.python-bar').getByRole('button', { name: 'Python' }).click()
    const editor = page.getByLabel('Python code')
    await editor.waitFor()
    expect(await editor.inputValue()).toBe('')
    expect(await editor.getAttribute('placeholder')).toBe('Type Python code here…')
    const help = await page.locator(`#${(await editor.getAttribute('aria-describedby')) ?? 'none'}`).innerText()
    expect(help).toContain('The open table is df')
    const run = page.getByRole('button', { name: 'Run', exact: true })
    expect(await run.isDisabled()).toBe(true)
    await page.getByRole('status').filter({ hasText: /ready/i }).first().waitFor({ timeout: 120_000 })
    await editor.fill('6 * 7')
    expect(await run.isDisabled()).toBe(false)
    await run.click()
    await expect.poll(() => page.getByTestId('run-value').textContent(), { timeout: 60_000 }).toContain('42')

    const height = async (): Promise<number> => Math.round((await page.locator('#python-panel').boundingBox())?.height ?? 0)
    const before = await height()
    await separator('Resize the Python panel').focus()
    await page.keyboard.press('ArrowUp')
    await page.keyboard.press('ArrowUp')
    await expect.poll(height).toBe(before + 32)
    await screenshot(page, 'python-panel')
    await page.getByRole('button', { name: 'Hide the Python panel' }).click()
    expect(await page.getByLabel('Python code').count()).toBe(0)
    await page.reload()
    await page.locator('.python-bar').waitFor({ timeout: 30_000 })
    expect(await page.getByLabel('Python code').count()).toBe(0)
  })
})
