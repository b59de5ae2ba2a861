/**
 * `npm run setup:python -- [--from DIR|URL|pypi] [--to DIR]`: fill the Pyodide package cache with the
 * wheels pandas needs (numpy, pandas, python-dateutil, pytz, six), exactly as named and hashed in
 * node_modules/pyodide/pyodide-lock.json. Every file is checked against the lock's sha256.
 *
 * --from DIR   a folder holding the wheels (for offline machines)
 * --from URL   a Pyodide distribution, e.g. https://cdn.jsdelivr.net/pyodide/v<version>/full/
 * --from pypi  PyPI's JSON API (default; also $TABLEQA_PYPI_INDEX): finds a file only when PyPI has the exact wheel
 * --to DIR     the cache to fill (default: <data folder>/pyodide-packages)
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { defaultDataDir } from '../src/main/services/paths'
import {
  pandasClosure,
  readPyodideLock,
  type FetchReport,
  type LockPackage,
  type PackageOrigin
} from '../src/main/services/python/package-source'

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex')
}

function origin(from: string): PackageOrigin {
  if (from === 'pypi') return { kind: 'pypi', index: process.env.TABLEQA_PYPI_INDEX ?? 'https://pypi.org' }
  if (/^https?:\/\//.test(from)) return { kind: 'url', base: from.endsWith('/') ? from : `${from}/` }
  return { kind: 'dir', path: from }
}

async function download(url: string): Promise<{ bytes: Uint8Array } | { error: string }> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(120_000) })
    if (!response.ok) return { error: `HTTP ${response.status} from ${url}` }
    return { bytes: new Uint8Array(await response.arrayBuffer()) }
  } catch (error) {
    return { error: `${url}: ${error instanceof Error ? error.message : String(error)}` }
  }
}

/** PyPI: look the exact file name up among the release's files. */
async function fromPypi(index: string, entry: LockPackage): Promise<{ bytes: Uint8Array } | { error: string }> {
  const project = entry.name.toLowerCase().replace(/[-_.]+/g, '-')
  let listing: { files?: { filename: string; url: string }[] }
  try {
    const response = await fetch(`${index}/simple/${project}/`, {
      headers: { accept: 'application/vnd.pypi.simple.v1+json' },
      signal: AbortSignal.timeout(60_000)
    })
    if (!response.ok) return { error: `PyPI answered HTTP ${response.status} for ${project}` }
    listing = (await response.json()) as typeof listing
  } catch (error) {
    return { error: `PyPI could not be reached: ${error instanceof Error ? error.message : String(error)}` }
  }
  const files = listing.files ?? []
  const file = files.find((f) => f.filename === entry.file_name)
  if (!file) {
    const wasm = files.filter((f) => /emscripten|wasm32/.test(f.filename)).map((f) => f.filename)
    const tag = /-(py[^-]*emscripten[^-.]*|pyodide[^-.]*)\.whl$/.exec(entry.file_name)?.[1] ?? 'this platform'
    return {
      error: `PyPI lists ${files.length} files for ${project} and not ${entry.file_name}; WebAssembly wheels there: ${
        wasm.length === 0 ? 'none' : wasm.slice(-4).join(', ')
      } (none for ${tag})`
    }
  }
  return download(file.url)
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { from: { type: 'string', default: 'pypi' }, to: { type: 'string' } } })
  const source = origin(values.from ?? 'pypi')
  const target = values.to ?? join(defaultDataDir(), 'pyodide-packages')
  mkdirSync(target, { recursive: true })
  const info = readPyodideLock().info
  console.log(`Pyodide ${info.python ?? ''} (ABI ${info.abi_version ?? '?'}): filling ${target} from ${values.from}`)
  const reports: FetchReport[] = []
  for (const entry of pandasClosure()) {
    const destination = join(target, entry.file_name)
    if (existsSync(destination) && sha256(readFileSync(destination)) === entry.sha256) {
      reports.push({ file: entry.file_name, status: 'present', detail: 'already in the cache' })
      continue
    }
    let got: { bytes: Uint8Array } | { error: string }
    if (source.kind === 'dir') {
      const path = join(source.path, entry.file_name)
      got = existsSync(path) ? { bytes: new Uint8Array(readFileSync(path)) } : { error: `not in ${source.path}` }
    } else if (source.kind === 'url') {
      got = await download(`${source.base}${entry.file_name}`)
    } else {
      got = await fromPypi(source.index, entry)
    }
    if ('error' in got) {
      reports.push({ file: entry.file_name, status: 'missing', detail: got.error })
    } else if (sha256(got.bytes) !== entry.sha256) {
      reports.push({ file: entry.file_name, status: 'bad-hash', detail: `sha256 ${sha256(got.bytes)} is not the lock's ${entry.sha256}` })
    } else {
      writeFileSync(`${destination}.part`, got.bytes)
      renameSync(`${destination}.part`, destination)
      reports.push({ file: entry.file_name, status: 'fetched', detail: `${(got.bytes.byteLength / 1024 / 1024).toFixed(1)} MB` })
    }
    const last = reports.at(-1)
    if (last) console.log(`  ${last.status.padEnd(8)} ${last.file}  ${last.detail}`)
  }
  const missing = reports.filter((r) => r.status === 'missing' || r.status === 'bad-hash')
  if (missing.length > 0) {
    console.log(
      `\npandas will not load in the sandbox: ${missing.length} of ${reports.length} wheels are missing. Programs get plain Python rows until they are supplied (--from DIR or --from URL).`
    )
    process.exitCode = 3
  } else {
    console.log('\nAll wheels present: pandas loads in the sandbox at the next start.')
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
