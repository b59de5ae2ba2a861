import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { appRoot } from '../../../src/main/services/paths'

export type RunningApp = { url: string; output: () => string; stop: () => Promise<void> }

/**
 * Start the built browser-mode app (`out/main/web.js`, after `npx electron-vite build`) on a free port
 * with the given data folder, as test/e2e/support.ts does, keeping what it prints.
 */
export function startApp(dataDir: string): Promise<RunningApp> {
  const child = spawn(process.execPath, [join(appRoot(), 'out', 'main', 'web.js'), '--port', '0', '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`web server did not start:\n${output}`)), 60_000)
    const onData = (chunk: Buffer): void => {
      output += chunk.toString()
      const match = /http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]+/.exec(output)
      if (match) {
        clearTimeout(timer)
        resolve({
          url: match[0],
          output: () => output,
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null) return done()
              child.once('exit', () => done())
              child.kill('SIGTERM')
            })
        })
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.once('exit', (code) => reject(new Error(`web server exited with ${code}:\n${output}`)))
  })
}

export type Probe = { ms: number; error: string | null }

/** Call `probe` every `everyMs` until `until` settles; returns each call's latency and error. */
export async function probeDuring(until: Promise<unknown>, probe: () => Promise<unknown>, everyMs = 200): Promise<Probe[]> {
  let settled = false
  void until.then(
    () => (settled = true),
    () => (settled = true)
  )
  const probes: Probe[] = []
  while (!settled) {
    const started = performance.now()
    let error: string | null = null
    try {
      await probe()
    } catch (e) {
      error = e instanceof Error ? `${e.message}${e.cause instanceof Error ? `: ${e.cause.message}` : ''}` : String(e)
    }
    probes.push({ ms: performance.now() - started, error })
    await new Promise((r) => setTimeout(r, everyMs))
  }
  return probes
}
