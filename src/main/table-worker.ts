/** Worker-thread entry: reads, structures and encodes tables off the main thread (see table-thread.ts). */
import { parentPort } from 'node:worker_threads'
import { fail, ok, type Result } from '../shared/result'
import { splitPrepared, type PreparedPart } from './services/tables/prepare'
import { localReader, PART_ROWS, type FromThread, type ReadTable, type ToThread } from './services/tables/table-thread'

// The thread does what the in-thread reader does; it only adds the hand-over in parts.
const reader = localReader()
const outgoing = new Map<number, PreparedPart[]>()

function post(message: FromThread, transfer: ArrayBuffer[] = []): void {
  parentPort?.postMessage(message, transfer)
}

function send(job: number, read: Result<ReadTable[]>): void {
  if (!read.ok) return post({ type: 'failed', job, error: read })
  const tables: Extract<FromThread, { type: 'heads' }>['tables'] = []
  const parts: PreparedPart[] = []
  const transfer: ArrayBuffer[] = []
  for (const { key, ...prepared } of read.value) {
    const split = splitPrepared(prepared, PART_ROWS)
    tables.push({ key, head: split.head, parts: split.parts.length })
    parts.push(...split.parts)
    transfer.push(split.head.payload.buffer as ArrayBuffer)
  }
  outgoing.set(job, parts)
  post({ type: 'heads', job, tables }, transfer)
}

async function handle(message: ToThread): Promise<void> {
  switch (message.type) {
    case 'open':
      return send(message.job, await reader.open(message.name, message.bytes))
    case 'restructure': {
      const one = await reader.restructure(message.key, message.options, message.view)
      return send(message.job, one.ok ? ok([one.value]) : one)
    }
    case 'explain': {
      const why = await reader.explain(message.key, message.options)
      return post(why.ok ? { type: 'explained', job: message.job, why: why.value } : { type: 'failed', job: message.job, error: why })
    }
    case 'next': {
      const parts = outgoing.get(message.job)
      const part = parts?.shift()
      if (parts?.length === 0) outgoing.delete(message.job)
      if (part) post({ type: 'part', job: message.job, part })
      return
    }
    case 'forget':
      reader.forget(message.key)
      return
  }
}

parentPort?.on('message', (message: ToThread) => {
  handle(message).catch((error: unknown) => {
    if ('job' in message) post({ type: 'failed', job: message.job, error: fail('internal', 'Could not read the file.', String(error)) })
  })
})
