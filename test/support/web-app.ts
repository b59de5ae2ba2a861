import { spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PACKAGES_SETTINGS_KEY } from '../../src/main/app/package-handlers'
import { appRoot } from '../../src/main/services/paths'
import { openFileStore } from '../../src/main/services/store/store'

/** A running browser-mode app: its URL (with the token), its data folder and what it has printed. */
export type WebApp = { url: string; dataDir: string; output(): string; stop(): Promise<void> }

/**
 * Start the built browser-mode app (`node out/main/web.js`, after `npx electron-vite build`) on a free port
 * with its own data folder; resolves with the URL it prints.
 *
 * Unless the data folder already names a package source, the app is told to download nothing: left to
 * its default, each app would fetch pandas from the official distribution on a machine with network and
 * switch its interpreters to pandas in the middle of a test, so the same test would see plain rows here
 * and a DataFrame there. Tests of the download set a source of their own.
 */
export function startWebApp(dataDir = mkdtempSync(join(tmpdir(), 'tableqa-web-'))): Promise<WebApp> {
  const settings = openFileStore(dataDir, 'settings').store
  if (settings.get(PACKAGES_SETTINGS_KEY) === undefined) settings.set(PACKAGES_SETTINGS_KEY, { source: { kind: 'off' } })
  const child = spawn(process.execPath, [join(appRoot(), 'out', 'main', 'web.js'), '--port', '0', '--data-dir', dataDir], {
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`web server did not start:\n${output}`)), 60_000)
    const onData = (chunk: Buffer): void => {
      output += chunk.toString()
      const match = /http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]+/.exec(output)
      if (!match) return
      clearTimeout(timer)
      resolve({
        url: match[0],
        dataDir,
        output: () => output,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done()
            child.once('exit', () => done())
            child.kill('SIGTERM')
          })
      })
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.once('exit', (code) => reject(new Error(`web server exited with ${code}:\n${output}`)))
  })
}
