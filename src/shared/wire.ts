/**
 * Binary-safe encoding of contract messages for browser mode's HTTP transport.
 * JSON cannot carry Uint8Array, and base64 would inflate a 50 MB file by a third, so byte arrays
 * travel after the JSON: [u32 JSON length][JSON][bytes...], each array replaced by {"$bytes":[offset,length]}.
 */

const MARK = '$bytes'

export function encodeWire(value: unknown): Uint8Array<ArrayBuffer> {
  const blobs: Uint8Array[] = []
  let offset = 0
  const json = JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof Uint8Array) {
      const ref = { [MARK]: [offset, v.byteLength] }
      blobs.push(v)
      offset += v.byteLength
      return ref
    }
    return v
  })
  const head = new TextEncoder().encode(json ?? 'null')
  const out = new Uint8Array(4 + head.byteLength + offset)
  new DataView(out.buffer).setUint32(0, head.byteLength)
  out.set(head, 4)
  let at = 4 + head.byteLength
  for (const blob of blobs) {
    out.set(blob, at)
    at += blob.byteLength
  }
  return out
}

export function decodeWire(bytes: Uint8Array): unknown {
  if (bytes.byteLength < 4) throw new Error('wire message too short')
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const headLength = view.getUint32(0)
  if (4 + headLength > bytes.byteLength) throw new Error('wire message truncated')
  const body = bytes.subarray(4 + headLength)
  const json = new TextDecoder().decode(bytes.subarray(4, 4 + headLength))
  // The reviver costs 2–3× on large row blocks; without byte arrays there is nothing to revive.
  if (!json.includes(`"${MARK}"`)) return JSON.parse(json)
  return JSON.parse(json, (_key, v: unknown) => {
    if (isBytesRef(v)) {
      const [start, length] = v[MARK]
      if (start < 0 || start + length > body.byteLength) throw new Error('wire byte reference out of range')
      return body.slice(start, start + length)
    }
    return v
  })
}

function isBytesRef(v: unknown): v is { [MARK]: [number, number] } {
  if (typeof v !== 'object' || v === null || !(MARK in v)) return false
  const ref = (v as Record<string, unknown>)[MARK]
  return Array.isArray(ref) && ref.length === 2 && ref.every((n) => Number.isInteger(n))
}
