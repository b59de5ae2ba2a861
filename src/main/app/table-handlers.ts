import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Handlers, TableSummary } from '../../shared/api'
import type { SampleName } from '../../shared/session'
import { fail, ok, type Result } from '../../shared/result'
import { appRoot } from '../services/paths'
import { digestTables } from '../services/prompt'
import type { ParsedTable } from '../../shared/table'
import type { Workspace } from '../services/workspace'

/** Reads a file the user picked in a native dialog; null when cancelled. Only Electron has one. */
export type OpenDialog = () => Promise<Result<{ name: string; bytes: Uint8Array } | null>>

/** What the table handlers need: the open tables and the interpreter that sees them. */
export type TableHandlerDeps = {
  workspace: Workspace
  executor: { loadTable(tableId: string, payload: Uint8Array): Promise<void>; dropTable(tableId: string): Promise<void> }
  openDialog: OpenDialog | null
  /** Folder holding the sample files (resources/samples). */
  samplesDir: string
  /** Told of every table that opens (the built-in model gets ready for questions about it). */
  onOpened?: (tables: { name: string; table: ParsedTable }[]) => void
}

/** Where the sample tables live: resources/samples of the app. */
export function samplesDir(): string {
  return join(appRoot(), 'resources', 'samples')
}

type TableChannel = Extract<keyof Handlers, `table:${string}`>

/** The only files `table:openSample` reads: a fixed list, never a path from the request. */
export const SAMPLE_FILES: Record<SampleName, string> = {
  'orders-csv': 'orders.csv',
  'regional-report-xlsx': 'regional-report.xlsx',
  'bookshop-sqlite': 'bookshop.sqlite'
}

/** The `table:*` part of the contract. */
export function createTableHandlers(deps: TableHandlerDeps): Pick<Handlers, TableChannel> {
  const { workspace, executor } = deps

  async function openBytes(name: string, bytes: Uint8Array): Promise<Result<TableSummary[]>> {
    if (typeof name !== 'string' || !(bytes instanceof Uint8Array)) return fail('bad-input', 'Expected a file name and its bytes.')
    const opened = await workspace.open(name, bytes)
    if (!opened.ok) return opened
    for (const table of opened.value) sendToPython(table.id, table.payload)
    readForPrompts(opened.value.map((t) => t.parsed))
    deps.onOpened?.(opened.value.map((t) => ({ name: t.summary.name, table: t.parsed })))
    return ok(opened.value.map((t) => t.summary))
  }

  // What every prompt reads of a table's rows is worked out now, in slices between other work, rather than
  // on its first question (about a second for 200,000 rows); a question asked before it is done shares it.
  function readForPrompts(tables: ParsedTable[]): void {
    digestTables(tables).catch((error: unknown) => console.error('Could not read the table for prompts:', error))
  }

  // The executor keeps the table as soon as loadTable is called (runs asked for later see it); only the copy
  // into the interpreter page is awaited inside, which for a large table takes seconds the grid need not wait.
  function sendToPython(tableId: string, payload: Uint8Array): void {
    executor.loadTable(tableId, payload).catch((error: unknown) => console.error(`Could not give table ${tableId} to Python:`, error))
  }

  return {
    'table:openDialog': async () => {
      if (!deps.openDialog) return fail('bad-input', 'There is no native file dialog in browser mode; use the file picker.')
      const picked = await deps.openDialog()
      if (!picked.ok) return picked
      if (picked.value === null) return ok([])
      return openBytes(picked.value.name, picked.value.bytes)
    },
    'table:openBytes': (request) => openBytes(request.name, request.bytes),
    'table:openSample': async (request) => {
      const name = request?.name
      const file = typeof name === 'string' && Object.hasOwn(SAMPLE_FILES, name) ? SAMPLE_FILES[name] : undefined
      if (file === undefined) return fail('bad-input', `There is no sample called ${JSON.stringify(name)}.`)
      let bytes: Uint8Array
      try {
        bytes = new Uint8Array(await readFile(join(deps.samplesDir, file)))
      } catch (error) {
        return fail('not-found', `The sample ${file} is missing from this installation.`, String(error))
      }
      return openBytes(file, bytes)
    },
    'table:rows': (request) => Promise.resolve(workspace.rows(request.tableId, request.start, request.count)),
    'table:close': async (request) => {
      workspace.close(request.tableId)
      await executor.dropTable(request.tableId)
      return ok(null)
    },
    'table:list': () => Promise.resolve(ok(workspace.list().map((t) => t.summary))),
    'table:structure': (request) => Promise.resolve(workspace.structure(request.tableId)),
    'table:explain': (request) => workspace.explain(request.tableId),
    'table:restructure': async (request) => {
      const result = await workspace.restructure(request.tableId, request.options, request.view)
      if (!result.ok) return result
      // Interpreters that already hold this id keep their copy on a plain reload; dropping it first makes
      // every one of them take the new layout before its next run.
      executor
        .dropTable(result.value.id)
        .catch((error: unknown) => console.error(`Could not drop table ${result.value.id} from Python:`, error))
      sendToPython(result.value.id, result.value.payload)
      readForPrompts([result.value.parsed])
      return ok(result.value.summary)
    }
  }
}
