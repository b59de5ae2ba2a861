import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ggufBytes, languageModelMetadata } from '../../../../test/support/gguf-writer'
import { describeWithModel, TEST_MODEL_BYTES } from '../../../../test/support/test-model'
import { promptFormOf, readGguf } from './gguf'

const dir = mkdtempSync(join(tmpdir(), 'tableqa-gguf-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function file(name: string, bytes: Buffer | string): string {
  const path = join(dir, name)
  writeFileSync(path, bytes)
  return path
}

function problem(path: string): string {
  const r = readGguf(path)
  if (r.ok) throw new Error(`expected ${path} to be refused`)
  expect(r.error.code).toBe('model-file')
  return r.error.message
}

describe('reading GGUF headers', () => {
  it('reads a well-formed language model: architecture, name, context, tokenizer, and the size it must have', () => {
    const bytes = ggufBytes(languageModelMetadata())
    const r = readGguf(file('ok.gguf', bytes))
    expect(r).toEqual({
      ok: true,
      value: expect.objectContaining({
        version: 3,
        architecture: 'llama',
        name: 'Tiny Test',
        trainContext: 2048,
        hasTokenizer: true,
        hasChatTemplate: false,
        tensorCount: 1,
        expectedBytes: bytes.length
      }) as unknown
    })
    if (r.ok) expect(promptFormOf(r.value)).toBe('completion')
  })

  it('takes a model with a chat template for a chat model', () => {
    const r = readGguf(
      file('chat.gguf', ggufBytes(languageModelMetadata({ 'tokenizer.chat_template': { type: 'string', value: '{{ messages }}' } })))
    )
    expect(r.ok && promptFormOf(r.value)).toBe('chat')
  })

  it('says a missing file does not exist, and a folder is not a model file', () => {
    expect(problem(join(dir, 'nowhere.gguf'))).toMatch(/does not exist/)
    expect(problem(dir)).toMatch(/is a folder/)
  })

  it('refuses a file that is not GGUF, and an older GGUF version', () => {
    expect(problem(file('model.bin', 'PK\u0003\u0004 this is a zip file, not a model at all'))).toMatch(
      /not a GGUF model file \(it does not start with "GGUF"\)/
    )
    expect(problem(file('tiny.gguf', 'GGUF'))).toMatch(/only 4 bytes long/)
    const v1 = ggufBytes(languageModelMetadata())
    v1.writeUInt32LE(1, 4)
    expect(problem(file('v1.gguf', v1))).toMatch(/GGUF version 1/)
  })

  it('refuses a file cut short, in its header or in its tensor data, with the sizes', () => {
    const bytes = ggufBytes(languageModelMetadata(), [{ name: 'w', dims: [64, 64], type: 0 }])
    expect(problem(file('cut-header.gguf', bytes.subarray(0, 60)))).toMatch(/cut short/)
    const cut = bytes.subarray(0, bytes.length - 100)
    expect(problem(file('cut-data.gguf', cut))).toMatch(
      new RegExp(`has ${cut.length.toLocaleString('en-US')} of the ${bytes.length.toLocaleString('en-US')} bytes`)
    )
  })

  it('refuses a damaged header without reading gigabytes', () => {
    const bytes = ggufBytes(languageModelMetadata())
    // The first key's length, made absurd.
    bytes.writeBigUInt64LE(BigInt(2 ** 40), 24)
    expect(problem(file('damaged.gguf', bytes))).toMatch(/damaged: a text field claims/)
  })

  it('refuses GGUF files that are not language models: a projector, a file without a tokenizer, an encoder', () => {
    const mmproj = ggufBytes(
      languageModelMetadata({
        'general.type': { type: 'string', value: 'mmproj' },
        'general.architecture': { type: 'string', value: 'clip' }
      })
    )
    expect(problem(file('mmproj.gguf', mmproj))).toMatch(/GGUF "mmproj" file \(clip\), not a language model/)
    const meta = languageModelMetadata()
    delete meta['tokenizer.ggml.model']
    expect(problem(file('no-tokenizer.gguf', ggufBytes(meta)))).toMatch(/has no tokenizer/)
    const bert = ggufBytes({
      ...languageModelMetadata({ 'general.architecture': { type: 'string', value: 'bert' } }),
      'bert.attention.causal': { type: 'bool', value: false }
    })
    expect(problem(file('bert.gguf', bert))).toMatch(/encoder \(embedding\) model/)
  })
})

describeWithModel('reading the test model', (model) => {
  it('reads SmolLM2 as a chat model whose tensors fill the file exactly', () => {
    const r = readGguf(model)
    expect(r.ok && r.value).toMatchObject({
      architecture: 'llama',
      hasChatTemplate: true,
      trainContext: 8192,
      fileBytes: TEST_MODEL_BYTES,
      expectedBytes: TEST_MODEL_BYTES
    })
  })

  it('finds the real model cut short by one byte', () => {
    const cut = file('smol-cut.gguf', readFileSync(model).subarray(0, TEST_MODEL_BYTES - 1))
    expect(problem(cut)).toMatch(/is cut short: it has 98,362,431 of the 98,362,432 bytes/)
  })
})
