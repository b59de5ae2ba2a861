/// <reference lib="webworker" />
/**
 * One Pyodide interpreter. Runs untrusted programs; talks only to the executor page that created it,
 * through the `postMessage` and `message` listener captured below before any program exists. The page
 * enforces time limits (interrupt, then terminate); this file boots, seals and runs.
 *
 * Boot, in steps the status bar shows: the Pyodide runtime, the packages (`loadPackages`), the runtime
 * library; then the worker is sealed (`seal.ts`), both snapshots are taken and `ready` is posted.
 */

import { bootPlan, type BootPlan } from '../../shared/boot-steps'
import { isFields } from '../../shared/check'
import type { BootStep, HostMessage } from '../../shared/python-host'
import { assertNever } from '../../shared/result'
import { fetchLock, loadPackage, packageOptions, type ServedLock } from './packages'
import { bindHost, Runtime } from './runtime'
import { intrinsicsSnapshot, sealWorker } from './seal'
import type { WorkerCommand, WorkerInit } from './worker-commands'

type Pyodide = {
  runPython(code: string): unknown
  setInterruptBuffer(buffer: Int32Array): void
  loadPackage(names: string[], options?: { messageCallback?: (m: string) => void; errorCallback?: (m: string) => void }): Promise<unknown>
  globals: { get(name: string): unknown }
  FS: { mkdirTree(path: string): void; writeFile(path: string, data: string): void }
}

const scope = self as unknown as DedicatedWorkerGlobalScope
// Captured before any program can replace them; sealing then removes them from the worker's global.
const postToPage = scope.postMessage.bind(scope)
const post = (message: HostMessage): void => postToPage(message)

const RUNTIME_ROOT = '/home/pyodide/runtime'

/** Readiness as one promise: commands that arrive while booting wait for it. */
const booted = deferred<Runtime>()

/** The package step of boot, one package at a time, dependencies first (without the lock file, each pulls in its own). */
async function loadPackages(py: Pyodide, plan: BootPlan, step: () => void): Promise<void> {
  // A failed loadPackage resolves instead of throwing, so the import in the library step is the real check.
  for (const name of plan.packages) {
    step()
    await loadPackage(py, name)
  }
}

async function loadPyodide(indexURL: string, served: ServedLock | null): Promise<Pyodide> {
  const module: unknown = await import(/* @vite-ignore */ `${indexURL}pyodide.mjs`)
  const load: unknown = isFields(module) ? module.loadPyodide : undefined
  if (typeof load !== 'function') throw new Error('pyodide.mjs has no loadPyodide')
  const options = { indexURL, ...packageOptions(indexURL, served), env: { HOME: '/home/pyodide' }, stdout: () => {}, stderr: () => {} }
  const py: unknown = await Reflect.apply(load, undefined, [options])
  if (!isPyodide(py)) throw new Error('loadPyodide returned something else than the Pyodide API')
  return py
}

function isPyodide(value: unknown): value is Pyodide {
  if (!isFields(value)) return false
  const { globals, FS } = value
  return (
    typeof value.runPython === 'function' &&
    typeof value.setInterruptBuffer === 'function' &&
    typeof value.loadPackage === 'function' &&
    isFields(globals) &&
    typeof globals.get === 'function' &&
    isFields(FS) &&
    typeof FS.mkdirTree === 'function' &&
    typeof FS.writeFile === 'function'
  )
}

async function installLibrary(py: Pyodide, runtimeURL: string): Promise<void> {
  const bundle: unknown = await (await fetch(runtimeURL)).json()
  const files: unknown = isFields(bundle) ? bundle.files : undefined
  if (!isFields(files)) throw new Error('the runtime library bundle has no files')
  for (const [path, source] of Object.entries(files)) {
    if (typeof source !== 'string') continue
    const full = `${RUNTIME_ROOT}/${path}`
    py.FS.mkdirTree(full.slice(0, full.lastIndexOf('/')))
    py.FS.writeFile(full, source)
  }
  py.runPython(`import sys\nsys.path.insert(0, ${JSON.stringify(RUNTIME_ROOT)})\nimport tableqa.host as _tableqa_host`)
}

async function boot(init: WorkerInit): Promise<void> {
  const started = performance.now()
  let stage: BootStep = 'runtime'
  try {
    const served = init.packages.length > 0 ? await fetchLock(init.indexURL) : null
    const plan = bootPlan(served?.lock ?? null, init.packages)
    let done = 0
    const step = (): void => post({ type: 'progress', progress: { done, total: plan.steps.length, label: plan.steps[done] ?? '' } })
    step()
    const py = await loadPyodide(init.indexURL, served)
    py.setInterruptBuffer(new Int32Array(init.interruptBuffer))
    done += 1
    stage = 'packages'
    await loadPackages(py, plan, () => {
      step()
      done += 1
    })
    stage = 'library'
    step()
    await installLibrary(py, init.runtimeURL)
    const host = bindHost(py.globals.get('_tableqa_host'))
    const pandas = init.loadPandas && host.pandasAvailable()
    const version = py.runPython('import sys; sys.version.split()[0]')
    // The QA bridge is part of what the snapshots cover, so it is installed first.
    const runtime = new Runtime({
      host,
      qa: { header: new Int32Array(init.qaBuffer, 0, 2), bytes: new Uint8Array(init.qaBuffer, 8) },
      post
    })
    runtime.sealed(seal(py, host), intrinsicsSnapshot())
    booted.resolve(runtime)
    post({
      type: 'ready',
      pythonVersion: typeof version === 'string' ? version : '',
      pandas,
      bootMs: Math.round(performance.now() - started)
    })
  } catch (error) {
    post({ type: 'boot-error', step: stage, detail: String(error) })
  }
}

/** Seal the worker, then take the Python snapshot runs are checked against. */
function seal(py: Pyodide, host: ReturnType<typeof bindHost>): string {
  // Python's asyncio loop reaches Pyodide's scheduler through this module's own binding; it goes too.
  py.runPython('import pyodide.webloop as _w\n_w.scheduleCallback = None\ndel _w')
  sealWorker(scope, py)
  return host.seal()
}

function handle(command: WorkerCommand): void {
  switch (command.type) {
    case 'init':
      void boot(command)
      return
    case 'table':
      void booted.promise.then((runtime) => runtime.load(command))
      return
    case 'drop-table':
      void booted.promise.then((runtime) => runtime.drop(command.tableId))
      return
    case 'run':
      void booted.promise.then((runtime) => runtime.run(command))
      return
    default:
      assertNever(command)
  }
}

// Only the page's own messages: a program could dispatch a synthetic event (isTrusted false) at the worker.
scope.addEventListener('message', (event: MessageEvent<WorkerCommand>) => {
  if (event.isTrusted) handle(event.data)
})

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve: (value: T) => void = () => {}
  const promise = new Promise<T>((r) => (resolve = r))
  return { promise, resolve }
}
