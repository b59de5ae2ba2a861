import type { Locator, Page } from 'playwright-core'
import { beforeAll, describe, expect, it } from 'vitest'
import { dataset, pageForFile, screenshot, showPythonPanel } from './support'

// The NSF's doctorates by field: broad fields under "All fields", their fields indented under them.
const PHD = dataset('spreadsheets', 'tidyabs', 'PhD_major-field.xlsx')

const file = pageForFile({ width: 1600, height: 1000 })
let page: Page

beforeAll(() => {
  page = file.page()
})

const leftTree = (): Locator => page.getByRole('tree', { name: 'Left header tree' })
const node = (name: string): Locator => leftTree().getByRole('treeitem', { name, exact: true })

/** The texts of the left tree's items as shown, top to bottom. */
async function treeTexts(): Promise<string[]> {
  return (await leftTree().getByRole('treeitem').allTextContents()).map((t) => t.replace(/^[▾▸]/, '').trim())
}

/** Chemistry's place in the tree: right after the last field of Life sciences, before Physical sciences. */
async function chemistryFollowsHealth(): Promise<boolean> {
  const texts = await treeTexts()
  const chemistry = texts.indexOf('Chemistry')
  return chemistry > 0 && texts[chemistry - 1] === 'Health sciences' && texts[chemistry + 1] === 'Physical sciences and earth sciences'
}

async function openPhd(): Promise<void> {
  const tabs = page.getByRole('tablist', { name: 'Open tables' }).getByRole('tab')
  const before = await tabs.count()
  await page.getByTestId('file-input').setInputFiles(PHD)
  await expect.poll(() => tabs.count(), { timeout: 30_000 }).toBe(before + 1)
  await node('Chemistry').waitFor({ timeout: 30_000 })
}

let runs = 0

/** What the Python panel's program gives for Chemistry's row index path (pandas, or the rows view without it). */
async function chemistryPath(): Promise<string> {
  await page.getByRole('status').filter({ hasText: /ready/i }).first().waitFor({ timeout: 120_000 })
  await showPythonPanel(page)
  // Each run's value starts with its own number, so a run that gives the same path as the last one is still told apart.
  const run = ++runs
  await page
    .getByLabel('Python code')
    .fill(
      `[${run}] + ([list(t) for t in df.index if t[-1] == "Chemistry"] if "df" in globals() else ` +
        '[[r["level_0"], r["level_1"], r["level_2"]] for r in rows if r["level_2"] == "Chemistry"])'
    )
  const value = page.getByTestId('run-value')
  await page.getByRole('button', { name: 'Run', exact: true }).click()
  const prefix = `[${run}, `
  await expect
    .poll(async () => ((await value.textContent().catch(() => null)) ?? '').trim().startsWith(prefix), { timeout: 60_000 })
    .toBe(true)
  const text = ((await value.textContent()) ?? '').trim()
  return `[${text.slice(prefix.length)}`
}

