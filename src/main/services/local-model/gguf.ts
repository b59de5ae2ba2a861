/**
 * Reads the header of a GGUF file (llama.cpp's model format) without loading the model: the metadata
 * the app shows and decides on (name, architecture, chat template, context), and the tensor table, from
 * which the size the file must have follows, so a file cut short is refused before the engine sees it.
 * Format: magic "GGUF", version, tensor and key/value counts, the key/values, the tensor infos, then the
 * tensor data from the next multiple of `general.alignment` (32 by default).
 */

import { closeSync, fstatSync, openSync, readSync } from 'node:fs'
import { basename } from 'node:path'
import type { PromptForm } from '../../../shared/local-model'
import { fail, ok, type Result } from '../../../shared/result'

/** What the header says about the model. */
export type GgufSummary = {
  version: number
  fileBytes: number
  architecture: string
  /** `general.name`, else the file name without `.gguf`. */
  name: string
  /** `general.type` when given ("model", "adapter", "mmproj", …). */
  type: string | null
  hasTokenizer: boolean
  hasChatTemplate: boolean
  /** Tokens the model was trained for (`<arch>.context_length`). */
  trainContext: number | null
  tensorCount: number
  /** The size the file must have to hold every tensor; null when a tensor type is unknown to this reader. */
  expectedBytes: number | null
}

/** Bytes per block and elements per block of each ggml tensor type (ggml.h numbering). */
const TYPE_SIZES: Record<number, [blockElements: number, blockBytes: number]> = {
  0: [1, 4], // F32
  1: [1, 2], // F16
  2: [32, 18], // Q4_0
  3: [32, 20], // Q4_1
  6: [32, 22], // Q5_0
  7: [32, 24], // Q5_1
  8: [32, 34], // Q8_0
  9: [32, 36], // Q8_1
  10: [256, 84], // Q2_K
  11: [256, 110], // Q3_K
  12: [256, 144], // Q4_K
  13: [256, 176], // Q5_K
  14: [256, 210], // Q6_K
  15: [256, 292], // Q8_K
  16: [256, 66], // IQ2_XXS
  17: [256, 74], // IQ2_XS
  18: [256, 98], // IQ3_XXS
  19: [256, 50], // IQ1_S
  20: [32, 18], // IQ4_NL
  21: [256, 110], // IQ3_S
  22: [256, 82], // IQ2_S
  23: [256, 136], // IQ4_XS
  24: [1, 1], // I8
  25: [1, 2], // I16
  26: [1, 4], // I32
  27: [1, 8], // I64
  28: [1, 8], // F64
  29: [256, 56], // IQ1_M
  30: [1, 2], // BF16
  34: [256, 54], // TQ1_0
  35: [256, 66], // TQ2_0
  39: [32, 17] // MXFP4
}

// Limits against a damaged header: no real model comes near them, and they keep a bad length from
// allocating gigabytes.
const MAX_STRING = 64 * 1024 * 1024
const MAX_COUNT = 10_000_000
const MAX_DIMS = 8

class HeaderError extends Error {}

/** A forward-only reader over a file descriptor with a small buffer. */
class Reader {
  private buffer = Buffer.alloc(1 << 20)
  private start = 0
  private end = 0
  position = 0

  constructor(
    private readonly fd: number,
    readonly size: number
  ) {}

  private fill(need: number): void {
    if (this.position + need > this.size) throw new HeaderError('cut')
    if (this.position >= this.start && this.position + need <= this.end) return
    if (need > this.buffer.length) this.buffer = Buffer.alloc(need)
    const read = readSync(this.fd, this.buffer, 0, this.buffer.length, this.position)
    this.start = this.position
    this.end = this.position + read
    if (this.position + need > this.end) throw new HeaderError('cut')
  }

  private at(need: number): number {
    this.fill(need)
    const offset = this.position - this.start
    this.position += need
    return offset
  }

  u8(): number {
    return this.buffer.readUInt8(this.at(1))
  }
  u32(): number {
    return this.buffer.readUInt32LE(this.at(4))
  }
  i32(): number {
    return this.buffer.readInt32LE(this.at(4))
  }
  u64(): number {
    const value = this.buffer.readBigUInt64LE(this.at(8))
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new HeaderError('a count or size is impossibly large')
    return Number(value)
  }
  f32(): number {
    return this.buffer.readFloatLE(this.at(4))
  }
  string(): string {
    const length = this.u64()
    if (length > MAX_STRING) throw new HeaderError(`a text field claims ${length} bytes`)
    if (length > this.buffer.length) {
      const big = Buffer.alloc(length)
      if (this.position + length > this.size) throw new HeaderError('cut')
      readSync(this.fd, big, 0, length, this.position)
      this.position += length
      return big.toString('utf8')
    }
    const offset = this.at(length)
    return this.buffer.toString('utf8', offset, offset + length)
  }
  skip(bytes: number): void {
    if (this.position + bytes > this.size) throw new HeaderError('cut')
    this.position += bytes
  }
}

type Value = string | number | boolean | bigint | null

const SCALAR_BYTES: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 }

/** Reads one value; arrays are skipped (the tokenizer's vocabulary is one) and reported by their length. */
function readValue(r: Reader, type: number): Value {
  switch (type) {
    case 0:
      return r.u8()
    case 4:
      return r.u32()
    case 5:
      return r.i32()
    case 6:
      return r.f32()
    case 7:
      return r.u8() !== 0
    case 8:
      return r.string()
    case 10:
      return r.u64()
    case 9: {
      const itemType = r.u32()
      const count = r.u64()
      if (count > MAX_COUNT) throw new HeaderError(`an array claims ${count} items`)
      if (itemType === 8) for (let i = 0; i < count; i += 1) r.skip(r.u64())
      else if (SCALAR_BYTES[itemType] !== undefined) r.skip(count * SCALAR_BYTES[itemType])
      else throw new HeaderError(`an array has items of unknown type ${itemType}`)
      return count
    }
    default: {
      const bytes = SCALAR_BYTES[type]
      if (bytes === undefined) throw new HeaderError(`a value has unknown type ${type}`)
      r.skip(bytes)
      return null
    }
  }
}

