import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { importFileSync } from '../../src/main/services/tables/import'
import { structureGrid } from '../../src/main/services/tables/structure'
import { startScriptedServer, type ScriptedServer } from '../support/scripted-openai-server'
import { dataset, keepScreenshot, launchBrowser, screenshot, startWebApp, type WebApp } from './support'

const HITAB = dataset('hitab', 'data', 'tables', 'raw', '1284.json')
const KEY = 'sk-e2e-question-key-0123456789abcdef'
const QUESTION = 'How many data rows does this table have?'

/** The data rows of the table as the importer and structure pass see it, outside the app. */
function dataRows(): number {
  const grids = importFileSync('1284.json', new Uint8Array(readFileSync(HITAB)))
  if (!grids.ok || grids.value[0] === undefined) throw new Error('the HiTab table did not import')
  return structureGrid(grids.value[0]).values.length
}

const program = (code: string): string => `\`\`\`python\n${code}\n\`\`\``

let server: ScriptedServer
let app: WebApp
let browser: Browser
let page: Page
let rows: number

beforeAll(async () => {
  rows = dataRows()
  server = await startScriptedServer({
    requireKey: KEY,
    rules: [
      {
        match: /How many data rows/,
        reply: {
          // Slow enough to see the progress line.
          delayMs: 1_500,
          choices: [
            { text: program('answer = len(rows)'), logprobs: [-0.2, -0.3] },
            { text: program('answer = len(rows) + 1'), logprobs: [-1.5, -1.0] },
            { text: program('answer = 1 / 0'), logprobs: [-2.0, -2.0] },
            { text: program('answer = sum(1 for r in rows)'), logprobs: [-0.9, -0.8] },
            { text: 'I cannot write a program for this.', logprobs: [-4.0] }
          ]
        }
      }
    ]
  })
  app = await startWebApp()
  browser = await launchBrowser()
  page = await browser.newPage({ viewport: { width: 1440, height: 960 }, acceptDownloads: true })
})

afterAll(async () => {
  await browser?.close()
  await app?.stop()
  await server?.close()
})

async function downloadText(button: string): Promise<{ name: string; text: string }> {
  const session = page
    .getByRole('list', { name: 'Sessions' })
    .getByRole('listitem')
    .filter({ has: page.locator('.badge', { hasText: 'current' }) })
  const [download] = await Promise.all([page.waitForEvent('download'), session.getByRole('button', { name: button, exact: true }).click()])
  const path = await download.path()
  return { name: download.suggestedFilename(), text: readFileSync(path, 'utf8') }
}

