import { randomUUID } from 'node:crypto'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { fail, ok, type Result } from '../../../shared/result'
import type { StructureWhy } from '../../../shared/structure-why'
import type { IndexView, RawGrid, StructureOptions } from '../../../shared/table'
import { appRoot } from '../paths'
import { importFile } from './import'
import { splitSideBySide } from './structure'
import { correctWhy, withoutCorrections } from './corrections'
import { explainStructure } from './structure/explain'
import { joinPrepared, prepareTable, type PreparedHead, type PreparedPart, type PreparedTable } from './prepare'

/** A table as the reader hands it over; `key` names the grid the reader keeps for restructuring. */
export type ReadTable = PreparedTable & { key: string }

/**
 * Reads files into prepared tables and keeps their grids, so a table can be structured again without
 * reading the file twice. The app uses the threaded reader; tests from source and the command line the
 * local one.
 */
export type TableReader = {
  open(name: string, bytes: Uint8Array): Promise<Result<ReadTable[]>>
  restructure(key: string, options: StructureOptions, view: IndexView): Promise<Result<ReadTable>>
  /** Why the kept grid has the layout `options` (see structure/explain.ts). */
  explain(key: string, options: StructureOptions): Promise<Result<StructureWhy>>
  forget(key: string): void
}

const TABLE_CELLS_LOST = 'The cells of this table are no longer kept (the file reader restarted); open the file again to change its layout.'

/** Reads and structures on the calling thread. */
export function localReader(): TableReader {
  const grids = new Map<string, RawGrid>()
  const prepare = (key: string, grid: RawGrid, options?: StructureOptions, view?: IndexView): ReadTable => ({
    key,
    ...prepareTable(grid, options, view)
  })
  return {
    async open(name, bytes) {
      const read = await importFile(name, bytes)
      if (!read.ok) return read
      return ok(
        read.value.flatMap(splitSideBySide).map((grid) => {
          const key = randomUUID()
          grids.set(key, grid)
          return prepare(key, grid)
        })
      )
    },
    restructure(key, options, view) {
      const grid = grids.get(key)
      return Promise.resolve(grid ? ok(prepare(key, grid, options, view)) : fail('not-found', TABLE_CELLS_LOST))
    },
    explain(key, options) {
      const grid = grids.get(key)
      // `options` is the layout in use: its moves are the ones that fit the table.
      const why = grid ? correctWhy(explainStructure(grid, withoutCorrections(options)), options.rowMoves ?? []) : null
      return Promise.resolve(why ? ok(why) : fail('not-found', TABLE_CELLS_LOST))
    },
    forget(key) {
      grids.delete(key)
    }
  }
}

/** Host → table thread. */
export type ToThread =
  | { type: 'open'; job: number; name: string; bytes: Uint8Array }
  | { type: 'restructure'; job: number; key: string; options: StructureOptions; view: IndexView }
  | { type: 'explain'; job: number; key: string; options: StructureOptions }
  | { type: 'next'; job: number }
  | { type: 'forget'; key: string }

/** Table thread → host: the heads of a job's tables (then its parts, one per `next`), or why it failed. */
export type FromThread =
  | { type: 'heads'; job: number; tables: { key: string; head: PreparedHead; parts: number }[] }
  | { type: 'part'; job: number; part: PreparedPart }
  | { type: 'explained'; job: number; why: StructureWhy }
  | { type: 'failed'; job: number; error: Result<never> }

/** Data rows (and left-tree branches) per part: about 50 ms of cloning for eight short columns. */
export const PART_ROWS = 20_000

/**
 * Reads and structures on a worker thread (the built `out/main/table-worker.js`), so a 100 MB file
 * never stalls the process that answers the UI: the thread imports, structures and encodes the table,
 * and the result comes back in parts the host takes between other work. One thread, started on first
 * use and kept; if it dies, pending reads fail with a clear message and the next file starts a new one.
 * Without a build (unit tests from source) it reads in-thread.
 */
export function threadedReader(script = join(appRoot(), 'out', 'main', 'table-worker.js')): TableReader {
  if (!existsSync(script)) return localReader()
  let worker: Worker | null = null
  let seq = 0
  const inboxes = new Map<number, (message: FromThread | null, why?: string) => void>()

  const start = (): Worker => {
    const thread = new Worker(script)
    thread.unref()
    thread.on('message', (message: FromThread) => inboxes.get(message.job)?.(message))
    const lost = (why: string): void => {
      if (worker === thread) worker = null
      for (const deliver of inboxes.values()) deliver(null, why)
    }
    thread.on('error', (error) => lost(error.message))
    thread.on('exit', (code) => lost(`exit ${code}`))
    return thread
  }

  const run = async (send: (job: number) => ToThread): Promise<Result<ReadTable[]>> => {
    const thread = (worker ??= start())
    const job = ++seq
    const queue: (FromThread | string)[] = []
    let wake: (() => void) | null = null
    inboxes.set(job, (message, why) => {
      queue.push(message ?? why ?? 'stopped')
      wake?.()
    })
    const next = async (): Promise<FromThread> => {
      while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve))
      const message = queue.shift() as FromThread | string
      if (typeof message === 'string') throw new Error(message)
      return message
    }
    try {
      thread.postMessage(send(job))
      const first = await next()
      if (first.type === 'failed') return first.error
      if (first.type !== 'heads') throw new Error(`unexpected ${first.type}`)
      const tables: ReadTable[] = []
      for (const { key, head, parts } of first.tables) {
        const joined = joinPrepared(head)
        for (let k = 0; k < parts; k++) {
          // Yield between parts so requests that arrived meanwhile are answered first.
          await new Promise<void>((resolve) => setImmediate(resolve))
          thread.postMessage({ type: 'next', job } satisfies ToThread)
          const part = await next()
          if (part.type !== 'part') throw new Error(`unexpected ${part.type}`)
          joined.add(part.part)
        }
        tables.push({ key, ...joined.finish() })
      }
      return ok(tables)
    } catch (error) {
      return fail(
        'internal',
        `The file reader stopped (${error instanceof Error ? error.message : String(error)}). Try again; if it happens again the file is probably too large.`
      )
    } finally {
      inboxes.delete(job)
    }
  }

  return {
    open: (name, bytes) => run((job) => ({ type: 'open', job, name, bytes })),
    async restructure(key, options, view) {
      const result = await run((job) => ({ type: 'restructure', job, key, options, view }))
      if (!result.ok) return result
      const table = result.value[0]
      return table ? ok(table) : fail('internal', 'The file reader returned no table.')
    },
    async explain(key, options) {
      const thread = (worker ??= start())
      const job = ++seq
      try {
        const answer = await new Promise<FromThread>((resolve, reject) => {
          inboxes.set(job, (message, why) => (message === null ? reject(new Error(why ?? 'stopped')) : resolve(message)))
          thread.postMessage({ type: 'explain', job, key, options } satisfies ToThread)
        })
        if (answer.type === 'failed') return answer.error
        if (answer.type !== 'explained') throw new Error(`unexpected ${answer.type}`)
        return ok(answer.why)
      } catch (error) {
        return fail('internal', `The file reader stopped (${error instanceof Error ? error.message : String(error)}). Try again.`)
      } finally {
        inboxes.delete(job)
      }
    },
    forget(key) {
      worker?.postMessage({ type: 'forget', key } satisfies ToThread)
    }
  }
}
