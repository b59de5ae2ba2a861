/**
 * Downloads one model file: into `<dir>/.downloads/<name>.part`, resumed with an HTTP range request after
 * a pause, a dropped connection or a restart of the app; checked against its published SHA-256 before it
 * is used (a mismatch deletes it); then renamed into place, so a half-written file never carries the
 * model's name. A full disk stops the download with what was received kept.
 */

import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { mkdir, open, rename, rm, stat } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { fail, ok, type Result } from '../../../shared/result'
import { formatBytes, freeDiskBytes } from './hardware'

type FetchLike = (input: string, init?: RequestInit) => Promise<Response>

export type DownloadProgress = {
  phase: 'downloading' | 'verifying'
  receivedBytes: number
  totalBytes: number
  bytesPerSecond: number
  secondsLeft: number | null
}

export type DownloadRequest = {
  url: string
  sha256: string
  sizeBytes: number
  /** Where the finished file goes. */
  dest: string
  /** Abort with reason `'pause'` to keep what was received; any other reason cancels and deletes it. */
  signal?: AbortSignal
  onProgress?: (progress: DownloadProgress) => void
  fetch?: FetchLike
  /** Free bytes where the file goes (tests simulate a small disk). Default: the file system's. */
  freeBytes?: (dir: string) => number | null
  progressIntervalMs?: number
}

export type DownloadOutcome = { state: 'done'; file: string } | { state: 'paused'; receivedBytes: number } | { state: 'cancelled' }

/** Free space kept beyond the file itself, so the download never fills the disk to the last byte. */
const DISK_MARGIN = 64 * 1024 * 1024
/** The speed shown is over this last stretch of time. */
const SPEED_WINDOW_MS = 5_000

export function partPath(dest: string): string {
  return join(dirname(dest), '.downloads', `${basename(dest)}.part`)
}

async function sizeOf(path: string): Promise<number> {
  try {
    return (await stat(path)).size
  } catch {
    return 0
  }
}

// A function, so TypeScript does not keep a narrowed `aborted` across awaits.
function aborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true
}

function isPause(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true && signal.reason === 'pause'
}

export async function downloadModel(request: DownloadRequest): Promise<Result<DownloadOutcome>> {
  const { dest, sizeBytes, signal } = request
  const part = partPath(dest)
  const name = basename(dest)
  await mkdir(dirname(part), { recursive: true })
  let have = await sizeOf(part)
  if (have > sizeBytes) {
    await rm(part, { force: true })
    have = 0
  }
  const stopped = async (): Promise<Result<DownloadOutcome>> => {
    if (isPause(signal)) return ok({ state: 'paused', receivedBytes: await sizeOf(part) })
    await rm(part, { force: true })
    return ok({ state: 'cancelled' })
  }
  if (aborted(signal)) return stopped()

  const free = (request.freeBytes ?? freeDiskBytes)(dirname(dest))
  const needed = sizeBytes - have
  if (free !== null && free < needed + DISK_MARGIN)
    return fail(
      'disk-full',
      `${name} needs ${formatBytes(needed)} more of free disk space in ${dirname(dest)} and ${formatBytes(free)} is free. Free some space and try again.`
    )

  if (have < sizeBytes) {
    const fetched = await receive(request, part, have)
    if (!fetched.ok) return aborted(signal) ? stopped() : fetched
    if (aborted(signal)) return stopped()
  }
  const size = await sizeOf(part)
  if (size !== sizeBytes) {
    await rm(part, { force: true })
    return fail(
      'download-failed',
      `The server sent ${formatBytes(size)} for ${name}, not the published ${formatBytes(sizeBytes)}; the file was discarded.`
    )
  }
  const digest = await hashFile(part, sizeBytes, request)
  if (aborted(signal)) return stopped()
  if (digest !== request.sha256.toLowerCase()) {
    await rm(part, { force: true })
    return fail(
      'checksum-mismatch',
      `The downloaded ${name} is not the published file (its SHA-256 is ${digest.slice(0, 16)}…, the catalog's ${request.sha256.slice(0, 16)}…), so it was deleted. Try again; if it happens again, the file on the server has changed.`
    )
  }
  await rename(part, dest)
  return ok({ state: 'done', file: dest })
}

