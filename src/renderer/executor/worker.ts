/// <reference lib="webworker" />
/**
 * One Pyodide interpreter. Runs untrusted programs; talks only to the executor page that created it.
 * The page enforces time limits (interrupt, then terminate); this file only boots and runs.
 */

import {
  QA_STATE_ANSWERED,
  QA_STATE_WAITING,
  type NamedTable,
  type PageToWorker,
  type TablePayload,
  type WorkerToPage
} from '../../shared/executor-protocol'
import type { Result } from '../../shared/result'
import { bootPlan } from '../../shared/boot-steps'
import { fetchLock, loadPackage, packageOptions } from './packages'

type PyProxyLike = { destroy(): void }
type Pyodide = {
  version: string
  runPython(code: string, options?: { globals?: PyProxyLike }): unknown
  setInterruptBuffer(buffer: Int32Array): void
  loadPackage(names: string[], options?: { messageCallback?: (m: string) => void; errorCallback?: (m: string) => void }): Promise<unknown>
  globals: { get(name: string): unknown }
  FS: { mkdirTree(path: string): void; writeFile(path: string, data: string): void }
}
type LoadPyodide = (options: {
  indexURL: string
  lockFileContents?: string
  packageBaseUrl?: string
  env?: Record<string, string>
  stdout?: (s: string) => void
  stderr?: (s: string) => void
}) => Promise<Pyodide>

const scope = self as unknown as DedicatedWorkerGlobalScope
let pyodide: Pyodide | null = null
let runProgram:
  ((code: string, tableId: string | null, namedTables: NamedTable[], maxQaCalls: number, onStart: () => void) => string) | null = null
let wasTampered: () => boolean = () => true
let currentRunId: string | null = null
let qaHeader: Int32Array | null = null
let qaBytes: Uint8Array | null = null
let loadTable: ((tableId: string, payload: TablePayload) => void) | null = null
let dropTable: ((tableId: string) => void) | null = null

function post(message: WorkerToPage): void {
  scope.postMessage(message)
}

const RUNTIME_ROOT = '/home/pyodide/runtime'

/**
 * What one interpreter takes. Pyodide's heap is wasm32 memory (4 GB at most); loading a table as row
 * dicts peaks at about 80 bytes per cell plus 190 per row there (1.3 GB for the 100 MB CSV's 1.56
 * million rows × 8 columns, 1.8 GB for 5 million rows × 2), so these limits keep the peak near 2.6 GB
 * and leave the rest to the program. Larger tables are refused with a message naming size and limit.
 */
const SANDBOX_MAX_CELLS = 20_000_000
const SANDBOX_MAX_ROWS = 6_000_000
const SANDBOX_MAX_TABLE_BYTES = 512 * 1024 * 1024

async function boot(init: Extract<PageToWorker, { type: 'init' }>): Promise<void> {
  const started = performance.now()
  const served = init.packages.length > 0 ? await fetchLock(init.indexURL) : null
  const plan = bootPlan(served?.lock ?? null, init.packages)
  let done = 0
  const step = (): void => post({ type: 'progress', progress: { done, total: plan.steps.length, label: plan.steps[done] ?? '' } })
  step()
  const module = (await import(/* @vite-ignore */ `${init.indexURL}pyodide.mjs`)) as { loadPyodide: LoadPyodide }
  const py = await module.loadPyodide({
    indexURL: init.indexURL,
    ...packageOptions(init.indexURL, served),
    env: { HOME: '/home/pyodide' },
    stdout: () => {},
    stderr: () => {}
  })
  py.setInterruptBuffer(new Int32Array(init.interruptBuffer))
  qaHeader = new Int32Array(init.qaBuffer, 0, 2)
  qaBytes = new Uint8Array(init.qaBuffer, 8)
  done += 1

  // One package at a time, dependencies first, so the status bar can name each.
  for (const name of plan.packages) {
    step()
    await loadPackage(py, name)
    done += 1
  }

  step()
  const bundle = (await (await fetch(init.runtimeURL)).json()) as { files: Record<string, string> }
  for (const [path, source] of Object.entries(bundle.files)) {
    const full = `${RUNTIME_ROOT}/${path}`
    py.FS.mkdirTree(full.slice(0, full.lastIndexOf('/')))
    py.FS.writeFile(full, source)
  }
  py.runPython(`import sys\nsys.path.insert(0, ${JSON.stringify(RUNTIME_ROOT)})\nimport tableqa.host as _tableqa_host`)
  const pandas = init.loadPandas && (py.runPython('_tableqa_host.pandas_available()') as boolean)
  const host = py.globals.get('_tableqa_host') as {
    run_json(code: string, tableId: string | undefined, namedTablesJson: string, maxQaCalls: number, onStart: () => void): string
    load_table(tableId: string, payload: TablePayload, maxCells: number, maxBytes: number, maxRows: number): string
    drop_table(tableId: string): void
    install_qa_bridge(bridge: (question: string, value: string | undefined) => string): void
    tampered(): boolean
  }
  // JS null would arrive as Python's `jsnull`; undefined arrives as None.
  runProgram = (code, tableId, namedTables, maxQaCalls, onStart) =>
    host.run_json(code, tableId ?? undefined, JSON.stringify(namedTables), maxQaCalls, onStart)
  wasTampered = () => host.tampered()
  host.install_qa_bridge(askHost)
  // A refusal is kept in Python and reported by every run that needs the table.
  loadTable = (tableId, payload) => void host.load_table(tableId, payload, SANDBOX_MAX_CELLS, SANDBOX_MAX_TABLE_BYTES, SANDBOX_MAX_ROWS)
  dropTable = (tableId) => host.drop_table(tableId)
  pyodide = py
  lockDown()
  const pythonVersion = py.runPython('import sys; sys.version.split()[0]') as string
  post({ type: 'ready', pythonVersion, pandas, bootMs: Math.round(performance.now() - started) })
}

