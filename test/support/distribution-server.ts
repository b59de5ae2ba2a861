/**
 * A real HTTP server on 127.0.0.1 serving a folder as a Pyodide distribution does (files by name under one
 * base path), with HTTP Range, and faults on demand per file: cut connections, silence, error statuses,
 * altered bytes, slow trickles. Every request is recorded.
 */

import { readFileSync, existsSync } from 'node:fs'
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { basename, join } from 'node:path'

export type DistributionFault =
  /** Send the headers and `afterBytes` bytes of the body, then destroy the connection. */
  | { kind: 'cut'; afterBytes: number }
  /** Accept the request and never answer. */
  | { kind: 'hang' }
  /** Send the headers and `afterBytes` bytes, then nothing more (the connection stays open). */
  | { kind: 'stall'; afterBytes: number }
  | { kind: 'status'; status: number }
  /** The file with one byte changed (same length). */
  | { kind: 'tamper' }
  /** The file in pieces of `bytes`, one every `everyMs` (a slow link); `hurry()` sends the rest at once. */
  | { kind: 'trickle'; bytes: number; everyMs: number }

export type DistributionRequest = { path: string; file: string; range: string | null }

export type DistributionServer = {
  /** Base URL of the distribution folder, with a trailing slash. */
  url: string
  requests: DistributionRequest[]
  /** Apply `fault` to the next `times` requests for `file` (default: every request). */
  fault(file: string, fault: DistributionFault, times?: number): void
  clearFaults(): void
  /** Send what is left of every trickling response at once. */
  hurry(): void
  /** Answer 200 with the whole file even when a range is asked for. */
  ignoreRange(yes: boolean): void
  close(): Promise<void>
}

export async function startDistributionServer(dir: string, basePath = '/pyodide/v0/full/'): Promise<DistributionServer> {
  const faults = new Map<string, { fault: DistributionFault; left: number }>()
  const requests: DistributionRequest[] = []
  const sockets = new Set<Socket>()
  const timers = new Set<ReturnType<typeof setInterval>>()
  const trickling = new Set<() => void>()
  let rangesIgnored = false

  const takeFault = (file: string): DistributionFault | null => {
    const entry = faults.get(file)
    if (!entry) return null
    entry.left -= 1
    if (entry.left <= 0) faults.delete(file)
    return entry.fault
  }

  const server = createServer((request, response) => {
    const path = decodeURIComponent((request.url ?? '/').split('?')[0] ?? '/')
    const file = path.startsWith(basePath) ? path.slice(basePath.length) : ''
    const range = typeof request.headers.range === 'string' ? request.headers.range : null
    requests.push({ path, file, range })
    const full = join(dir, basename(file))
    if (file === '' || file.includes('/') || !existsSync(full)) return void response.writeHead(404).end('not found')
    const fault = takeFault(file)
    if (fault?.kind === 'hang') return
    if (fault?.kind === 'status') return void response.writeHead(fault.status).end(`status ${fault.status}`)
    let bytes = readFileSync(full)
    if (fault?.kind === 'tamper') {
      bytes = Buffer.from(bytes)
      bytes[bytes.length >> 1] = (bytes[bytes.length >> 1] ?? 0) ^ 0xff
    }
    let start = 0
    const asked = rangesIgnored ? null : /^bytes=(\d+)-$/.exec(range ?? '')
    if (asked) {
      start = Number(asked[1])
      if (start >= bytes.length) {
        return void response.writeHead(416, { 'content-range': `bytes */${bytes.length}` }).end()
      }
      response.writeHead(206, {
        'content-type': 'application/zip',
        'content-length': bytes.length - start,
        'content-range': `bytes ${start}-${bytes.length - 1}/${bytes.length}`
      })
    } else {
      response.writeHead(200, { 'content-type': 'application/zip', 'content-length': bytes.length, 'accept-ranges': 'bytes' })
    }
    send(response, bytes.subarray(start), fault)
  })

  const send = (response: ServerResponse, body: Buffer, fault: DistributionFault | null): void => {
    if (fault?.kind === 'cut') {
      response.write(body.subarray(0, fault.afterBytes), () => response.destroy())
      return
    }
    if (fault?.kind === 'stall') {
      response.write(body.subarray(0, fault.afterBytes))
      return
    }
    if (fault?.kind === 'trickle') {
      let at = 0
      const finish = (): void => {
        clearInterval(timer)
        timers.delete(timer)
        trickling.delete(finish)
        if (!response.destroyed) response.end(body.subarray(at))
        at = body.length
      }
      const timer = setInterval(() => {
        if (response.destroyed) return finish()
        const piece = body.subarray(at, at + fault.bytes)
        at += piece.length
        if (at >= body.length) {
          at -= piece.length
          finish()
        } else response.write(piece)
      }, fault.everyMs)
      timers.add(timer)
      trickling.add(finish)
      return
    }
    response.end(body)
  }

  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}${basePath}`,
    requests,
    fault: (file, fault, times = Number.POSITIVE_INFINITY) => void faults.set(file, { fault, left: times }),
    clearFaults: () => faults.clear(),
    hurry: () => {
      for (const finish of [...trickling]) finish()
    },
    ignoreRange: (yes) => {
      rangesIgnored = yes
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearInterval(timer)
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      })
  }
}
