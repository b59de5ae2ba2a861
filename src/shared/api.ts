/**
 * The one typed contract between the renderer and main.
 *
 * Electron: the preload script exposes `window.tableqa`, one method per operation (see `apiMethods`).
 * Browser mode: the same methods, carried over HTTP to a local server (see src/renderer/src/api).
 * Handlers live in src/main/app; only src/main/ipc.ts and the web server register them.
 */

import type { PackageSource, PackagesState, PackagesView } from './packages'
import type { AskProgress, AskQuestionRequest, AskSummary, EndpointDraft, EndpointTestReport, EndpointView } from './ask'
import type { InstalledModel, LocalModelsView, ModelDownload } from './local-model'
import type { ExecutorState, RunRecord } from './python'
import type { Result } from './result'
import type { SettingsUpdate, SettingsView } from './settings'
import type { ExportFormat, SampleName, SessionExport, SessionListing, SessionOpened, SessionSummary } from './session'
import type { StructureWhy } from './structure-why'
import type { HeaderNode, IndexView, StructureOptions } from './table'

/** A table open in the workspace, without its cells. */
export type TableSummary = {
  id: string
  name: string
  /** Column header tuples, one per data column (length-1 tuples for a flat table). */
  columns: string[][]
  /**
   * Names of the left-header (row index) levels, one per level of the index tuples: the text of the corner
   * cell above each header column, or "" when the corner is blank. Empty when the table has no row index.
   */
  indexColumns: string[]
  rowCount: number
  /** The header layout in use (detected when the table was opened, or as the user set it since). */
  structure: StructureOptions
  /** Whether the table is shown with its header trees or flattened. */
  view: IndexView
  /** Things the user should know about the import. */
  warnings: string[]
  /**
   * The file the table came from: its name and the SHA-256 (hex) of its bytes, so the same file is known
   * again whatever it is called (tables of one file share it).
   */
  source: TableSource
  /**
   * Share (0–1) of the body's filled cells that are figures (measures, not identifiers or repeated codes):
   * 0 for a contents, cover or notes sheet. The workspace opens a workbook at the first table whose share
   * is close to the best of the file (see src/main/services/tables/figures.ts).
   */
  figureShare: number
}

/** The file an open table was read from. */
export type TableSource = { fileName: string; sha256: string }

/** A block of data rows, raw cell text. */
export type RowBlock = {
  start: number
  rows: string[][]
  /** The left tuple (row index) of each row of the block; empty arrays when the table has no row index. */
  index: string[][]
  /**
   * Numeric reading of the block's cells in the table's numeric columns (columns whose non-blank cells read
   * as numbers): `values[k][i]` is row i of column `columns[k]`, null where that cell is not a number.
   */
  numbers: { columns: number[]; values: (number | null)[][] }
  /** Source-grid row of each row of the block, and source-grid column of each data column: answer cells map through these. */
  rowSource: number[]
  colSource: number[]
}

/** The header layout of an open table, for the header-tree inspector. */
export type TableStructure = {
  /** The layout in use. */
  options: StructureOptions
  /** What header detection guessed when the table was opened. */
  detected: StructureOptions
  /** The view in use. */
  view: IndexView
  /**
   * The top tree over the header rows and the left tree over the header columns (roots have text ''), for
   * display: consecutive siblings with the same text are shown as one node (they name the same rows or
   * columns in pandas), and the left tree is cut past a few thousand nodes.
   */
  topTree: HeaderNode
  leftTree: HeaderNode
  /** Column tuples, one per data column. */
  columns: string[][]
  /** Row tuples, the first `index.length` of `indexCount` (long tables are cut to keep the answer small). */
  index: string[][]
  indexCount: number
  /** Whether the left tree was cut short (past a few thousand nodes) to keep the answer small. */
  treeTruncated: boolean
  /** What the structure pass noticed (clipped merges, a header size that did not fit, ...). */
  warnings: string[]
  /** The table's title (its title rows, or the title its source gives), "" when it has none. */
  title: string
  /** The notes under the table (source lines, footnotes), "" when it has none. */
  notes: string
}

/** Facts the UI shows about where it runs. */
export type AppInfo = {
  mode: 'electron' | 'web'
  version: string
  /** Folder holding settings and history. */
  dataDir: string
  /** Whether the desktop file dialog exists (Electron) or the UI must use a file picker (browser). */
  nativeFileDialog: boolean
}

