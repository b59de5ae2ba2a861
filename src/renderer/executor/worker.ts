/// <reference lib="webworker" />
/**
 * One Pyodide interpreter. Runs untrusted programs; talks only to the executor page that created it.
 * The page enforces time limits (interrupt, then terminate); this file only boots and runs.
 */

import type { PageToWorker, WorkerToPage } from '../../shared/executor-protocol'

type PyProxyLike = { destroy(): void }
type Pyodide = {
  version: string
  runPython(code: string, options?: { globals?: PyProxyLike }): unknown
  setInterruptBuffer(buffer: Int32Array): void
  loadPackage(names: string[], options?: { messageCallback?: (m: string) => void; errorCallback?: (m: string) => void }): Promise<unknown>
  globals: { get(name: string): unknown }
  FS: { mkdirTree(path: string): void; writeFile(path: string, data: string): void }
}
type LoadPyodide = (options: { indexURL: string; env?: Record<string, string>; stdout?: (s: string) => void; stderr?: (s: string) => void }) => Promise<Pyodide>

const scope = self as unknown as DedicatedWorkerGlobalScope
let pyodide: Pyodide | null = null
let runProgram: ((code: string, tableId: string | null) => string) | null = null
let loadTable: ((tableId: string, payloadJson: string) => void) | null = null
let dropTable: ((tableId: string) => void) | null = null

function post(message: WorkerToPage): void {
  scope.postMessage(message)
}

const RUNTIME_ROOT = '/home/pyodide/runtime'

async function boot(init: Extract<PageToWorker, { type: 'init' }>): Promise<void> {
  const started = performance.now()
  const module = (await import(/* @vite-ignore */ `${init.indexURL}pyodide.mjs`)) as { loadPyodide: LoadPyodide }
  const py = await module.loadPyodide({ indexURL: init.indexURL, env: { HOME: '/home/pyodide' }, stdout: () => {}, stderr: () => {} })
  py.setInterruptBuffer(new Int32Array(init.interruptBuffer))

  const bundle = (await (await fetch(init.runtimeURL)).json()) as { files: Record<string, string> }
  for (const [path, source] of Object.entries(bundle.files)) {
    const full = `${RUNTIME_ROOT}/${path}`
    py.FS.mkdirTree(full.slice(0, full.lastIndexOf('/')))
    py.FS.writeFile(full, source)
  }

  let pandas = false
  if (init.loadPandas) {
    // A failed loadPackage resolves instead of throwing, so the import below is the real check.
    await py.loadPackage(['numpy', 'pandas'], { messageCallback: () => {}, errorCallback: () => {} })
  }
  py.runPython(`import sys\nsys.path.insert(0, ${JSON.stringify(RUNTIME_ROOT)})\nimport tableqa.host as _tableqa_host`)
  pandas = init.loadPandas && (py.runPython('_tableqa_host.pandas_available()') as boolean)
  const host = py.globals.get('_tableqa_host') as {
    run_json(code: string, tableId: string | undefined): string
    load_table(tableId: string, payloadJson: string): void
    drop_table(tableId: string): void
  }
  // JS null would arrive as Python's `jsnull`; undefined arrives as None.
  runProgram = (code, tableId) => host.run_json(code, tableId ?? undefined)
  loadTable = (tableId, payloadJson) => host.load_table(tableId, payloadJson)
  dropTable = (tableId) => host.drop_table(tableId)
  pyodide = py
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
      loadTable?.(message.tableId, message.payloadJson)
      return
    case 'drop-table':
      dropTable?.(message.tableId)
      return
    case 'run': {
      if (!pyodide || !runProgram) {
        post({ type: 'result', runId: message.runId, resultJson: JSON.stringify(notReady()) })
        return
      }
      let resultJson: string
      try {
        resultJson = runProgram(message.code, message.tableId)
      } catch (error) {
        resultJson = JSON.stringify({ ok: false, error: { code: 'internal', message: String(error), stdout: '', stderr: '' } })
      }
      post({ type: 'result', runId: message.runId, resultJson })
      return
    }
  }
}

function notReady(): unknown {
  return { ok: false, error: { code: 'executor-unavailable', message: 'Python is still starting.', stdout: '', stderr: '' } }
}
