import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs'
import { randomBytes } from 'node:crypto'

/** Suffix of temp files; files left with it by a killed process are removed on the next start. */
export const TEMP_SUFFIX = '.tmp'

/**
 * Write a file so that a reader only ever sees the old or the new content: write and flush a temp file
 * beside it, then rename it over the target (rename is atomic on one file system).
 */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const temp = `${path}.${process.pid}-${randomBytes(4).toString('hex')}${TEMP_SUFFIX}`
  const fd = openSync(temp, 'w', 0o600)
  try {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data
    let written = 0
    while (written < bytes.byteLength) written += writeSync(fd, bytes, written, bytes.byteLength - written)
    fsyncSync(fd)
  } catch (error) {
    closeSync(fd)
    rmSync(temp, { force: true })
    throw error
  }
  closeSync(fd)
  renameSync(temp, path)
}
