import { createHash } from 'node:crypto'
import { createReadStream, existsSync } from 'node:fs'
import { open, rename, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { fail, ok, type Result } from '../../../shared/result'

/**
 * Fetching one package file into a folder, checked against the sha256 the lock gives. The file appears
 * under its name only once it matches; until then it is `<name>.part`, which a later attempt resumes
 * (HTTP Range) instead of starting again.
 */

export type FetchOptions = {
  /** Longest wait for the server to answer, and between two pieces of the body. */
  stallMs: number
  /** Largest file accepted: a source streaming without end is cut off here. */
  maxBytes?: number
  signal?: AbortSignal
  /** Bytes of the file on disk so far (a resumed part included), and its size when known. */
  onBytes?: (bytes: number, total: number | null) => void
}

export type Fetched = { bytes: number; resumedFrom: number }

const DEFAULT_MAX_BYTES = 1024 * 1024 * 1024

export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

/** Whether `path` holds a file with this sha256 (false when it is absent). */
export async function matchesHash(path: string, sha256: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile() && (await sha256File(path)) === sha256
  } catch {
    return false
  }
}

function message(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } } | null)?.cause
  if (cause?.code) return `${cause.code}${cause.message ? ` (${cause.message})` : ''}`
  return error instanceof Error ? error.message : String(error)
}

/** Move a finished part into place if it matches; otherwise remove it and say so, naming the file. */
async function settle(part: string, dest: string, fileName: string, sha256: string, bytes: number, resumedFrom: number): Promise<Result<Fetched>> {
  const got = await sha256File(part)
  if (got !== sha256) {
    await rm(part, { force: true })
    return fail(
      'package-bad-hash',
      `${fileName} was rejected: its sha256 is ${got}, not the ${sha256} the lock file gives. It was not kept.`,
      `${bytes} bytes received`
    )
  }
  await rename(part, dest)
  return ok({ bytes, resumedFrom })
}

/** Download `url` as `fileName` into `dir`, resuming a part left by an earlier attempt. */
export async function downloadFile(url: string, dir: string, fileName: string, sha256: string, options: FetchOptions): Promise<Result<Fetched>> {
  const dest = join(dir, fileName)
  const part = `${dest}.part`
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES
  const have = existsSync(part) ? (await stat(part)).size : 0
  const controller = new AbortController()
  const onAbort = (): void => controller.abort()
  options.signal?.addEventListener('abort', onAbort)
  let stalled = false
  let timer: ReturnType<typeof setTimeout> | undefined
  const arm = (): void => {
    clearTimeout(timer)
    timer = setTimeout(() => {
      stalled = true
      controller.abort()
    }, options.stallMs)
  }
  const seconds = Math.round(options.stallMs / 100) / 10
  try {
    arm()
    let response: Response
    try {
      response = await fetch(url, { headers: have > 0 ? { range: `bytes=${have}-` } : {}, signal: controller.signal, redirect: 'follow' })
    } catch (error) {
      if (stalled) return fail('timeout', `${url} did not answer within ${seconds} s.`)
      if (options.signal?.aborted) return fail('cancelled', 'The download was stopped.')
      return fail('package-unreachable', `${url} could not be reached: ${message(error)}.`)
    }
    if (response.status === 416 && have > 0) {
      // The part may already be whole: the server has nothing after its last byte.
      await response.body?.cancel()
      return await settle(part, dest, fileName, sha256, have, have)
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => {})
      const what = response.status === 404 ? 'it is not there' : (response.statusText || 'refused')
      return fail('package-http', `${url} answered HTTP ${response.status} (${what}).`)
    }
    const range = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(response.headers.get('content-range') ?? '')
    const resumed = response.status === 206 && range !== null && Number(range[1]) === have
    if (response.status === 206 && !resumed) {
      await response.body?.cancel().catch(() => {})
      await rm(part, { force: true })
      return fail('package-http', `${url} answered a range other than the one asked for; the partial file was removed, try again.`)
    }
    const start = resumed ? have : 0
    const length = Number(response.headers.get('content-length') ?? NaN)
    const total = resumed && range?.[2] !== '*' ? Number(range?.[2]) : Number.isFinite(length) ? start + length : null
    if (total !== null && total > maxBytes) {
      await response.body?.cancel().catch(() => {})
      return fail('package-http', `${url} is ${total} bytes, more than the ${maxBytes} accepted for one package file.`)
    }
    const handle = await open(part, resumed ? 'a' : 'w')
    let bytes = start
    try {
      options.onBytes?.(bytes, total)
      if (response.body) {
        for await (const piece of response.body) {
          const chunk = piece as Uint8Array
          arm()
          bytes += chunk.byteLength
          if (bytes > maxBytes) {
            await rm(part, { force: true })
            return fail('package-http', `${url} sent more than the ${maxBytes} bytes accepted for one package file.`)
          }
          await handle.write(chunk)
          options.onBytes?.(bytes, total)
        }
      }
    } catch (error) {
      if (stalled) return fail('timeout', `${url} sent nothing for ${seconds} s; the ${bytes} bytes received are kept and the next attempt resumes there.`)
      if (options.signal?.aborted) return fail('cancelled', 'The download was stopped; the next attempt resumes where it stopped.')
      return fail('package-unreachable', `The download of ${url} broke off after ${bytes} bytes (${message(error)}); the next attempt resumes there.`)
    } finally {
      await handle.close()
    }
    clearTimeout(timer)
    if (total !== null && bytes < total) {
      return fail('package-unreachable', `${url} ended after ${bytes} of ${total} bytes; the next attempt resumes there.`)
    }
    return await settle(part, dest, fileName, sha256, bytes, start)
  } finally {
    clearTimeout(timer)
    options.signal?.removeEventListener('abort', onAbort)
  }
}

/** Copy `fileName` from a local folder into `dir`, checked like a download. */
export async function copyFile(source: string, dir: string, fileName: string, sha256: string, options: FetchOptions): Promise<Result<Fetched>> {
  const from = join(source, fileName)
  let size: number
  try {
    const info = await stat(from)
    if (!info.isFile()) return fail('package-missing', `${from} is not a file.`)
    size = info.size
  } catch {
    return fail('package-missing', `${fileName} is not in ${source}.`)
  }
  const dest = join(dir, fileName)
  const part = `${dest}.part`
  const handle = await open(part, 'w')
  let bytes = 0
  try {
    options.onBytes?.(0, size)
    for await (const chunk of createReadStream(from)) {
      if (options.signal?.aborted) return fail('cancelled', 'The copy was stopped.')
      const piece = chunk as Buffer
      bytes += piece.byteLength
      await handle.write(piece)
      options.onBytes?.(bytes, size)
    }
  } catch (error) {
    return fail('io-error', `${from} could not be read: ${message(error)}.`)
  } finally {
    await handle.close()
  }
  return settle(part, dest, fileName, sha256, bytes, 0)
}
