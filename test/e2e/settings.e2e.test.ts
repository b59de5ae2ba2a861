import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { importFileSync } from '../../src/main/services/tables/import'
import { structureGrid } from '../../src/main/services/tables/structure'
import type { BootProgress, ExecutorState } from '../../src/shared/python'
import { startScriptedServer, type RecordedRequest, type ScriptedServer } from '../support/scripted-openai-server'
import {
  addEndpoint,
  dataset,
  launchBrowser,
  recordEvents,
  screenshot,
  showPythonPanel,
  startWebApp,
  type EventRecorder,
  type WebApp
} from './support'

const HITAB = dataset('hitab', 'data', 'tables', 'raw', '1284.json')
const KEY = 'sk-e2e-settings-key-0123456789abcdef'
const COUNT_QUESTION = 'How many data rows are there?'
const SLOW_QUESTION = 'Slowly: how many data rows are there?'
const OSLO_QUESTION = 'How many visitors did Oslo have each year?'
// Visitors in Oslo are in data rows 0 and 3 of the third column; the other cells must stay plain.
const VISITS = 'city,year,visitors\nOslo,2021,120\nBergen,2021,95\nTromso,2021,40\nOslo,2022,150\n'

const program = (code: string): string => `\`\`\`python\n${code}\n\`\`\``

let server: ScriptedServer
let app: WebApp
let browser: Browser
let page: Page
let events: EventRecorder
let rows: number
let visitsCsv: string

/** The data rows of the HiTab table as the importer and structure pass see it, outside the app. */
function dataRows(): number {
  const grids = importFileSync('1284.json', new Uint8Array(readFileSync(HITAB)))
  if (!grids.ok || grids.value[0] === undefined) throw new Error('the HiTab table did not import')
  return structureGrid(grids.value[0]).values.length
}

beforeAll(async () => {
  rows = dataRows()
  visitsCsv = join(mkdtempSync(join(tmpdir(), 'tableqa-settings-')), 'visits.csv')
  writeFileSync(visitsCsv, VISITS)
  server = await startScriptedServer({
    requireKey: KEY,
    rules: [
      {
        match: /Slowly: how many/,
        // Long enough to close the tab while the model is still "thinking".
        reply: { delayMs: 5_000, choices: [{ text: program('answer = len(rows)'), logprobs: [-0.1] }] }
      },
      {
        match: /How many data rows are there/,
        // The wrong program has the best log-probability: the vote (the default) picks the right one, the paper's rule the wrong one.
        reply: {
          choices: [
            { text: program('answer = len(rows)'), logprobs: [-1.0, -1.0] },
            { text: program('answer = len(rows) + 1'), logprobs: [-0.1, -0.1] },
            { text: program('answer = sum(1 for r in rows)'), logprobs: [-2.0, -2.0] }
          ]
        }
      },
      {
        match: /How many visitors did Oslo have/,
        reply: { choices: [{ text: program('answer = df.loc[df["city"] == "Oslo", "visitors"]'), logprobs: [-0.2, -0.2] }] }
      }
    ]
  })
  app = await startWebApp()
  // Subscribed as soon as the server is up, so the executor's start-up is (mostly) seen.
  events = await recordEvents(app)
  browser = await launchBrowser()
  page = await browser.newPage({ viewport: { width: 1440, height: 960 } })
})

afterAll(async () => {
  events?.stop()
  await browser?.close()
  await app?.stop()
  await server?.close()
})

const pythonStates = (): ExecutorState[] => events.payloads('python:status') as ExecutorState[]
const dialog = (): Locator => page.getByRole('dialog', { name: 'Model endpoints' })
const questionPanel = (): Locator => page.getByRole('region', { name: 'Ask a question' })
const grid = (): Locator => page.getByRole('region', { name: 'Table' })

/** The progress of one boot: the steps reported from `from` on, up to the first ready. */
function bootSteps(states: ExecutorState[]): { steps: BootProgress[]; readyAt: number } {
  const readyAt = states.findIndex((s) => s.state === 'ready')
  const steps = states
    .slice(0, readyAt < 0 ? undefined : readyAt)
    .flatMap((s) => (s.state === 'starting' && s.progress ? [s.progress] : []))
  return { steps, readyAt }
}