/** Request and response of every operation, keyed by channel name (`domain:verb`). */
export type ApiSpec = {
  'app:info': { request: void; response: AppInfo }
  /**
   * Show the native open dialog and open the chosen file: one table per sheet (workbook) or per
   * table (database). An empty list when the user cancels.
   */
  'table:openDialog': { request: void; response: Result<TableSummary[]> }
  /** Open a file whose bytes the UI already has (picker or drag-and-drop); one table per sheet/table. */
  'table:openBytes': { request: { name: string; bytes: Uint8Array }; response: Result<TableSummary[]> }
  'table:rows': { request: { tableId: string; start: number; count: number }; response: Result<RowBlock> }
  'table:close': { request: { tableId: string }; response: Result<null> }
  /** Every table still open in main, in the order they were opened (a reloaded page restores its tabs). */
  'table:list': { request: void; response: Result<TableSummary[]> }
  /** The header trees, tuples and layout of a table, with what detection guessed. */
  'table:structure': { request: { tableId: string }; response: Result<TableStructure> }
  /** Why the table has its layout: the rules behind each title line, header row, label column and row's parent. */
  'table:explain': { request: { tableId: string }; response: Result<StructureWhy> }
  /**
   * Structure a table again from its imported cells with the given header layout (and view), and give the
   * new table to Python under the same id. No re-import: this takes as long as the structure pass.
   */
  'table:restructure': {
    request: { tableId: string; options: StructureOptions; view?: IndexView }
    response: Result<TableSummary>
  }
  /** Open one of the sample tables (one table per sheet/database table, as `table:openBytes`). */
  'table:openSample': { request: { name: SampleName }; response: Result<TableSummary[]> }
  /** Run a snippet against a table (or none). Resolves when the run ends, however it ends. */
  'python:run': {
    request: { runId: string; code: string; tableId: string | null; timeoutMs?: number }
    response: Result<RunRecord>
  }
  /** Stop a running snippet; the run resolves with code `interrupted`. */
  'python:stop': { request: { runId: string }; response: Result<null> }
  'python:status': { request: void; response: ExecutorState }
  'history:list': { request: void; response: Result<RunRecord[]> }
  'history:clear': { request: void; response: Result<null> }
  /** Answered questions of the current session, newest first. */
  'history:questions': { request: void; response: Result<AskSummary[]> }
  /** Sessions, newest first; `query` keeps those whose name, tables, questions or answers hold every word. */
  'session:list': { request: { query?: string }; response: Result<SessionListing> }
  /** Close the open tables and start an empty session. */
  'session:new': { request: { name?: string }; response: Result<SessionSummary> }
  /** Close the open tables, make the session current and open its tables again. */
  'session:open': { request: { id: string }; response: Result<SessionOpened> }
  'session:rename': { request: { id: string; name: string }; response: Result<SessionSummary> }
  /** Delete a session with its stored files; deleting the current one starts another. */
  'session:delete': { request: { id: string }; response: Result<null> }
  /** A session as JSON (re-importable, with the bytes of files up to 8 MB) or Markdown. Never holds API keys. */
  'session:export': { request: { id: string; format: ExportFormat }; response: Result<SessionExport> }
  /** Add a session from a JSON export (under a new id; it is not opened). */
  'session:import': { request: { text: string }; response: Result<SessionOpened> }
  /**
   * Answer a question about open tables: sample programs from the endpoint, run them, choose one.
   * Progress arrives as `question:progress` events with the same askId; resolves when done or cancelled.
   */
  'question:ask': { request: AskQuestionRequest; response: Result<AskSummary> }
  /** Cancel a question being answered; it resolves with code `cancelled`. */
  'question:cancel': { request: { askId: string }; response: Result<null> }
  /** Configured model endpoints (never their keys). */
  'endpoints:list': { request: void; response: Result<EndpointView[]> }
  /** Add or update an endpoint. `apiKey`: a string stores it, null removes it, absent keeps it. */
  'endpoints:save': { request: { endpoint: EndpointDraft; apiKey?: string | null; makeDefault?: boolean }; response: Result<EndpointView> }
  'endpoints:delete': { request: { id: string }; response: Result<null> }
  /** Check that the endpoint is an OpenAI-compatible API and lists its model. */
  'endpoints:test': { request: { id: string }; response: Result<EndpointTestReport> }
  /** Models the endpoint's server lists. */
  'endpoints:models': { request: { id: string }; response: Result<string[]> }
  /** The built-in model: the catalog, the models on disk, which one runs, disk and memory, downloads. */
  'models:list': { request: void; response: Result<LocalModelsView> }
  /** Start (or resume) downloading a catalog model; progress arrives as `models:download` events. */
  'models:download': { request: { id: string }; response: Result<ModelDownload> }
  /** Pause a download; what was received is kept for a resume. */
  'models:pause': { request: { id: string }; response: Result<null> }
  /** Stop a download and delete what it received. */
  'models:cancel': { request: { id: string }; response: Result<null> }
  /**
   * Use a GGUF file already on this computer as the built-in model: `path` names it (browser mode), or the
   * native dialog asks for one when it is absent (desktop); null when the dialog was cancelled.
   */
  'models:useFile': { request: { path?: string; copy?: boolean }; response: Result<InstalledModel | null> }
  /** App settings (where programs run) and the executor in use. */
  'settings:get': { request: void; response: Result<SettingsView> }
  /** Change app settings; choosing local CPython checks the interpreter (it must import pandas) first. */
  'settings:set': { request: { settings: SettingsUpdate }; response: Result<SettingsView> }
  /** Where the sandbox's package files (pandas) come from, where they are kept, and how far fetching them has got. */
  'packages:get': { request: void; response: Result<PackagesView> }
  /**
   * Take the package files from another source (the official distribution, a mirror URL or a local folder)
   * and fetch whatever is missing from it now; progress arrives as `packages:status` events.
   */
  'packages:setSource': { request: { source: PackageSource }; response: Result<PackagesView> }
  /** Check the package files again and fetch what is missing (after a failed download). Answers at once. */
  'packages:retry': { request: void; response: Result<PackagesView> }
}

