import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { dataset, pageForFile } from './support'

// A report of the NSF: a title block, two header rows (year › number, percent) and fields indented under their groups.
const PHD = dataset('spreadsheets', 'tidyabs', 'PhD_major-field.xlsx')

const file = pageForFile({ width: 1600, height: 1000 })
let page: Page

beforeAll(() => {
  page = file.page()
})

describe('the inspector says why', () => {
  it('shows next to a selected row node why it sits under its parent, and next to a header node why its row is a header', async () => {
    await page.getByTestId('file-input').setInputFiles(PHD)
    await expect.poll(() => page.getByTestId('table-title').textContent(), { timeout: 30_000 }).toContain('PhD_major-field.xlsx')
    const leftTree = page.getByRole('tree', { name: 'Left header tree' })
    const chemistry = leftTree.getByRole('treeitem', { name: 'Chemistry', exact: true })
    await chemistry.waitFor({ timeout: 30_000 })
    await chemistry.click()
    const why = page.getByTestId('left-why')
    await expect
      .poll(() => why.textContent(), { timeout: 10_000 })
      .toBe("data: a row of values. nested under 'Physical sciences and earth sciences': indented deeper than it")
    // The reason is the selected node's description, and every node carries its own as a tooltip.
    expect(await chemistry.getAttribute('aria-describedby')).toBe('left-why')
    expect(await leftTree.getByRole('treeitem', { name: 'Life sciences', exact: true }).getAttribute('title')).toBe(
      "data: a row of values. nested under 'All fields': indented deeper than it"
    )
    expect(await page.getByTestId('label-columns-why').textContent()).toBe('Label columns: the first column under the corner of the header')

    const topTree = page.getByRole('tree', { name: 'Top header tree' })
    await topTree.getByRole('treeitem', { name: 'Percent' }).first().click()
    await expect.poll(() => page.getByTestId('top-why').textContent(), { timeout: 10_000 }).toBe('child labels under the parents above')
  })

  it('says a layout changed in the inspector is set by hand, and sets it again when the same file is opened again', async () => {
    await page.getByLabel('Header columns').fill('0')
    await expect
      .poll(() => page.getByTestId('label-columns-why').textContent(), { timeout: 30_000 })
      .toBe('Label columns set by hand in the inspector')
    // Closed, then opened again: the same bytes get the layout set on them.
    const tabs = page.getByRole('tablist', { name: 'Open tables' }).getByRole('tab')
    await page.getByRole('button', { name: /^Close PhD_major-field\.xlsx/ }).click()
    await expect.poll(() => tabs.count(), { timeout: 30_000 }).toBe(0)
    await page.getByTestId('file-input').setInputFiles(PHD)
    await expect.poll(() => tabs.count(), { timeout: 30_000 }).toBe(1)
    await expect.poll(() => page.getByLabel('Header columns').inputValue(), { timeout: 30_000 }).toBe('0')
    await expect
      .poll(() => page.getByTestId('label-columns-why').textContent(), { timeout: 30_000 })
      .toBe('Label columns set by hand in the inspector')
  })
})