function expectForward(steps: BootProgress[]): void {
  expect(steps.length).toBeGreaterThan(0)
  const totals = new Set(steps.map((s) => s.total))
  expect(totals.size).toBe(1)
  for (let i = 1; i < steps.length; i++) expect((steps[i] as BootProgress).done).toBeGreaterThan((steps[i - 1] as BootProgress).done)
  for (const s of steps) {
    expect(s.done).toBeGreaterThanOrEqual(0)
    expect(s.done).toBeLessThan(s.total)
    expect(s.label).not.toBe('')
  }
}

async function openSettings(): Promise<Locator> {
  await page.getByRole('button', { name: 'Endpoints…' }).click()
  await dialog().getByRole('heading', { name: 'Sampling and selection' }).waitFor({ timeout: 10_000 })
  return dialog()
}

async function ask(question: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Question' })
  await box.fill(question)
  await box.press('Enter')
}

/** Generation requests the scripted server got for a question, and the samples they asked for in all. */
function samplesFor(question: string): { requests: RecordedRequest[]; samples: number } {
  const requests = server.requests.filter((r) => r.path.endsWith('/chat/completions') && r.prompt.includes(question))
  return { requests, samples: requests.reduce((sum, r) => sum + (typeof r.body?.['n'] === 'number' ? r.body['n'] : 1), 0) }
}

