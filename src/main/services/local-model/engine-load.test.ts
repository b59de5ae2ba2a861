import { describe, expect, it } from 'vitest'
import { describeWithModel } from '../../../../test/support/test-model'
import { serializeSampling, withBackend } from './engine-load'

type FakeLlama = { gpu: string | false }

/** llama.cpp bindings as a stand-in: 'auto' finds `auto` (a GPU, none, or a failure), 'cpu' always works. */
const bindings =
  (auto: FakeLlama | Error, asked: string[] = []) =>
  (choice: 'auto' | 'cpu'): Promise<FakeLlama> => {
    asked.push(choice)
    if (choice === 'cpu') return Promise.resolve({ gpu: false })
    return auto instanceof Error ? Promise.reject(auto) : Promise.resolve(auto)
  }

describe('choosing where the model runs', () => {
  it('runs on the GPU node-llama-cpp finds, with nothing to say', async () => {
    const run = await withBackend('auto', bindings({ gpu: 'metal' }), (l) => Promise.resolve(l.gpu))
    expect(run).toMatchObject({ value: 'metal', note: null })
  })

  it('runs on the CPU with a line saying no usable GPU was found', async () => {
    const asked: string[] = []
    const run = await withBackend('auto', bindings({ gpu: false }, asked), (l) => Promise.resolve(l.gpu))
    expect(run.value).toBe(false)
    expect(run.note).toBe('No usable GPU was found (Metal, CUDA or Vulkan); the model runs on the CPU.')
    // The CPU bindings 'auto' fell back to are used as they are.
    expect(asked).toEqual(['auto'])
  })

  it('falls back to the CPU when the GPU cannot be started, or cannot hold the model, and says why', async () => {
    const failed = await withBackend('auto', bindings(new Error('CUDA driver too old')), (l) => Promise.resolve(l.gpu))
    expect(failed).toMatchObject({ value: false, note: 'The GPU could not be started (CUDA driver too old); the model runs on the CPU.' })
    const tried: (string | false)[] = []
    const full = await withBackend('auto', bindings({ gpu: 'vulkan' }), (l) => {
      tried.push(l.gpu)
      return l.gpu === false ? Promise.resolve('cpu') : Promise.reject(new Error('out of device memory'))
    })
    expect(tried).toEqual(['vulkan', false])
    expect(full).toMatchObject({
      value: 'cpu',
      note: 'The GPU (vulkan) could not hold the model (out of device memory); it runs on the CPU.'
    })
  })

  it('never asks for a GPU when the CPU is chosen', async () => {
    const asked: string[] = []
    const run = await withBackend('cpu', bindings({ gpu: 'cuda' }, asked), (l) => Promise.resolve(l.gpu))
    expect(asked).toEqual(['cpu'])
    expect(run).toMatchObject({ value: false, note: null })
  })

  it('lets a failure on the CPU through: there is nothing left to fall back to', async () => {
    await expect(withBackend('auto', bindings({ gpu: false }), () => Promise.reject(new Error('bad file')))).rejects.toThrow('bad file')
  })
})

describeWithModel('sampling several sequences side by side, on the real test model', (model) => {
  it('samples drawn side by side are those drawn one at a time: no token of one sequence reaches another', async () => {
    const lib = await import('node-llama-cpp')
    const llama = await lib.getLlama({ gpu: false, build: 'never', maxThreads: 1, logLevel: lib.LlamaLogLevel.error })
    const loaded = await llama.loadModel({ modelPath: model })
    const context = await loaded.createContext({ contextSize: 512, sequences: 4, threads: 1 })
    serializeSampling(context)
    try {
      const sequences = [0, 1, 2, 3].map(() => context.getSequence())
      const prompt = loaded.tokenize(
        '<|im_start|>user\nWrite a short Python program that counts the words of a text.<|im_end|>\n<|im_start|>assistant\n',
        true
      )
      const draw = async (sequence: (typeof sequences)[number]): Promise<string> => {
        const tokens: number[] = []
        for await (const t of sequence.evaluate([prompt[prompt.length - 1] as number] as never, {
          temperature: 1.2,
          seed: 42,
          topK: 0,
          topP: 1,
          minP: 0
        })) {
          tokens.push(t)
          if (tokens.length >= 40) break
        }
        return loaded.detokenize(tokens as never)
      }
      for (const s of sequences) await s.evaluateWithoutGeneratingNewTokens(prompt.slice(0, -1))
      // The same prompt and seed in every sequence: every sample must be the same text.
      const side = await Promise.all(sequences.map(draw))
      expect(new Set(side).size).toBe(1)
      expect((side[0] ?? '').length).toBeGreaterThan(20)
    } finally {
      await context.dispose()
      await loaded.dispose()
    }
  })
})
