import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { fail, type Result } from '../../../shared/result'
import type { RawGrid } from '../../../shared/table'
import { appRoot } from '../paths'
import { importFile } from './import'

export type Importer = (name: string, bytes: Uint8Array) => Promise<Result<RawGrid[]>>

/**
 * Import on a worker thread (the built `out/main/import-worker.js`), so parsing a large file does not
 * block the process that answers the UI. One thread, started on first use and kept; if it dies, the
 * next file starts a new one. Without a build (unit tests from source) it imports in-thread.
 */
export function threadedImporter(script = join(appRoot(), 'out', 'main', 'import-worker.js')): Importer {
  if (!existsSync(script)) return importFile
  let worker: Worker | null = null
  let seq = 0
  const pending = new Map<number, (result: Result<RawGrid[]>) => void>()
  const start = (): Worker => {
    const thread = new Worker(script)
    thread.unref()
    thread.on('message', (message: { id: number; result: Result<RawGrid[]> }) => {
      pending.get(message.id)?.(message.result)
      pending.delete(message.id)
    })
    const lost = (why: string): void => {
      if (worker === thread) worker = null
      for (const [id, resolve] of pending) {
        resolve(fail('internal', `The file reader stopped (${why}). Try again; if it happens again the file is probably too large.`))
        pending.delete(id)
      }
    }
    thread.on('error', (error) => lost(error.message))
    thread.on('exit', (code) => lost(`exit ${code}`))
    return thread
  }
  return (name, bytes) =>
    new Promise((resolve) => {
      worker ??= start()
      const id = ++seq
      pending.set(id, resolve)
      worker.postMessage({ id, name, bytes })
    })
}
