import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, dirname, extname, join, normalize, relative, sep } from 'node:path'
import type { Readable } from 'node:stream'
import { appRoot } from '../paths'
import { pandasPackages, servedFileNames, type PackageSet } from './package-source'

/**
 * The files the executor page may load, and nothing else: the built executor page and its scripts,
 * Pyodide's core files, the lock file and the package files it names (from the package folders), and the
 * runtime library bundle.
 * Both hosts serve exactly this set (Electron through a protocol handler, Node through a loopback server).
 */

/** Headers on every executor response: cross-origin isolation (for the interrupt buffer) and a strict policy. */
export const EXECUTOR_HEADERS: Record<string, string> = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': 'require-corp',
  'cross-origin-resource-policy': 'same-origin',
  'content-security-policy':
    "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'",
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store'
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.zip': 'application/zip',
  '.whl': 'application/zip',
  '.tar': 'application/x-tar',
  '.css': 'text/css; charset=utf-8'
}

export type Asset = { status: number; contentType: string; size: number; open(): Readable | Buffer }

export type AssetOptions = {
  /** Built renderer output holding executor.html (default: out/renderer). */
  rendererDir?: string
  /** Folders searched for Pyodide's package files, in order (download cache, bundled folder). */
  packageDirs: string[]
  /**
   * The lock file served to the page as `/pyodide/pyodide-lock.json` and the packages wanted from it:
   * only their files are served. Default: numpy and pandas from the installed lock.
   */
  packages?: PackageSet
}

export class ExecutorAssets {
  private readonly rendererDir: string
  private readonly pyodideDir: string
  private readonly pythonDir: string
  private readonly lockPath: string
  private readonly served: Set<string>
  private runtimeBundle: Buffer | null = null

  constructor(private readonly options: AssetOptions) {
    const root = appRoot()
    this.rendererDir = options.rendererDir ?? join(root, 'out', 'renderer')
    this.pyodideDir = join(root, 'node_modules', 'pyodide')
    this.pythonDir = join(root, 'python')
    const packages = options.packages ?? pandasPackages()
    this.lockPath = packages.lockPath
    this.served = servedFileNames(packages)
  }

  /** Whether the executor page has been built. */
  built(): boolean {
    return existsSync(join(this.rendererDir, 'executor.html'))
  }

  resolve(urlPath: string): Asset | null {
    const path = decodeURIComponent(urlPath.split('?')[0] ?? '')
    if (path === '/executor.html') return this.file(this.rendererDir, 'executor.html')
    if (path.startsWith('/assets/')) return this.file(this.rendererDir, path.slice(1))
    if (path === '/runtime/tableqa.json') return this.bundle()
    if (path.startsWith('/pyodide/')) {
      const name = path.slice('/pyodide/'.length)
      if (name.includes('/')) return null
      if (name === 'pyodide-lock.json') return this.file(dirname(this.lockPath), basename(this.lockPath))
      return this.wheel(name) ?? this.file(this.pyodideDir, name)
    }
    return null
  }

  private wheel(name: string): Asset | null {
    if (!this.served.has(name)) return null
    for (const dir of this.options.packageDirs) {
      const asset = this.file(dir, name)
      if (asset) return asset
    }
    return null
  }

  private file(dir: string, name: string): Asset | null {
    const full = normalize(join(dir, name))
    const rel = relative(dir, full)
    if (rel.startsWith('..') || rel.includes(`..${sep}`)) return null
    if (!existsSync(full) || !statSync(full).isFile()) return null
    return {
      status: 200,
      contentType: TYPES[extname(full)] ?? 'application/octet-stream',
      size: statSync(full).size,
      open: () => createReadStream(full)
    }
  }

  /** python/tableqa/*.py as one JSON document the worker writes into its file system. */
  private bundle(): Asset {
    if (!this.runtimeBundle || process.env.TABLEQA_DEV === '1') {
      const files: Record<string, string> = {}
      const walk = (dir: string, prefix: string): void => {
        for (const entry of readdirSync(dir, { withFileTypes: true })) {
          if (entry.isDirectory() && entry.name !== '__pycache__') walk(join(dir, entry.name), `${prefix}${entry.name}/`)
          else if (entry.isFile() && entry.name.endsWith('.py')) files[`${prefix}${entry.name}`] = readFileSync(join(dir, entry.name), 'utf8')
        }
      }
      walk(join(this.pythonDir, 'tableqa'), 'tableqa/')
      this.runtimeBundle = Buffer.from(JSON.stringify({ files }))
    }
    const body = this.runtimeBundle
    return { status: 200, contentType: TYPES['.json'] ?? 'application/json', size: body.byteLength, open: () => body }
  }
}
