/**
 * Pyodide interpreters for the run pool: one Web Worker each, with an interrupt buffer and a QA answer
 * buffer. Whatever a worker posts is decoded here (`decodeHostMessage`) before the pool sees it.
 */

import { decodeHostMessage, type PythonHost, type SpawnHost } from '../../shared/python-host'
import { QA_BUFFER_BYTES, QA_STATE_ANSWERED, QA_STATE_FAILED, QA_STATE_WAITING, type WorkerCommand } from './worker-commands'

const SIGINT = 2

type Urls = { indexURL: string; runtimeURL: string; createWorker: () => Worker }

export function pyodideHosts(urls: Urls): SpawnHost {
  return (events, options) => {
    const worker = urls.createWorker()
    const interruptBuffer = new SharedArrayBuffer(4)
    const interrupt = new Int32Array(interruptBuffer)
    const qaBuffer = new SharedArrayBuffer(QA_BUFFER_BYTES)
    const qaHeader = new Int32Array(qaBuffer, 0, 2)
    const qaBytes = new Uint8Array(qaBuffer, 8)
    let dead = false
    const send = (command: WorkerCommand): void => {
      if (!dead) worker.postMessage(command)
    }

    worker.onmessage = (event: MessageEvent<unknown>) => {
      if (dead) return
      const message = decodeHostMessage(event.data)
      if (message === null) events.malformed()
      else events.message(message)
    }
    worker.onmessageerror = () => {
      if (!dead) events.malformed()
    }
    worker.onerror = (event) => {
      event.preventDefault()
      if (!dead) events.crash({ code: 'error', detail: String(event.message).slice(0, 500) })
    }
    Atomics.store(qaHeader, 0, QA_STATE_WAITING)
    send({
      type: 'init',
      interruptBuffer,
      qaBuffer,
      indexURL: urls.indexURL,
      runtimeURL: urls.runtimeURL,
      loadPandas: options.loadPandas,
      packages: options.packages
    })

    const host: PythonHost = {
      loadTable: (tableId, payloadJson) => send({ type: 'table', tableId, payloadJson }),
      dropTable: (tableId) => send({ type: 'drop-table', tableId }),
      run: (request) => {
        Atomics.store(interrupt, 0, 0)
        send({ type: 'run', ...request })
      },
      answerQa: (answer) => {
        let encoded = new TextEncoder().encode(JSON.stringify(answer))
        if (encoded.byteLength > qaBytes.byteLength) {
          encoded = new TextEncoder().encode(
            JSON.stringify({ ok: false, error: { code: 'too-large', message: 'The QA answer was too long.' } })
          )
        }
        qaBytes.set(encoded)
        Atomics.store(qaHeader, 1, encoded.byteLength)
        Atomics.store(qaHeader, 0, answer.ok ? QA_STATE_ANSWERED : QA_STATE_FAILED)
        Atomics.notify(qaHeader, 0)
      },
      interrupt: () => Atomics.store(interrupt, 0, SIGINT),
      terminate: () => {
        dead = true
        worker.onmessage = null
        worker.terminate()
      }
    }
    return host
  }
}
