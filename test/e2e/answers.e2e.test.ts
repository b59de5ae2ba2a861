import { readFileSync } from 'node:fs'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startScriptedServer, type ScriptedServer } from '../support/scripted-openai-server'
import {
  addEndpoint,
  dataset,
  keepScreenshot,
  launchBrowser,
  recordEvents,
  startWebApp,
  usePandas,
  type EventRecorder,
  type WebApp
} from './support'

// A football club's seasons: Year, W, L, T, Finish, Coach; 1918 "did not play".
const SEASONS = dataset('wikitq', 'csv', '200-csv', '32.csv')
const KEY = 'sk-e2e-answers-key-0123456789abcdef'
const CHART_QUESTION = 'Plot the wins of each season as a chart'
const TABLE_QUESTION = 'List the first five seasons with their wins and losses'

/** The seasons played and their wins, read from the file outside the app: what the bars must show. */
function seasonsPlayed(): { year: string; wins: number }[] {
  const lines = readFileSync(SEASONS, 'utf8').trim().split('\n').slice(1)
  return lines
    .map((line) => line.split('","').map((f) => f.replace(/^"|"$/g, '')))
    .filter((f) => /^\d+$/.test(f[1] ?? ''))
    .map((f) => ({ year: f[0] ?? '', wins: Number(f[1]) }))
}

const program = (code: string): string => `\`\`\`python\n${code}\n\`\`\``
// Works with pandas (df) and without (rows): both give the cells of a flat CSV by column name.
const CHART_PROGRAM = [
  'table = df.to_dict("records") if "df" in globals() else rows',
  'played = [r for r in table if str(r["W"]).replace(".0", "").isdigit()]',
  'wins = [{"Year": str(int(float(r["Year"]))), "Wins": int(float(r["W"]))} for r in played]',
  'answer = chart(wins, kind="bar", x="Year", y="Wins", title="Wins by season")'
].join('\n')
const TABLE_PROGRAM = 'answer = df[["Year", "W", "L"]].head(5)'

let server: ScriptedServer
let app: WebApp
let browser: Browser
let page: Page
let events: EventRecorder
const apiCalls: string[] = []

beforeAll(async () => {
  server = await startScriptedServer({
    requireKey: KEY,
    rules: [
      { match: /Plot the wins/, reply: { choices: [{ text: program(CHART_PROGRAM), logprobs: [-0.1] }] } },
      { match: /first five seasons/, reply: { choices: [{ text: program(TABLE_PROGRAM), logprobs: [-0.1] }] } }
    ]
  })
  app = await startWebApp()
  events = await recordEvents(app)
  browser = await launchBrowser()
  page = await browser.newPage({ viewport: { width: 1600, height: 1000 }, acceptDownloads: true })
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname
    if (path.startsWith('/api/') && path !== '/api/events') apiCalls.push(decodeURIComponent(path.slice(5)))
  })
})

afterAll(async () => {
  events?.stop()
  await browser?.close()
  await app?.stop()
  await server?.close()
})

async function download(click: () => Promise<void>): Promise<{ name: string; bytes: Buffer }> {
  const [file] = await Promise.all([page.waitForEvent('download'), click()])
  return { name: file.suggestedFilename(), bytes: readFileSync(await file.path()) }
}

async function ask(question: string): Promise<void> {
  const box = page.locator('#question-input')
  await box.fill(question)
  await box.press('Enter')
  await page.getByRole('status', { name: 'Question progress' }).waitFor({ state: 'detached', timeout: 90_000 })
}

const chartHost = (): ReturnType<Page['getByTestId']> => page.getByTestId('answer-chart')
const bars = (): ReturnType<Page['locator']> => chartHost().locator('svg .mark-rect path')