/** Reads and checks the header of `path`. Errors say what is wrong in words a user can act on. */
export function readGguf(path: string): Result<GgufSummary> {
  let fd: number
  try {
    fd = openSync(path, 'r')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return fail('model-file', `The model file ${path} does not exist (moved or deleted?).`)
    if (code === 'EISDIR') return fail('model-file', `${path} is a folder, not a GGUF model file.`)
    return fail('model-file', `The model file ${path} cannot be read (${code ?? String(error)}).`)
  }
  const file = basename(path)
  try {
    const stats = fstatSync(fd)
    if (stats.isDirectory()) return fail('model-file', `${path} is a folder, not a GGUF model file.`)
    const size = stats.size
    const r = new Reader(fd, size)
    if (size < 24) return fail('model-file', `${file} is not a GGUF model file (it is only ${size} bytes long).`)
    const magic = [r.u8(), r.u8(), r.u8(), r.u8()]
    if (String.fromCharCode(...magic) !== 'GGUF')
      return fail(
        'model-file',
        `${file} is not a GGUF model file (it does not start with "GGUF"). The built-in engine runs GGUF models only.`
      )
    const version = r.u32()
    if (version < 2 || version > 3)
      return fail(
        'model-file',
        `${file} is GGUF version ${version}; this engine reads versions 2 and 3. Convert it again with a recent llama.cpp.`
      )
    const tensorCount = r.u64()
    const kvCount = r.u64()
    if (tensorCount > MAX_COUNT || kvCount > MAX_COUNT) throw new HeaderError('the header counts are impossibly large')
    const meta = new Map<string, Value>()
    for (let i = 0; i < kvCount; i += 1) {
      const key = r.string()
      meta.set(key, readValue(r, r.u32()))
    }
    let dataEnd = 0
    let known = true
    for (let i = 0; i < tensorCount; i += 1) {
      r.string()
      const dims = r.u32()
      if (dims > MAX_DIMS) throw new HeaderError(`a tensor claims ${dims} dimensions`)
      let elements = 1
      for (let d = 0; d < dims; d += 1) elements *= r.u64()
      const type = r.u32()
      const offset = r.u64()
      const sizes = TYPE_SIZES[type]
      if (sizes === undefined) known = false
      else dataEnd = Math.max(dataEnd, offset + Math.ceil(elements / sizes[0]) * sizes[1])
    }
    const alignment = typeof meta.get('general.alignment') === 'number' ? (meta.get('general.alignment') as number) : 32
    const dataStart = Math.ceil(r.position / alignment) * alignment
    const architecture = typeof meta.get('general.architecture') === 'string' ? (meta.get('general.architecture') as string) : ''
    const context = meta.get(`${architecture}.context_length`)
    const name = meta.get('general.name')
    const summary: GgufSummary = {
      version,
      fileBytes: size,
      architecture,
      name: typeof name === 'string' && name.trim() !== '' ? name.trim() : file.replace(/\.gguf$/i, ''),
      type: typeof meta.get('general.type') === 'string' ? (meta.get('general.type') as string) : null,
      hasTokenizer: meta.has('tokenizer.ggml.model'),
      hasChatTemplate: typeof meta.get('tokenizer.chat_template') === 'string',
      trainContext: typeof context === 'number' && context > 0 ? context : null,
      tensorCount,
      expectedBytes: known ? dataStart + dataEnd : null
    }
    const problem = languageModelProblem(summary, meta.get(`${architecture}.attention.causal`))
    return problem === null ? ok(summary) : fail('model-file', `${file} ${problem}`)
  } catch (error) {
    if (error instanceof HeaderError) {
      return error.message === 'cut'
        ? fail('model-file', `${file} is cut short: its header ends before the file does what it says (an interrupted download?).`)
        : fail('model-file', `${file} is damaged: ${error.message}. Download it again.`)
    }
    return fail('model-file', `${file} cannot be read: ${error instanceof Error ? error.message : String(error)}`)
  } finally {
    closeSync(fd)
  }
}

/** Why a well-formed GGUF cannot answer questions, or null when it can. */
function languageModelProblem(s: GgufSummary, causal: Value | undefined): string | null {
  if (s.architecture === '') return 'names no architecture (general.architecture), so it is not a model llama.cpp can run.'
  if (s.type !== null && s.type !== 'model')
    return `is a GGUF "${s.type}" file (${s.architecture}), not a language model: it cannot write text on its own.`
  if (!s.hasTokenizer)
    return `(${s.architecture}) has no tokenizer, so it is not a language model that writes text (a vision projector or part of a model?).`
  if (causal === false) return `(${s.architecture}) is an encoder (embedding) model: it reads text but does not write it.`
  if (s.tensorCount === 0) return 'holds no tensors: it has a header but no model weights.'
  if (s.expectedBytes !== null && s.fileBytes < s.expectedBytes)
    return `is cut short: it has ${s.fileBytes.toLocaleString('en-US')} of the ${s.expectedBytes.toLocaleString('en-US')} bytes its header describes (an interrupted download or copy?).`
  return null
}

/** How the model is prompted: through its chat template when it has one, else as text to continue. */
export function promptFormOf(s: GgufSummary): PromptForm {
  return s.hasChatTemplate ? 'chat' : 'completion'
}