describe('moving a row by hand in the inspector', () => {
  it('moves a row under another parent: the tree, the reason, the row tuples and the program change', async () => {
    await openPhd()
    expect(await chemistryFollowsHealth()).toBe(false)
    expect(await chemistryPath()).toBe("[['All fields', 'Physical sciences and earth sciences', 'Chemistry']]")

    await node('Chemistry').click()
    const controls = page.getByTestId('row-move')
    await expect.poll(() => controls.textContent(), { timeout: 10_000 }).toContain('Sheet row 12 ‘Chemistry’')
    await controls.getByRole('button', { name: 'Move under…' }).click()
    const picker = controls.getByRole('listbox', { name: 'New parent' })
    // Rows above it only, with their paths; its parent now is marked.
    const options = await picker.getByRole('option').allTextContents()
    expect(options[0]).toBe('Physical sciences and earth sciences (sheet row 11) — under All fields — its parent now')
    expect(options).toContain('Life sciences (sheet row 7) — under All fields')
    expect(options).not.toContain('Physics and astronomy (sheet row 14) — under All fields › Physical sciences and earth sciences')
    await controls.getByRole('searchbox', { name: 'Find a parent row' }).fill('life')
    // The search reads the whole path: Life sciences and the three fields under it.
    await expect.poll(() => picker.getByRole('option').count()).toBe(4)
    expect((await picker.getByRole('option').allTextContents()).every((o) => o.includes('Life sciences'))).toBe(true)
    await screenshot(page, 'row-move-picker')
    await picker.selectOption({ label: 'Life sciences (sheet row 7) — under All fields' })
    await controls.getByRole('button', { name: 'Move here' }).click()

    await expect.poll(chemistryFollowsHealth, { timeout: 30_000 }).toBe(true)
    // The moved row stays selected, and says who placed it.
    await expect
      .poll(() => page.getByTestId('left-why').textContent(), { timeout: 30_000 })
      .toBe("data: a row of values. placed by you under 'Life sciences'")
    expect(await node('Chemistry').getAttribute('aria-selected')).toBe('true')
    await page.getByText(/^Row tuples/).click()
    const tuples = await page.getByRole('list', { name: 'Row tuples' }).getByRole('listitem').allTextContents()
    expect(tuples).toContain("('All fields', 'Life sciences', 'Chemistry')")
    expect(tuples).not.toContain("('All fields', 'Physical sciences and earth sciences', 'Chemistry')")
    await screenshot(page, 'row-moved')
    expect(await chemistryPath()).toBe("[['All fields', 'Life sciences', 'Chemistry']]")
  })

  it('says why a move cannot be made', async () => {
    await node('All fields').click()
    const controls = page.getByTestId('row-move')
    await controls.getByRole('button', { name: 'Move to top level' }).click()
    await expect
      .poll(() => controls.getByRole('alert').textContent(), { timeout: 10_000 })
      .toBe("'All fields' is at the top level already.")
    await node('Life sciences').click()
    await controls.getByRole('button', { name: 'Move under…' }).click()
    await controls.getByRole('listbox', { name: 'New parent' }).selectOption({ label: 'All fields (sheet row 6) — its parent now' })
    await controls.getByRole('button', { name: 'Move here' }).click()
    expect(await controls.getByRole('alert').textContent()).toBe("'Life sciences' is under 'All fields' already.")
  })

  it('sets the move again when the same file is opened again, and the program still gets the corrected path', async () => {
    const tabs = page.getByRole('tablist', { name: 'Open tables' }).getByRole('tab')
    await page.getByRole('button', { name: /^Close PhD_major-field\.xlsx/ }).click()
    await expect.poll(() => tabs.count(), { timeout: 30_000 }).toBe(0)
    await openPhd()
    await expect.poll(chemistryFollowsHealth, { timeout: 30_000 }).toBe(true)
    await node('Chemistry').click()
    await expect
      .poll(() => page.getByTestId('left-why').textContent(), { timeout: 30_000 })
      .toBe("data: a row of values. placed by you under 'Life sciences'")
    expect(await chemistryPath()).toBe("[['All fields', 'Life sciences', 'Chemistry']]")
  })

  it('undoes the move for the row, then moves a row with its fields to the top level and resets the whole table', async () => {
    const controls = page.getByTestId('row-move')
    await controls.getByRole('button', { name: 'Reset row to detected' }).click()
    await expect.poll(chemistryFollowsHealth, { timeout: 30_000 }).toBe(false)
    await expect
      .poll(() => page.getByTestId('left-why').textContent(), { timeout: 30_000 })
      .toBe("data: a row of values. nested under 'Physical sciences and earth sciences': indented deeper than it")

    await node('Physical sciences and earth sciences').click()
    await controls.getByRole('button', { name: 'Move to top level' }).click()
    await expect.poll(() => node('Physical sciences and earth sciences').getAttribute('aria-level'), { timeout: 30_000 }).toBe('1')
    // Its fields came along.
    expect(await node('Chemistry').getAttribute('aria-level')).toBe('2')
    expect(await page.getByTestId('left-why').textContent()).toBe('data: a row of values. placed by you at the top level')

    await page.getByRole('button', { name: 'Reset moved rows (1)' }).click()
    await expect.poll(() => node('Physical sciences and earth sciences').getAttribute('aria-level'), { timeout: 30_000 }).toBe('2')
  })
})