scope.onmessage = (event: MessageEvent<PageToWorker>) => {
  const message = event.data
  switch (message.type) {
    case 'init':
      boot(message).catch((error: unknown) => post({ type: 'boot-error', message: String(error) }))
      return
    case 'table':
      try {
        loadTable?.(message.tableId, message.payloadJson)
      } catch {
        // Python recorded nothing usable; the run that needs the table reports it as not loaded.
      }
      return
    case 'drop-table':
      dropTable?.(message.tableId)
      return
    case 'run': {
      if (!pyodide || !runProgram) {
        post({ type: 'result', runId: message.runId, resultJson: JSON.stringify(notReady()), recycle: false })
        return
      }
      let resultJson: string
      let recycle = true
      currentRunId = message.runId
      try {
        const runId = message.runId
        resultJson = runProgram(message.code, message.tableId, message.namedTables, message.maxQaCalls, () =>
          post({ type: 'started', runId })
        )
        recycle = wasTampered()
      } catch (error) {
        resultJson = JSON.stringify({ ok: false, error: { code: 'internal', message: String(error), stdout: '', stderr: '' } })
      } finally {
        currentRunId = null
      }
      post({ type: 'result', runId: message.runId, resultJson, recycle })
      return
    }
  }
}

/**
 * The QA bridge: Python calls this synchronously. The worker blocks on the shared buffer until the page
 * writes the host's answer there; a failure becomes an exception in the program.
 */
function askHost(question: string, value: string | undefined): string {
  if (!qaHeader || !qaBytes || currentRunId === null) throw new Error('QA calls are only possible while a program runs.')
  Atomics.store(qaHeader, 0, QA_STATE_WAITING)
  post({ type: 'qa', runId: currentRunId, question: String(question), value: value === undefined || value === null ? null : String(value) })
  Atomics.wait(qaHeader, 0, QA_STATE_WAITING)
  const length = Atomics.load(qaHeader, 1)
  const answer = JSON.parse(new TextDecoder().decode(qaBytes.slice(0, length))) as Result<string>
  const state = Atomics.load(qaHeader, 0)
  Atomics.store(qaHeader, 0, QA_STATE_WAITING)
  if (state !== QA_STATE_ANSWERED || !answer.ok) throw new Error(answer.ok ? 'The QA call failed.' : answer.error.message)
  return answer.value
}

/**
 * After boot the worker needs no network and no workers, so programs get none: the page's policy
 * already refuses other origins; this also removes the APIs themselves, from the global and from the
 * prototypes a program could borrow them from.
 */
function lockDown(): void {
  const names = [
    'fetch',
    'XMLHttpRequest',
    'WebSocket',
    'WebSocketStream',
    'EventSource',
    'Worker',
    'SharedWorker',
    'importScripts',
    'BroadcastChannel',
    'WebTransport',
    'indexedDB',
    'caches'
  ]
  for (
    let target: object | null = scope;
    target !== null && target !== Object.prototype;
    target = Object.getPrototypeOf(target) as object | null
  ) {
    for (const name of names) {
      if (Object.prototype.hasOwnProperty.call(target, name)) delete (target as Record<string, unknown>)[name]
    }
  }
  for (const name of names) Object.defineProperty(scope, name, { value: undefined, writable: false, configurable: false })
}

function notReady(): unknown {
  return { ok: false, error: { code: 'executor-unavailable', message: 'Python is still starting.', stdout: '', stderr: '' } }
}
