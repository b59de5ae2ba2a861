/**
 * "Use a GGUF file I already have": the file is read as a model first (a file that is not one is refused
 * with the reason). A file the size of a catalog model is hashed, and is that model when the SHA-256
 * matches. It is used where it is, or copied into `<data folder>/models/` (atomically: a part file,
 * then a rename) when asked.
 */

import { createHash } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, rename, rm, stat } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { Transform } from 'node:stream'
import type { CatalogModel, InstalledModel } from '../../../shared/local-model'
import { fail, ok, type Result } from '../../../shared/result'
import { partPath } from './download'
import { formatBytes, freeDiskBytes } from './hardware'
import type { LocalModels } from './models'

export type ImportedModel = {
  model: InstalledModel
  /** The catalog model whose published SHA-256 the file has, when it has one. */
  verifiedAs: CatalogModel | null
  copied: boolean
}

export type ImportOptions = {
  copy: boolean
  onProgress?: (phase: 'hashing' | 'copying', doneBytes: number, totalBytes: number) => void
}

async function sha256Of(path: string, total: number, onProgress: ImportOptions['onProgress']): Promise<string> {
  const hash = createHash('sha256')
  let done = 0
  for await (const chunk of createReadStream(path, { highWaterMark: 4 * 1024 * 1024 })) {
    hash.update(chunk as Buffer)
    done += (chunk as Buffer).byteLength
    onProgress?.('hashing', done, total)
  }
  return hash.digest('hex')
}

export async function importModelFile(file: string, models: LocalModels, options: ImportOptions): Promise<Result<ImportedModel>> {
  const source = resolve(file)
  const read = models.inspect(source)
  if (!read.ok) return read
  const size = read.value.sizeBytes
  const candidates = models.catalog.filter((m) => m.sizeBytes === size)
  let verifiedAs: CatalogModel | null = null
  if (candidates.length > 0) {
    const digest = await sha256Of(source, size, options.onProgress)
    verifiedAs = candidates.find((m) => m.sha256 === digest) ?? null
  }
  if (!options.copy || dirname(source) === models.dir) return ok({ model: read.value, verifiedAs, copied: false })

  const dest = join(models.ensureDir(), verifiedAs?.fileName ?? basename(source))
  const existing = await stat(dest).catch(() => null)
  if (existing !== null && existing.size === size) {
    const again = models.inspect(dest)
    if (again.ok) return ok({ model: again.value, verifiedAs, copied: false })
  }
  const free = freeDiskBytes(models.dir)
  if (free !== null && free < size)
    return fail(
      'disk-full',
      `Copying ${basename(source)} needs ${formatBytes(size)} of free disk space in ${models.dir} and ${formatBytes(free)} is free.`
    )
  const part = partPath(dest)
  await mkdir(dirname(part), { recursive: true })
  let done = 0
  try {
    await pipeline(
      createReadStream(source),
      new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          done += chunk.byteLength
          options.onProgress?.('copying', done, size)
          callback(null, chunk)
        }
      }),
      createWriteStream(part)
    )
    await rename(part, dest)
  } catch (error) {
    await rm(part, { force: true })
    const code = (error as NodeJS.ErrnoException).code
    return code === 'ENOSPC'
      ? fail('disk-full', `The disk filled up while copying ${basename(source)}; nothing was kept.`)
      : fail('io-error', `Could not copy ${basename(source)} into ${models.dir}: ${error instanceof Error ? error.message : String(error)}`)
  }
  const copied = models.inspect(dest)
  return copied.ok ? ok({ model: copied.value, verifiedAs, copied: true }) : copied
}
