/** Worker-thread entry: reads, structures and encodes tables off the main thread (see table-thread.ts). */
import { randomUUID } from 'node:crypto'
import { parentPort } from 'node:worker_threads'
import { fail } from '../shared/result'
import type { RawGrid, StructureOptions } from '../shared/table'
import type { IndexView } from '../shared/api'
import { importFile } from './services/tables/import'
import { prepareTable, splitPrepared, type PreparedPart } from './services/tables/prepare'
import { PART_ROWS, TABLE_CELLS_LOST, type FromThread, type ToThread } from './services/tables/table-thread'

const grids = new Map<string, RawGrid>()
const outgoing = new Map<number, PreparedPart[]>()

function post(message: FromThread, transfer: ArrayBuffer[] = []): void {
  parentPort?.postMessage(message, transfer)
}

function send(job: number, prepared: { key: string; grid: RawGrid; options?: StructureOptions; view?: IndexView }[]): void {
  const tables: Extract<FromThread, { type: 'heads' }>['tables'] = []
  const parts: PreparedPart[] = []
  const transfer: ArrayBuffer[] = []
  for (const { key, grid, options, view } of prepared) {
    const split = splitPrepared(prepareTable(grid, options, view), PART_ROWS)
    tables.push({ key, head: split.head, parts: split.parts.length })
    for (const part of split.parts) parts.push(part)
    transfer.push(split.head.payload.buffer as ArrayBuffer)
  }
  outgoing.set(job, parts)
  post({ type: 'heads', job, tables }, transfer)
}

async function handle(message: ToThread): Promise<void> {
  switch (message.type) {
    case 'open': {
      const read = await importFile(message.name, message.bytes)
      if (!read.ok) return post({ type: 'failed', job: message.job, error: read })
      const tables = read.value.map((grid) => ({ key: randomUUID(), grid }))
      for (const { key, grid } of tables) grids.set(key, grid)
      return send(message.job, tables)
    }
    case 'restructure': {
      const grid = grids.get(message.key)
      if (!grid) return post({ type: 'failed', job: message.job, error: fail('not-found', TABLE_CELLS_LOST) })
      return send(message.job, [{ key: message.key, grid, options: message.options, view: message.view }])
    }
    case 'next': {
      const parts = outgoing.get(message.job)
      const part = parts?.shift()
      if (parts?.length === 0) outgoing.delete(message.job)
      if (part) post({ type: 'part', job: message.job, part })
      return
    }
    case 'forget':
      grids.delete(message.key)
      return
  }
}

parentPort?.on('message', (message: ToThread) => {
  handle(message).catch((error: unknown) => {
    if ('job' in message) post({ type: 'failed', job: message.job, error: fail('internal', 'Could not read the file.', String(error)) })
  })
})
