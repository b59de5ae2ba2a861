import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import { CHROMIUM_ARGS, findChromium } from '../../src/main/services/python/chromium-channel'
import { appRoot, datasetsDir } from '../../src/main/services/paths'

export const ARTIFACTS = resolve(appRoot(), 'test-results', 'e2e')

export type WebApp = { url: string; dataDir: string; stop(): Promise<void> }

/** Start `node out/main/web.js` on a free port with its own data folder; resolves with the printed URL. */
export async function startWebApp(dataDir = mkdtempSync(join(tmpdir(), 'tableqa-e2e-'))): Promise<WebApp> {
  const child: ChildProcess = spawn(process.execPath, [join(appRoot(), 'out', 'main', 'web.js'), '--port', '0', '--data-dir', dataDir], {
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  const url = await new Promise<string>((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`web server did not start:\n${output}`)), 60_000)
    const onData = (chunk: Buffer): void => {
      output += chunk.toString()
      const match = /http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]+/.exec(output)
      if (match) {
        clearTimeout(timer)
        resolvePromise(match[0])
      }
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.once('exit', (code) => reject(new Error(`web server exited with ${code}:\n${output}`)))
  })
  return {
    url,
    dataDir,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done()
        child.once('exit', () => done())
        child.kill('SIGTERM')
      })
  }
}

export async function launchBrowser(): Promise<Browser> {
  const executablePath = findChromium()
  if (!executablePath) throw new Error('End-to-end tests need Chromium: apt-get install chromium (or set TABLEQA_CHROMIUM).')
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true })
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true })
  const path = join(ARTIFACTS, `${name}.png`)
  await page.screenshot({ path, fullPage: true })
  return path
}

export function dataset(...parts: string[]): string {
  return join(datasetsDir(), ...parts)
}