describe('browser mode: ask a question about a HiTab table', () => {
  it('says what is missing before a table or an endpoint exists', async () => {
    await page.goto(app.url)
    await page.getByText('No model endpoint is set up.').first().waitFor({ timeout: 30_000 })
    await page.getByRole('button', { name: 'Add a model endpoint…' }).waitFor()
    await page.getByRole('textbox', { name: 'Question' }).fill('anything')
    await page.getByRole('textbox', { name: 'Question' }).press('Enter')
    await expect
      .poll(() => page.getByRole('alert').allInnerTexts())
      .toEqual(expect.arrayContaining([expect.stringContaining('Open a table first')]))
    expect(await page.getByTestId('endpoint-health').innerText()).toContain('not set up')
  })

  it('opens the table and adds the scripted server through the guided setup', async () => {
    await page.getByTestId('file-input').setInputFiles(HITAB)
    await expect.poll(() => page.getByTestId('table-title').textContent(), { timeout: 30_000 }).toContain('1284.json')
    await page.getByRole('button', { name: 'Add one…' }).click()
    const dialog = page.getByRole('dialog', { name: 'Model endpoints' })
    await dialog.getByRole('button', { name: /Local server URL/ }).click()
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Scripted')
    await dialog.getByLabel('Base URL').fill(server.url)
    await dialog.getByRole('textbox', { name: 'Model' }).fill('test-model')
    await dialog.getByRole('combobox', { name: 'API kind' }).selectOption('chat')
    await dialog.getByLabel('API key').fill(KEY)
    await dialog.getByRole('button', { name: 'Save endpoint' }).click()
    await expect.poll(() => dialog.getByTestId('endpoint-check').innerText(), { timeout: 30_000 }).toMatch(/^✓/)
    expect(await dialog.innerText()).toContain('key saved')
    expect(await dialog.innerText()).not.toContain(KEY)
    await dialog.getByRole('button', { name: 'Close' }).click()
    await expect.poll(() => page.getByTestId('endpoint-health').innerText(), { timeout: 30_000 }).toContain('reachable')
  })

  it('asks with Enter, shows progress, then the answer and all five candidates', async () => {
    await page.getByRole('status').filter({ hasText: /ready/i }).first().waitFor({ timeout: 120_000 })
    await page.keyboard.press('/')
    expect(await page.evaluate('document.activeElement && document.activeElement.id')).toBe('question-input')
    // The box still holds the text of the refused question: replace it.
    await page.keyboard.press('Control+A')
    await page.keyboard.type(QUESTION)
    await page.keyboard.press('Enter')
    const progress = page.getByRole('status', { name: 'Question progress' })
    await progress.waitFor({ timeout: 10_000 })
    await expect.poll(() => page.getByTestId('answer-text').innerText(), { timeout: 60_000 }).toBe(String(rows))
    await page.getByText(/Candidates \(5\)/).click()
    const candidates = page.getByRole('list', { name: 'Candidates' }).locator(':scope > li')
    expect(await candidates.count()).toBe(5)
    const texts = await candidates.allInnerTexts()
    expect(texts.filter((t) => t.includes('chosen'))).toHaveLength(1)
    expect(texts.some((t) => /python-error/.test(t))).toBe(true)
    expect(texts.some((t) => /log p -0\.500/.test(t))).toBe(true)
    expect(server.requests.some((r) => r.headers['authorization'] === `Bearer ${KEY}`)).toBe(true)
    await keepScreenshot(page, 'question')
  })

  it('edits the chosen program and runs it again on the same table', async () => {
    await page.getByRole('button', { name: 'Edit', exact: true }).click()
    await page.getByLabel('Program', { exact: true }).fill('answer = len(rows) * 2')
    await page.getByRole('button', { name: 'Run again' }).click()
    await expect.poll(() => page.getByTestId('rerun-result').innerText(), { timeout: 60_000 }).toContain(String(rows * 2))
    await screenshot(page, 'question-rerun')
  })

  it('finds the question in history after a reload', async () => {
    await page.reload()
    const asked = page.getByRole('list', { name: 'Questions' }).getByRole('listitem')
    await expect.poll(() => asked.first().innerText(), { timeout: 30_000 }).toContain(QUESTION)
    await asked.first().getByRole('button').click()
    await expect.poll(() => page.getByTestId('answer-text').innerText()).toBe(String(rows))
    const session = page.getByRole('list', { name: 'Sessions' }).getByRole('listitem').first()
    expect(await session.innerText()).toContain('1284.json')
    await keepScreenshot(page, 'sessions')
  })

  it('exports the session as JSON and Markdown, without the API key', async () => {
    const json = await downloadText('JSON')
    expect(json.name).toMatch(/\.json$/)
    const parsed = JSON.parse(json.text) as { format: string; session: { questions: { question: string; candidates: unknown[] }[] } }
    expect(parsed.format).toBe('tableqa-session')
    expect(parsed.session.questions.map((q) => q.question)).toEqual([QUESTION])
    expect(parsed.session.questions[0]?.candidates).toHaveLength(5)
    const md = await downloadText('Markdown')
    expect(md.name).toMatch(/\.md$/)
    expect(md.text).toContain(`### 1. ${QUESTION}`)
    expect(md.text).toContain(`**Answer:** ${rows}`)
    for (const text of [json.text, md.text]) expect(text).not.toContain(KEY)
    // Nor in anything the app keeps on disk besides the encrypted key file.
    const sessionsDir = join(app.dataDir, 'sessions')
    for (const name of readdirSync(sessionsDir).filter((n) => n.endsWith('.json')))
      expect(readFileSync(join(sessionsDir, name), 'utf8')).not.toContain(KEY)
  })
})