describe('settings, closing a tab mid-question, and local Python', () => {
  it('reports the executor start-up step by step, forward only, ending at ready', async () => {
    await page.goto(app.url)
    await page.getByTestId('python-status').filter({ hasText: /ready/i }).waitFor({ timeout: 120_000 })
    await expect.poll(() => pythonStates().some((s) => s.state === 'ready'), { timeout: 10_000 }).toBe(true)
    const { steps } = bootSteps(pythonStates())
    expectForward(steps)
    expect(steps.at(-1)?.label).toBe('Installing the runtime library')
    // Once ready, the bar is gone.
    expect(await page.getByRole('progressbar', { name: 'Python start-up' }).count()).toBe(0)
  })

  it('sets up the scripted endpoint and opens a HiTab table', async () => {
    await addEndpoint(page, { url: server.url, key: KEY })
    await page.getByTestId('file-input').setInputFiles(HITAB)
    await expect.poll(() => page.getByTestId('table-title').textContent(), { timeout: 30_000 }).toContain('1284.json')
  })

  it('refuses a bad time limit with a message, and keeps the stored one', async () => {
    const settings = await openSettings()
    const limits = settings.getByRole('form', { name: 'Time limits' })
    const run = limits.getByLabel('Program run (s)')
    await run.fill('0')
    await limits.getByRole('button', { name: 'Save time limits' }).click()
    await expect.poll(() => limits.getByRole('alert').innerText(), { timeout: 10_000 }).toContain('between 1 second and 10 minutes')
    await run.fill('700')
    await limits.getByRole('button', { name: 'Save time limits' }).click()
    await expect.poll(() => limits.getByRole('alert').innerText()).toContain('between 1 second and 10 minutes')
    await run.fill('2')
    await limits.getByLabel('QA call (s)').fill('45')
    await limits.getByRole('button', { name: 'Save time limits' }).click()
    await limits.getByText('Time limits saved.').waitFor({ timeout: 10_000 })
    expect(await limits.getByRole('alert').count()).toBe(0)
    await screenshot(page, 'settings-time-limits')
  })

  it('stores sampling and selection, and the next question uses them', async () => {
    const settings = dialog()
    const sampling = settings.getByRole('form', { name: 'Sampling and selection' })
    await sampling.getByLabel('Samples (n)').fill('3')
    await sampling.getByLabel('Temperature').fill('0.2')
    expect(await sampling.getByLabel('Selection').inputValue()).toBe('vote')
    await sampling.getByLabel('Selection').selectOption('logprob')
    await sampling.getByRole('button', { name: 'Save sampling' }).click()
    await sampling.getByText('Sampling saved.').waitFor({ timeout: 10_000 })
    await settings.getByRole('button', { name: 'Close' }).click()

    await page.getByTestId('python-status').filter({ hasText: /ready/i }).waitFor({ timeout: 120_000 })
    await ask(COUNT_QUESTION)
    // The highest log-probability picks len(rows) + 1; the default vote would have picked len(rows).
    await expect
      .poll(
        () =>
          page
            .getByTestId('answer-text')
            .innerText()
            .catch(() => ''),
        { timeout: 60_000 }
      )
      .toBe(String(rows + 1))
    expect(await questionPanel().innerText()).toContain('chosen by logprob')
    const { requests, samples } = samplesFor(COUNT_QUESTION)
    expect(samples).toBe(3)
    for (const r of requests) expect(r.body?.['temperature']).toBe(0.2)
  })

  it('applies the run time limit to programs', async () => {
    await showPythonPanel(page)
    await page.getByLabel('Python code').fill('while True:\n    pass')
    await page.getByRole('button', { name: 'Run', exact: true }).click()
    await expect.poll(() => page.getByRole('region', { name: 'Output' }).innerText(), { timeout: 30_000 }).toContain('Stopped after 2 s')
  })

  it('keeps the settings across a reload', async () => {
    await page.reload()
    await page.getByTestId('table-title').filter({ hasText: '1284.json' }).waitFor({ timeout: 30_000 })
    const settings = await openSettings()
    const sampling = settings.getByRole('form', { name: 'Sampling and selection' })
    expect(await sampling.getByLabel('Samples (n)').inputValue()).toBe('3')
    expect(await sampling.getByLabel('Temperature').inputValue()).toBe('0.2')
    expect(await sampling.getByLabel('Selection').inputValue()).toBe('logprob')
    const limits = settings.getByRole('form', { name: 'Time limits' })
    expect(await limits.getByLabel('Program run (s)').inputValue()).toBe('2')
    expect(await limits.getByLabel('QA call (s)').inputValue()).toBe('45')
    // Back to a limit the remaining questions can live with.
    await limits.getByLabel('Program run (s)').fill('30')
    await limits.getByRole('button', { name: 'Save time limits' }).click()
    await limits.getByText('Time limits saved.').waitFor({ timeout: 10_000 })
    await settings.getByRole('button', { name: 'Close' }).click()
  })

  it('closing the table while its question runs leaves a message, not a blank screen, and the question in history', async () => {
    await page.getByTestId('python-status').filter({ hasText: /ready/i }).waitFor({ timeout: 120_000 })
    await ask(SLOW_QUESTION)
    await page.getByRole('status', { name: 'Question progress' }).waitFor({ timeout: 10_000 })
    await expect.poll(() => samplesFor(SLOW_QUESTION).requests.length, { timeout: 10_000 }).toBeGreaterThan(0)
    await page.getByRole('button', { name: 'Close 1284.json' }).click()
    await page.getByRole('heading', { name: /tables of any shape/i }).waitFor({ timeout: 10_000 })
    // The question settles: an answer or a message saying what happened.
    const settled = questionPanel().locator('[data-testid="answer-text"], [role="alert"]')
    await settled.first().waitFor({ timeout: 60_000 })
    expect(await page.getByRole('status', { name: 'Question progress' }).count()).toBe(0)
    const answer = questionPanel().getByTestId('answer-text')
    if ((await answer.count()) > 0) {
      expect(await answer.innerText()).toBe(String(rows))
      // The program view says why it cannot run again on that table, rather than naming a closed one.
      expect(await questionPanel().innerText()).toContain('no longer open')
    } else expect((await questionPanel().getByRole('alert').first().innerText()).trim().length).toBeGreaterThan(10)
    expect(await page.getByText(/Something went wrong/i).count()).toBe(0)
    await screenshot(page, 'settings-closed-mid-question')

    await page.reload()
    const asked = page.getByRole('list', { name: 'Questions' }).getByRole('listitem')
    await expect
      .poll(() => asked.allInnerTexts(), { timeout: 30_000 })
      .toEqual(expect.arrayContaining([expect.stringContaining(SLOW_QUESTION)]))
  })

  it('runs programs in local Python, labelled as not sandboxed, and outlines the cells the answer read', async () => {
    const settings = await openSettings()
    await settings.getByRole('radio', { name: /Local Python/ }).check()
    await settings.getByTestId('python-path').fill('python3')
    await settings.getByRole('button', { name: 'Apply' }).click()
    await settings.getByText('Programs now run in your local Python.').waitFor({ timeout: 30_000 })
    await expect.poll(() => settings.getByTestId('executor-active').innerText()).toMatch(/local Python 3\.\d+.*pandas \d/)
    await settings.getByRole('button', { name: 'Close' }).click()
    await expect.poll(() => page.getByTestId('executor-badge').innerText(), { timeout: 10_000 }).toContain('not sandboxed')

    await page.getByTestId('file-input').setInputFiles(visitsCsv)
    await expect.poll(() => page.getByTestId('table-title').textContent(), { timeout: 30_000 }).toContain('visits.csv')
    await page
      .getByTestId('python-status')
      .filter({ hasText: /ready \(pandas\)/i })
      .waitFor({ timeout: 60_000 })
    await ask(OSLO_QUESTION)
    await expect
      .poll(
        () =>
          page
            .getByTestId('answer-text')
            .innerText()
            .catch(() => ''),
        { timeout: 60_000 }
      )
      .toMatch(/120.*150/)
    expect(await page.getByTestId('answer-cells').innerText()).toContain('C2, C5')

    const outlined = grid().locator('[role="gridcell"].cell-answer')
    await expect.poll(() => outlined.count(), { timeout: 10_000 }).toBe(2)
    const where = await outlined.evaluateAll((cells) =>
      cells.map((cell) => {
        const el = cell as unknown as {
          getAttribute(n: string): string | null
          closest(s: string): { getAttribute(n: string): string | null } | null
          textContent: string | null
        }
        return {
          row: el.closest('[role="row"]')?.getAttribute('row-index') ?? null,
          col: el.getAttribute('col-id'),
          text: (el.textContent ?? '').trim()
        }
      })
    )
    expect(where.sort((a, b) => Number(a.row) - Number(b.row))).toEqual([
      { row: '0', col: '2', text: '120' },
      { row: '3', col: '2', text: '150' }
    ])
    // The outline is drawn, and only there: every other data cell has none.
    const outline = (cell: unknown): string =>
      (globalThis as unknown as { getComputedStyle(e: unknown): { outlineStyle: string } }).getComputedStyle(cell).outlineStyle
    for (const cell of await outlined.all()) expect(await cell.evaluate(outline)).toBe('solid')
    const others = grid().locator('[role="gridcell"]:not(.cell-answer)')
    expect(await others.count()).toBeGreaterThanOrEqual(10)
    for (const cell of await others.all()) expect(await cell.evaluate(outline)).not.toBe('solid')
    await screenshot(page, 'settings-local-python-answer-cells')
  })

  it('switches back to the sandbox, showing the start-up progress bar until Python is ready', async () => {
    const before = pythonStates().length
    const settings = await openSettings()
    await settings.getByRole('radio', { name: /Pyodide sandbox/ }).check()
    await settings.getByRole('button', { name: 'Apply' }).click()
    await settings.getByText('Programs now run in the sandbox.').waitFor({ timeout: 30_000 })
    await settings.getByRole('button', { name: 'Close' }).click()
    const bar = page.getByRole('progressbar', { name: 'Python start-up' })
    await bar.waitFor({ timeout: 30_000 })
    const max = Number(await bar.getAttribute('max'))
    expect(max).toBeGreaterThanOrEqual(2)
    expect(Number(await bar.getAttribute('value'))).toBeLessThan(max)
    expect(await bar.getAttribute('aria-valuetext')).toMatch(/\(step \d+ of \d+\)$/)
    await screenshot(page, 'settings-startup-progress')
    await page.getByTestId('python-status').filter({ hasText: /ready/i }).waitFor({ timeout: 120_000 })
    await bar.waitFor({ state: 'detached', timeout: 10_000 })
    expect(await page.getByTestId('executor-badge').count()).toBe(0)
    const { steps, readyAt } = bootSteps(pythonStates().slice(before))
    expect(readyAt).toBeGreaterThanOrEqual(0)
    expectForward(steps)
    expect(steps[0]?.done).toBe(0)
  })
})
