/** Writes small GGUF files for tests: a header with the given metadata and tensors, then their data. */

type Value =
  | { type: 'string'; value: string }
  | { type: 'u32'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'strings'; value: string[] }

export type FakeTensor = { name: string; dims: number[]; type: number }

function str(s: string): Buffer {
  const bytes = Buffer.from(s, 'utf8')
  const len = Buffer.alloc(8)
  len.writeBigUInt64LE(BigInt(bytes.length))
  return Buffer.concat([len, bytes])
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4)
  b.writeUInt32LE(n)
  return b
}

function u64(n: number): Buffer {
  const b = Buffer.alloc(8)
  b.writeBigUInt64LE(BigInt(n))
  return b
}

function value(v: Value): Buffer {
  switch (v.type) {
    case 'string':
      return Buffer.concat([u32(8), str(v.value)])
    case 'u32':
      return Buffer.concat([u32(4), u32(v.value)])
    case 'bool':
      return Buffer.concat([u32(7), Buffer.from([v.value ? 1 : 0])])
    case 'strings':
      return Buffer.concat([u32(9), u32(8), u64(v.value.length), ...v.value.map(str)])
  }
}

/** F32 tensors take 4 bytes an element; the data section is padded to 32 bytes as llama.cpp writes it. */
export function ggufBytes(metadata: Record<string, Value>, tensors: FakeTensor[] = [{ name: 'w', dims: [8, 4], type: 0 }]): Buffer {
  const parts: Buffer[] = [Buffer.from('GGUF'), u32(3), u64(tensors.length), u64(Object.keys(metadata).length)]
  for (const [key, v] of Object.entries(metadata)) parts.push(str(key), value(v))
  let offset = 0
  const sizes: number[] = []
  for (const t of tensors) {
    const elements = t.dims.reduce((a, b) => a * b, 1)
    parts.push(str(t.name), u32(t.dims.length), ...t.dims.map(u64), u32(t.type), u64(offset))
    const size = elements * 4
    sizes.push(size)
    offset += Math.ceil(size / 32) * 32
  }
  const header = Buffer.concat(parts)
  const pad = Buffer.alloc(Math.ceil(header.length / 32) * 32 - header.length)
  return Buffer.concat([header, pad, Buffer.alloc(offset)])
}

/** Metadata of a minimal llama-style language model. */
export function languageModelMetadata(extra: Record<string, Value> = {}): Record<string, Value> {
  return {
    'general.architecture': { type: 'string', value: 'llama' },
    'general.name': { type: 'string', value: 'Tiny Test' },
    'general.type': { type: 'string', value: 'model' },
    'llama.context_length': { type: 'u32', value: 2048 },
    'tokenizer.ggml.model': { type: 'string', value: 'gpt2' },
    'tokenizer.ggml.tokens': { type: 'strings', value: ['a', 'b', 'c'] },
    ...extra
  }
}