/** Appends the rest of the file to `part`, from byte `have`; returns when the body ends or fails. */
async function receive(request: DownloadRequest, part: string, have: number): Promise<Result<null>> {
  const { signal, sizeBytes } = request
  const name = basename(request.dest)
  let response: Response
  try {
    response = await (request.fetch ?? fetch)(request.url, {
      headers: have > 0 ? { Range: `bytes=${have}-` } : {},
      redirect: 'follow',
      ...(signal === undefined ? {} : { signal })
    })
  } catch (error) {
    return fail('download-failed', `Could not reach the download server for ${name} (${causeOf(error)}). Check the network and resume.`)
  }
  let start = have
  if (response.status === 200)
    start = 0 // The server ignored the range: start again from the beginning.
  else if (response.status === 206) {
    const range = /bytes (\d+)-/.exec(response.headers.get('content-range') ?? '')
    if (range === null || Number(range[1]) !== have) {
      await response.body?.cancel()
      return fail('download-failed', `The download server answered a resumed download of ${name} with the wrong part; try again.`)
    }
  } else {
    await response.body?.cancel()
    return fail('download-failed', `The download server answered HTTP ${response.status} for ${name}. Try again later.`)
  }
  if (response.body === null) return fail('download-failed', `The download server sent no data for ${name}.`)

  const file = await open(part, start === 0 ? 'w' : 'a')
  let received = start
  const samples: { at: number; bytes: number }[] = [{ at: Date.now(), bytes: received }]
  let lastReport = 0
  const report = (force: boolean): void => {
    const now = Date.now()
    if (!force && now - lastReport < (request.progressIntervalMs ?? 250)) return
    lastReport = now
    samples.push({ at: now, bytes: received })
    while (samples.length > 2 && (samples[0] as { at: number }).at < now - SPEED_WINDOW_MS) samples.shift()
    const first = samples[0] as { at: number; bytes: number }
    const speed = now > first.at ? ((received - first.bytes) * 1000) / (now - first.at) : 0
    request.onProgress?.({
      phase: 'downloading',
      receivedBytes: received,
      totalBytes: sizeBytes,
      bytesPerSecond: speed,
      secondsLeft: speed > 0 ? (sizeBytes - received) / speed : null
    })
  }
  try {
    const reader = (response.body as ReadableStream<Uint8Array>).getReader()
    for (;;) {
      const chunk = await reader.read()
      if (chunk.done) break
      if (received + chunk.value.byteLength > sizeBytes) {
        await reader.cancel()
        await file.truncate(0)
        return fail(
          'download-failed',
          `The server sent more than the published ${formatBytes(sizeBytes)} for ${name}; the file was discarded.`
        )
      }
      await file.write(chunk.value)
      received += chunk.value.byteLength
      report(false)
    }
    await file.sync()
    report(true)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOSPC')
      return fail(
        'disk-full',
        `The disk filled up while downloading ${name}; the ${formatBytes(received)} received so far are kept. Free some space and resume.`
      )
    if (aborted(signal)) return fail('cancelled', 'The download was stopped.')
    return fail(
      'download-failed',
      `The download of ${name} was interrupted after ${formatBytes(received)} (${causeOf(error)}); resume to continue from there.`
    )
  } finally {
    await file.close().catch(() => undefined)
  }
  if (received < sizeBytes)
    return fail(
      'download-failed',
      `The connection closed after ${formatBytes(received)} of ${formatBytes(sizeBytes)} of ${name}; resume to continue from there.`
    )
  return ok(null)
}

async function hashFile(path: string, total: number, request: DownloadRequest): Promise<string> {
  const hash = createHash('sha256')
  let done = 0
  let last = 0
  for await (const chunk of createReadStream(path, { highWaterMark: 4 * 1024 * 1024 })) {
    if (aborted(request.signal)) break
    hash.update(chunk as Buffer)
    done += (chunk as Buffer).byteLength
    const now = Date.now()
    if (now - last >= (request.progressIntervalMs ?? 250)) {
      last = now
      request.onProgress?.({ phase: 'verifying', receivedBytes: done, totalBytes: total, bytesPerSecond: 0, secondsLeft: null })
    }
  }
  return hash.digest('hex')
}

function causeOf(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error
  const code = typeof cause === 'object' && cause !== null && 'code' in cause ? String(cause.code) : ''
  const message = cause instanceof Error ? cause.message : String(cause)
  return code !== '' && !message.includes(code) ? `${code}: ${message}` : message
}
