import {
  QA_BUFFER_BYTES,
  QA_STATE_ANSWERED,
  QA_STATE_FAILED,
  QA_STATE_WAITING,
  type PageToWorker,
  type WorkerToPage
} from '../../shared/executor-protocol'
import { bootPackages } from '../../shared/boot-steps'
import { assertNever } from '../../shared/result'
import type { Interpreter, SpawnInterpreter } from '../../shared/run-pool'

const SIGINT = 2

type Urls = { indexURL: string; runtimeURL: string; createWorker: () => Worker }

/** Pyodide interpreters for the run pool: one Web Worker each, with an interrupt buffer and a QA answer buffer. */
export function pyodideInterpreters(urls: Urls): SpawnInterpreter {
  return (events, config) => {
    const worker = urls.createWorker()
    const interruptBuffer = new SharedArrayBuffer(4)
    const interrupt = new Int32Array(interruptBuffer)
    const qaBuffer = new SharedArrayBuffer(QA_BUFFER_BYTES)
    const qaHeader = new Int32Array(qaBuffer, 0, 2)
    const qaBytes = new Uint8Array(qaBuffer, 8)
    let dead = false
    const send = (message: PageToWorker): void => worker.postMessage(message)

    worker.onmessage = (event: MessageEvent<WorkerToPage>) => {
      const message = event.data
      switch (message.type) {
        case 'ready':
          events.ready({ pythonVersion: message.pythonVersion, pandas: message.pandas, bootMs: message.bootMs })
          return
        case 'progress':
          events.progress(message.progress)
          return
        case 'boot-error':
          events.bootError(message.message)
          return
        case 'result':
          events.result(message.runId, message.resultJson, message.recycle)
          return
        case 'qa':
          events.qa(message.runId, message.question, message.value)
          return
        case 'started':
          events.started(message.runId)
          return
        default:
          assertNever(message)
      }
    }
    worker.onerror = (event) => {
      event.preventDefault()
      if (!dead) events.crash(`The Python worker failed: ${event.message || 'unknown error'}`)
    }
    send({
      type: 'init',
      interruptBuffer,
      qaBuffer,
      indexURL: urls.indexURL,
      runtimeURL: urls.runtimeURL,
      loadPandas: config.loadPandas,
      packages: bootPackages(config)
    })

    const interpreter: Interpreter = {
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
        worker.terminate()
      }
    }
    Atomics.store(qaHeader, 0, QA_STATE_WAITING)
    return interpreter
  }
}
