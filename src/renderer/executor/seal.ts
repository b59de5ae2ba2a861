/**
 * What programs can reach in a Pyodide worker, taken away once it has booted. The page's policy already
 * refuses other origins and the pool destroys a worker after its question; this is defence in depth:
 * - no network, no workers: the APIs are gone, from the global and every prototype a program could borrow them from;
 * - no storage that outlives the worker or is shared with other workers of the origin: IndexedDB,
 *   Cache Storage, OPFS and storage buckets (`navigator.storage`, `navigator.storageBuckets`), the old
 *   file system API, Web Locks, BroadcastChannel;
 * - no timers: a program cannot leave code to run after it has returned (`setTimeout`, `setInterval`,
 *   `MessageChannel`, `Atomics.waitAsync`, Pyodide's own scheduler behind asyncio);
 * - no messages: `postMessage`, `close` and the event listener methods are removed after the worker's own
 *   `post` and `message` listener have been captured, so a program can neither speak for the worker nor
 *   hear what the page sends it.
 * Promises and other asynchronous APIs can still call back later; `intrinsicsIntact` (taken here and
 * checked before each run, with the Python snapshot) catches what such a callback changes.
 */

const NETWORK = ['fetch', 'XMLHttpRequest', 'WebSocket', 'WebSocketStream', 'EventSource', 'WebTransport', 'importScripts']
const WORKERS = ['Worker', 'SharedWorker']
const STORAGE = [
  'indexedDB',
  'IDBFactory',
  'caches',
  'CacheStorage',
  'BroadcastChannel',
  'FileSystemHandle',
  'FileSystemDirectoryHandle',
  'FileSystemFileHandle',
  'FileSystemSyncAccessHandle',
  'StorageManager',
  'StorageBucketManager',
  'StorageBucket',
  'LockManager',
  'webkitRequestFileSystem',
  'webkitRequestFileSystemSync',
  'webkitResolveLocalFileSystemURL',
  'webkitResolveLocalFileSystemSyncURL'
]
const TIMERS = [
  'setTimeout',
  'setInterval',
  'clearTimeout',
  'clearInterval',
  'queueMicrotask',
  'requestAnimationFrame',
  'scheduler',
  'MessageChannel'
]
const MESSAGING = ['postMessage', 'close', 'onmessage', 'onmessageerror']
/** Navigator members that reach storage, other workers of the origin, or devices. */
const NAVIGATOR = ['storage', 'storageBuckets', 'locks', 'serviceWorker', 'permissions', 'hid', 'serial', 'usb', 'gpu', 'bluetooth', 'xr']
const LISTENERS = ['addEventListener', 'removeEventListener', 'dispatchEvent']

/** Everything a program should not find, by group (tests read this). */
export const REMOVED = { NETWORK, WORKERS, STORAGE, TIMERS, MESSAGING, NAVIGATOR, LISTENERS }

/** Remove `names` from `target` and everything up its prototype chain, then pin them to undefined on `target`. */
function remove(target: object, names: readonly string[]): void {
  for (let at: object | null = target; at !== null && at !== Object.prototype; at = Reflect.getPrototypeOf(at)) {
    for (const name of names) if (Object.prototype.hasOwnProperty.call(at, name)) Reflect.deleteProperty(at, name)
  }
  for (const name of names) Reflect.defineProperty(target, name, { value: undefined, writable: false, configurable: false })
}

/** Make Pyodide's callback scheduler (what asyncio and `call_soon` run on) refuse. */
function stopScheduler(pyodideApi: unknown): void {
  const internals: unknown = typeof pyodideApi === 'object' && pyodideApi !== null ? Reflect.get(pyodideApi, '_api') : undefined
  if (typeof internals !== 'object' || internals === null) return
  Reflect.set(internals, 'scheduleCallback', () => {
    throw new Error('Timers are not available in the sandbox.')
  })
}

/**
 * Seal the worker. `pyodideApi` is the object `loadPyodide` returned. The worker must have captured its
 * own `postMessage` and added its `message` listener before this runs.
 */
export function sealWorker(scope: object, pyodideApi: unknown): void {
  remove(scope, [...NETWORK, ...WORKERS, ...STORAGE, ...TIMERS, ...MESSAGING])
  const navigator: unknown = Reflect.get(scope, 'navigator')
  if (typeof navigator === 'object' && navigator !== null) remove(navigator, NAVIGATOR)
  Reflect.deleteProperty(Atomics, 'waitAsync')
  remove(EventTarget.prototype, LISTENERS)
  stopScheduler(pyodideApi)
}

/** The built-ins the worker's own code and Pyodide's glue rely on. */
function intrinsics(): object[] {
  const typedArray: unknown = Reflect.getPrototypeOf(Uint8Array.prototype)
  return [
    JSON,
    Object,
    Object.prototype,
    Array,
    Array.prototype,
    String,
    String.prototype,
    Function.prototype,
    Number,
    Number.prototype,
    Math,
    Atomics,
    Reflect,
    Promise,
    Promise.prototype,
    Symbol,
    Error,
    Error.prototype,
    Map.prototype,
    Set.prototype,
    WeakMap.prototype,
    Uint8Array,
    Uint8Array.prototype,
    Int32Array.prototype,
    ...(typeof typedArray === 'object' && typedArray !== null ? [typedArray] : []),
    TextDecoder.prototype,
    TextEncoder.prototype,
    WebAssembly,
    WebAssembly.Memory.prototype,
    WebAssembly.Instance.prototype
  ]
}

type Entry = { target: object; key: string | symbol; value: unknown; get: unknown; set: unknown }

// Taken when this module loads, before any program exists: the check below must not run on built-ins a
// program could have replaced, so it also walks arrays by index rather than through their iterators.
const describe = Reflect.getOwnPropertyDescriptor
const keysOf = Reflect.ownKeys
const same = Object.is

function entries(targets: object[]): Entry[] {
  const out: Entry[] = []
  for (let i = 0; i < targets.length; i++) {
    const target = targets[i] as object
    const keys = keysOf(target)
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k] as string | symbol
      const d = describe(target, key)
      if (d) out[out.length] = { target, key, value: d.value, get: d.get, set: d.set }
    }
  }
  return out
}

/**
 * A snapshot of the built-ins' properties, taken when the worker is sealed; the returned check says
 * whether they are all still the same objects (the Python side has its own snapshot).
 */
export function intrinsicsSnapshot(): () => boolean {
  const targets = intrinsics()
  const boot = entries(targets)
  return () => {
    let count = 0
    for (let i = 0; i < targets.length; i++) count += keysOf(targets[i] as object).length
    if (count !== boot.length) return false
    for (let i = 0; i < boot.length; i++) {
      const e = boot[i] as Entry
      const d = describe(e.target, e.key)
      if (!d || !same(d.value, e.value) || d.get !== e.get || d.set !== e.set) return false
    }
    return true
  }
}
