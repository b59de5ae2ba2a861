/**
 * What the log-probabilities of sampled tokens cost, measured on the bench's model (part of
 * `npm run bench -- model`). The engine takes each sampled token's probability from the sampler
 * (`evaluateWithMetadata(..., {confidence: true})`); the alternative, a scoring pass that asks for the
 * whole vocabulary's probabilities at each sampled token (`controlledEvaluate` with
 * `generateNext.probabilities`), gives the raw model probabilities. This runs in the bench's own process,
 * never in the app.
 */
import type { Token } from 'node-llama-cpp'

export type LogprobCost = {
  vocabulary: number
  tokens: number
  /** Sampling `tokens` tokens without and with each token's confidence. */
  sampleMs: number
  sampleWithConfidenceMs: number
  /** A scoring pass over the same tokens with the full probability list at each. */
  scoringPassMs: number
}

const PROMPT = 'Write a Python function that returns the sum of the squares of a list of numbers.\n\n```python\n'

export async function measureLogprobCost(file: string, threads: number, tokens = 200): Promise<LogprobCost> {
  const lib = await import('node-llama-cpp')
  const llama = await lib.getLlama({
    gpu: false,
    build: 'never',
    maxThreads: threads,
    logLevel: lib.LlamaLogLevel.error,
    progressLogs: false
  })
  const model = await llama.loadModel({ modelPath: file, gpuLayers: 0 })
  const context = await model.createContext({ contextSize: 1024, threads, sequences: 1 })
  try {
    const sequence = context.getSequence()
    const prompt = model.tokenize(PROMPT)
    const sample = async (confidence: boolean): Promise<{ ms: number; out: Token[] }> => {
      await sequence.clearHistory()
      await sequence.evaluateWithoutGeneratingNewTokens(prompt.slice(0, -1))
      const started = Date.now()
      const out: Token[] = []
      // A fixed seed: both runs draw the same tokens, so they differ only in what is reported.
      const sampling = { temperature: 0.7, topK: 0, topP: 1, minP: 0, seed: 7 }
      for await (const next of sequence.evaluateWithMetadata(prompt.slice(-1), { confidence }, sampling)) {
        out.push(next.token)
        if (out.length >= tokens) break
      }
      return { ms: Date.now() - started, out }
    }
    const plain = await sample(false)
    const withConfidence = await sample(true)

    await sequence.clearHistory()
    await sequence.evaluateWithoutGeneratingNewTokens(prompt.slice(0, -1))
    const items = [prompt[prompt.length - 1] as Token, ...withConfidence.out.slice(0, -1)].map(
      (token): [Token, { generateNext: { probabilities: true } }] => [token, { generateNext: { probabilities: true } }]
    )
    const started = Date.now()
    await sequence.controlledEvaluate(items)
    const scoringPassMs = Date.now() - started
    return {
      vocabulary: model.fileInfo.metadata.tokenizer.ggml.tokens.length,
      tokens: withConfidence.out.length,
      sampleMs: plain.ms,
      sampleWithConfidenceMs: withConfidence.ms,
      scoringPassMs
    }
  } finally {
    await context.dispose()
    await model.dispose()
    await llama.dispose()
  }
}
