/** Worker-thread entry: imports files off the main thread so a 100 MB file never stalls the app. */
import { parentPort } from 'node:worker_threads'
import { importFile } from './services/tables/import'

type Job = { id: number; name: string; bytes: Uint8Array }

parentPort?.on('message', (job: Job) => {
  importFile(job.name, job.bytes)
    .then((result) => parentPort?.postMessage({ id: job.id, result }))
    .catch((error: unknown) =>
      parentPort?.postMessage({ id: job.id, result: { ok: false, error: { code: 'internal', message: `Could not read ${job.name}.`, detail: String(error) } } })
    )
})