describe('answers as charts and tables', () => {
  it('opens a table and adds the scripted server', async () => {
    await page.goto(app.url)
    await page.getByTestId('file-input').setInputFiles(SEASONS)
    await expect.poll(() => page.getByTestId('table-title').textContent(), { timeout: 30_000 }).toBe('32.csv')
    await addEndpoint(page, { url: server.url, key: KEY })
    await page.getByRole('status').filter({ hasText: /ready/i }).first().waitFor({ timeout: 120_000 })
  })

  it('shows a chart answer as a chart: one bar per season played, with its title and axes', async () => {
    const calls = apiCalls.length
    await ask(CHART_QUESTION)
    await expect.poll(() => chartHost().getAttribute('data-state'), { timeout: 60_000 }).toBe('drawn')
    const played = seasonsPlayed()
    expect(played.length).toBe(16)
    expect(await bars().count()).toBe(played.length)
    const svg = await chartHost().locator('svg').first().innerHTML()
    expect(svg).toContain('Wins by season')
    // The tallest bar is the best season, 1910 with 11 wins: its tooltip names both.
    const best = played.reduce((a, b) => (b.wins > a.wins ? b : a))
    type Labelled = { getAttribute(name: string): string | null }
    const labels = await bars().evaluateAll((paths) => (paths as unknown as Labelled[]).map((p) => p.getAttribute('aria-label') ?? ''))
    expect(labels.some((l) => l.includes(best.year) && l.includes(String(best.wins)))).toBe(true)
    expect(await page.getByRole('figure', { name: 'Answer chart' }).innerText()).toContain('bar of Wins by Year')
    // The chart says what it holds: no list of value types and counts above it.
    expect(await page.locator('.answer-type').count()).toBe(0)
    await keepScreenshot(page, 'chart')
    // One push event carries the answer into history and the session card: no list is fetched again.
    await expect.poll(() => events.payloads('question:answered').length, { timeout: 10_000 }).toBe(1)
    const entry = (events.payloads('question:answered')[0] as { entry: { question: string; answer?: { chart?: unknown } } }).entry
    expect(entry.question).toBe(CHART_QUESTION)
    expect(entry.answer?.chart).toBeDefined()
    const after = apiCalls.slice(calls)
    expect(after.filter((c) => c === 'history:questions' || c === 'session:list' || c === 'history:list')).toEqual([])
    const asked = page.getByRole('list', { name: 'Questions' }).getByRole('listitem')
    await expect.poll(() => asked.first().innerText()).toContain(CHART_QUESTION)
  })

  it('exports the chart as PNG and as SVG', async () => {
    const figure = page.getByRole('figure', { name: 'Answer chart' })
    const png = await download(() => figure.getByRole('button', { name: 'PNG', exact: true }).click())
    expect(png.name).toBe('Plot-the-wins-of-each-season-as-a.png')
    expect(png.bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a')
    // Drawn at twice the size on screen: wider than the chart's own pixels.
    const width = png.bytes.readUInt32BE(16)
    const shown = (await chartHost().boundingBox())?.width ?? 0
    expect(width).toBeGreaterThan(shown * 1.5)
    const svg = await download(() => figure.getByRole('button', { name: 'SVG', exact: true }).click())
    expect(svg.name).toBe('Plot-the-wins-of-each-season-as-a.svg')
    const text = svg.bytes.toString('utf8')
    expect(text.startsWith('<svg')).toBe(true)
    expect(text).toContain('Wins by season')
    expect(text.match(/class="mark-rect/g)?.length).toBe(1)
  })

  it('keeps the chart in history and embeds it in the Markdown export', async () => {
    await page.reload()
    const asked = page.getByRole('list', { name: 'Questions' }).getByRole('listitem')
    await expect.poll(() => asked.first().innerText(), { timeout: 30_000 }).toContain(CHART_QUESTION)
    await asked.first().getByRole('button').first().click()
    await expect.poll(() => chartHost().getAttribute('data-state'), { timeout: 60_000 }).toBe('drawn')
    expect(await bars().count()).toBe(seasonsPlayed().length)

    const session = page
      .getByRole('list', { name: 'Sessions' })
      .getByRole('listitem')
      .filter({ has: page.locator('.badge', { hasText: 'current' }) })
    const md = await download(() => session.getByRole('button', { name: 'Markdown', exact: true }).click())
    const text = md.bytes.toString('utf8')
    expect(text).toContain(`### 1. ${CHART_QUESTION}`)
    const image = /!\[[^\]]*\]\(data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)\)/.exec(text)
    expect(image).not.toBeNull()
    const drawn = Buffer.from(image?.[1] ?? '', 'base64').toString('utf8')
    expect(drawn).toContain('<svg')
    expect(drawn).toContain('Wins by season')
    expect(text).not.toContain(KEY)
  })

  it('shows a DataFrame answer as a small grid, with CSV export', async () => {
    // A DataFrame needs pandas.
    await usePandas(page)
    await ask(TABLE_QUESTION)
    const table = page.getByRole('region', { name: 'Answer table' })
    await table.waitFor({ timeout: 60_000 })
    expect(await table.innerText()).toContain('5 rows × 3 columns')
    const cells = await table.locator('[role="row"] [col-id]').allInnerTexts()
    for (const year of ['1910', '1911', '1912', '1913', '1914']) expect(cells).toContain(year)
    const csv = await download(() => table.getByRole('button', { name: 'CSV', exact: true }).click())
    const lines = csv.bytes.toString('utf8').trim().split('\r\n')
    expect(lines).toHaveLength(6)
    expect(lines[0]).toMatch(/Year,W,L$/)
    expect(lines[1]).toMatch(/1910,11,0$/)
    await expect.poll(() => events.payloads('question:answered').length, { timeout: 10_000 }).toBe(2)
  })
})