export type Channel = keyof ApiSpec
export type RequestOf<C extends Channel> = ApiSpec[C]['request']
export type ResponseOf<C extends Channel> = ApiSpec[C]['response']

/** Events pushed from main to the renderer. */
export type EventSpec = {
  'python:status': ExecutorState
  /** Checking and downloading the sandbox's package files. */
  'packages:status': PackagesState
  /** The current session's Python runs changed (a run was kept, or history cleared); `count` runs now. */
  'history:changed': { count: number }
  'question:progress': AskProgress
  /**
   * A question was answered (or failed) and kept in the current session's history: the new entry, and the
   * session's card as it now stands. The UI adds the entry without asking for the lists again.
   */
  'question:answered': { entry: AskSummary; session: SessionSummary }
  /** Another session became current (opened, started or the current one deleted). */
  'session:changed': { currentId: string }
  /** A model download moved on (progress) or changed state. */
  'models:download': ModelDownload
  /** The current session's tables changed (a file opened, a table closed or given a new header layout): its card now. */
  'session:updated': SessionSummary
}
export type EventName = keyof EventSpec

/** Method name on `window.tableqa` for each channel: the preload object is checked against this. */
export const apiMethods = {
  appInfo: 'app:info',
  openDialog: 'table:openDialog',
  openBytes: 'table:openBytes',
  tableRows: 'table:rows',
  closeTable: 'table:close',
  listTables: 'table:list',
  tableStructure: 'table:structure',
  explainTable: 'table:explain',
  restructureTable: 'table:restructure',
  openSample: 'table:openSample',
  runPython: 'python:run',
  stopPython: 'python:stop',
  pythonStatus: 'python:status',
  listHistory: 'history:list',
  clearHistory: 'history:clear',
  listQuestions: 'history:questions',
  listSessions: 'session:list',
  newSession: 'session:new',
  openSession: 'session:open',
  renameSession: 'session:rename',
  deleteSession: 'session:delete',
  exportSession: 'session:export',
  importSession: 'session:import',
  askQuestion: 'question:ask',
  cancelQuestion: 'question:cancel',
  listEndpoints: 'endpoints:list',
  saveEndpoint: 'endpoints:save',
  deleteEndpoint: 'endpoints:delete',
  testEndpoint: 'endpoints:test',
  endpointModels: 'endpoints:models',
  listModels: 'models:list',
  downloadModel: 'models:download',
  pauseDownload: 'models:pause',
  cancelDownload: 'models:cancel',
  useModelFile: 'models:useFile',
  getSettings: 'settings:get',
  setSettings: 'settings:set',
  packageInfo: 'packages:get',
  setPackageSource: 'packages:setSource',
  retryPackages: 'packages:retry'
} as const satisfies Record<string, Channel>

export type ApiMethods = typeof apiMethods

/** The object the renderer talks to, in Electron and in browser mode alike. */
export type TableQaApi = {
  [M in keyof ApiMethods]: RequestOf<ApiMethods[M]> extends void
    ? () => Promise<ResponseOf<ApiMethods[M]>>
    : (request: RequestOf<ApiMethods[M]>) => Promise<ResponseOf<ApiMethods[M]>>
} & {
  /** Subscribe to a pushed event; returns the unsubscribe function. */
  on<E extends EventName>(event: E, listener: (payload: EventSpec[E]) => void): () => void
}

/** The handler side: one async function per channel. */
export type Handlers = { [C in Channel]: (request: RequestOf<C>) => Promise<ResponseOf<C>> }
