/**
 * The engine process as a forked Node child: browser mode, the command line and tests. From the built
 * app (`out/main/web.js`) it runs `out/main/engine.js`; from sources (tsx, Vitest) `src/main/engine.ts`
 * through tsx's loader.
 */

import { fork } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { appRoot } from '../paths'
import type { EngineChannel, FromEngine, SpawnEngine } from './engine-protocol'

/** Bytes of the child's stderr kept to explain a crash. */
const STDERR_KEPT = 4096

/** The engine script and the Node flags it needs, for the code that is running now (built or sources). */
export function engineScript(): { script: string; execArgv: string[] } {
  const here = fileURLToPath(import.meta.url)
  if (here.endsWith('.ts')) {
    const tsx = createRequire(import.meta.url).resolve('tsx')
    return { script: join(appRoot(), 'src', 'main', 'engine.ts'), execArgv: ['--import', pathToFileURL(tsx).href] }
  }
  // Bundled: this code sits in out/main (or out/main/chunks) beside engine.js.
  const dir = dirname(here)
  const script =
    [join(dir, 'engine.js'), join(dir, '..', 'engine.js')].find((p) => existsSync(p)) ?? join(appRoot(), 'out', 'main', 'engine.js')
  return { script, execArgv: [] }
}

export function nodeEngineSpawner(): SpawnEngine {
  return () => {
    const { script, execArgv } = engineScript()
    const child = fork(script, [], { execArgv, stdio: ['ignore', 'ignore', 'pipe', 'ipc'], serialization: 'json' })
    let stderr = ''
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-STDERR_KEPT)
    })
    const channel: EngineChannel = {
      send: (message) => {
        if (child.connected) child.send(message)
      },
      onMessage: (listener) => child.on('message', (message) => listener(message as FromEngine)),
      onExit: (listener) => child.once('exit', (code, signal) => listener({ code, signal, detail: stderr.trim() })),
      kill: () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      },
      get pid() {
        return child.pid
      }
    }
    // Errors (a failed spawn) end in 'exit' too; without a listener they would throw.
    child.on('error', () => undefined)
    return channel
  }
}
