/**
 * A local HTTP server that serves one model file as a download host does: Content-Length, range
 * requests (206), and faults on demand: a connection dropped after some bytes, a range ignored (200),
 * a byte changed (the checksum then fails), slow chunks (to pause in the middle).
 */
import { createReadStream, statSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export type ServeMode = {
  /** Close the connection after this many bytes of the body (once; the next request is served whole). */
  dropAfterBytes?: number
  ignoreRange?: boolean
  /** Flip this byte of the file in what is sent. */
  corruptByte?: number
  /** Wait this long between 256 KB chunks. */
  chunkDelayMs?: number
  status?: number
}

export type ModelFileServer = {
  url: string
  requests: { range: string | null }[]
  mode: ServeMode
  close(): Promise<void>
}

const CHUNK = 256 * 1024

export async function startModelFileServer(file: string, mode: ServeMode = {}): Promise<ModelFileServer> {
  const size = statSync(file).size
  const requests: ModelFileServer['requests'] = []
  const state: ModelFileServer = { url: '', requests, mode, close: () => Promise.resolve() }
  const server: Server = createServer((request, response) => {
    const range = request.headers.range ?? null
    requests.push({ range })
    const m = state.mode
    if (m.status !== undefined) {
      response.writeHead(m.status).end('no')
      return
    }
    const match = /^bytes=(\d+)-$/.exec(range ?? '')
    const start = match !== null && m.ignoreRange !== true ? Number(match[1]) : 0
    if (start >= size) {
      response.writeHead(416, { 'content-range': `bytes */${size}` }).end()
      return
    }
    const headers: Record<string, string> = {
      'content-type': 'application/octet-stream',
      'content-length': String(size - start),
      'accept-ranges': 'bytes'
    }
    if (start > 0) headers['content-range'] = `bytes ${start}-${size - 1}/${size}`
    response.writeHead(start > 0 ? 206 : 200, headers)
    const drop = m.dropAfterBytes
    if (drop !== undefined) delete m.dropAfterBytes
    let sent = 0
    let position = start
    const stream = createReadStream(file, { start, highWaterMark: CHUNK })
    stream.on('data', (data) => {
      const chunk = Buffer.from(data as Buffer)
      if (m.corruptByte !== undefined && m.corruptByte >= position && m.corruptByte < position + chunk.length)
        chunk[m.corruptByte - position] = (chunk[m.corruptByte - position] ?? 0) ^ 0xff
      position += chunk.length
      if (drop !== undefined && sent + chunk.length >= drop) {
        stream.destroy()
        response.write(chunk.subarray(0, drop - sent), () => response.socket?.destroy())
        return
      }
      sent += chunk.length
      const more = response.write(chunk)
      if (m.chunkDelayMs !== undefined) {
        stream.pause()
        setTimeout(() => stream.resume(), m.chunkDelayMs)
      } else if (!more) {
        stream.pause()
        response.once('drain', () => stream.resume())
      }
    })
    stream.on('end', () => response.end())
    response.on('close', () => stream.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/model.gguf`
  state.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  return state
}
