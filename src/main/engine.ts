/**
 * Entry of the engine process, which runs the built-in model (see services/local-model/engine-runtime.ts).
 * Started by main as Electron's utilityProcess (messages on `process.parentPort`) or as a forked Node
 * child (messages on the IPC channel); it ends when main goes away.
 */
import type { FromEngine, ToEngine } from './services/local-model/engine-protocol'
import { startEngine } from './services/local-model/engine-runtime'

type ParentPort = { postMessage(message: unknown): void; on(event: 'message', listener: (event: { data: unknown }) => void): void }

const parentPort = (process as unknown as { parentPort?: ParentPort }).parentPort

if (parentPort !== undefined) {
  startEngine({
    send: (message: FromEngine) => parentPort.postMessage(message),
    onMessage: (listener) => parentPort.on('message', (event) => listener(event.data as ToEngine))
  })
} else if (process.send !== undefined) {
  const send = process.send.bind(process)
  startEngine({ send: (message: FromEngine) => void send(message), onMessage: (listener) => process.on('message', listener) })
  process.on('disconnect', () => process.exit(0))
} else {
  console.error('The engine process is started by TableQA Studio; it has no parent to talk to.')
  process.exit(2)
}
