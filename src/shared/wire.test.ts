import { describe, expect, it } from 'vitest'
import { decodeWire, encodeWire } from './wire'

describe('wire encoding', () => {
  it('round-trips JSON values and byte arrays without base64', () => {
    const bytes = new Uint8Array([0, 1, 2, 255, 128])
    const message = { name: 'a.csv', bytes, nested: [{ more: new Uint8Array([7]) }], n: 3, s: 'é' }
    const encoded = encodeWire(message)
    expect(encoded.byteLength).toBeLessThan(JSON.stringify(message).length + 64)
    expect(decodeWire(encoded)).toEqual(message)
  })

  it('rejects truncated messages and references past the end', () => {
    const encoded = encodeWire({ bytes: new Uint8Array(10) })
    expect(() => decodeWire(encoded.subarray(0, 3))).toThrow(/too short/)
    expect(() => decodeWire(encoded.subarray(0, encoded.byteLength - 5))).toThrow(/out of range/)
  })
})
