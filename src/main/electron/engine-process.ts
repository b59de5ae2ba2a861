/**
 * The built-in model's engine in the desktop app: an Electron utilityProcess running `out/main/engine.js`,
 * handed to the Electron-free services as their SpawnEngine (as the executor window is handed over as a
 * ChannelFactory). A crash there ends that process only; main sees the exit and the next question starts
 * a new one.
 */
import { utilityProcess } from 'electron'
import { join } from 'node:path'
import type { EngineChannel, FromEngine, SpawnEngine } from '../services/local-model/engine-protocol'

const STDERR_KEPT = 4096

export function utilityEngineSpawner(mainDir: string): SpawnEngine {
  return () => {
    const child = utilityProcess.fork(join(mainDir, 'engine.js'), [], { serviceName: 'TableQA Studio model engine', stdio: 'pipe' })
    let stderr = ''
    let exited = false
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-STDERR_KEPT)
    })
    child.once('exit', () => {
      exited = true
    })
    const channel: EngineChannel = {
      send: (message) => {
        if (!exited) child.postMessage(message)
      },
      onMessage: (listener) => child.on('message', (message) => listener(message as FromEngine)),
      onExit: (listener) => child.once('exit', (code) => listener({ code, signal: null, detail: stderr.trim() })),
      kill: () => {
        if (!exited) child.kill()
      },
      get pid() {
        return child.pid
      }
    }
    return channel
  }
}
