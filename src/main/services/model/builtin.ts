/**
 * The `builtin` endpoint kind behind ModelClient: the same sampling contract as the HTTP endpoints (n,
 * temperature, max tokens, stop strings, progress, cancellation, log-probabilities), answered by the
 * app's own engine process instead of a server.
 */

import { basename } from 'node:path'
import type { EndpointConfig, EnginePrefixStats, Sample } from '../../../shared/model'
import { fail, ok, type Result } from '../../../shared/result'
import type { EngineHost } from '../local-model/engine-host'
import type { EngineInput, EngineModelSpec } from '../local-model/engine-protocol'
import { readGguf } from '../local-model/gguf'
import { formatBytes, threadsFor } from '../local-model/hardware'
import { DEFAULT_CONTEXT } from '../local-model/models'
import type { ConnectionReport, SampleRequest } from './endpoint'

export type BuiltinBackend = {
  host: EngineHost
  /**
   * Folder where the engine keeps the evaluated fixed part of prompts between starts
   * (`<data folder>/engine-cache`); absent: in memory only.
   */
  stateDir?: string
  /** Memory the engine may count as free (tests); absent: what the system says. */
  memoryLimitBytes?: number
  /** Seed of the first sample (sample i uses seed + i); random when absent. Tests fix it to sample the same tokens each run. */
  seed?: number
}

const NO_MODEL =
  'The built-in model has no model file yet: download one from the welcome screen, or choose a GGUF file you already have in Settings › Endpoints.'

function modelFile(config: EndpointConfig): Result<string> {
  const file = config.builtin?.modelFile ?? null
  if (file === null || file === '') return fail('model-not-found', NO_MODEL)
  const header = readGguf(file)
  return header.ok ? ok(file) : header
}

/** Whether the model file is there and readable as a language model; no engine is started. */
export function builtinConnection(config: EndpointConfig): Result<ConnectionReport> {
  const file = config.builtin?.modelFile ?? null
  if (file === null || file === '') return fail('model-not-found', NO_MODEL)
  const header = readGguf(file)
  if (!header.ok) return header
  return ok({
    models: [config.model],
    modelListed: true,
    message: `Ready: ${config.model} (${formatBytes(header.value.fileBytes)}, ${basename(file)}) runs on this computer.`
  })
}

export async function sampleBuiltin(
  config: EndpointConfig,
  backend: BuiltinBackend | undefined,
  request: SampleRequest
): Promise<Result<Sample[]>> {
  if (backend === undefined) return fail('model-unreachable', 'The built-in model is not available in this program.')
  const file = modelFile(config)
  if (!file.ok) return file
  const input = engineInput(config, request)
  const timeout = AbortSignal.timeout(config.timeoutMs)
  const signal = request.signal === undefined ? timeout : AbortSignal.any([request.signal, timeout])
  let done = 0
  const result = await backend.host.generate({
    model: engineSpec(config, backend, file.value),
    input,
    n: request.n,
    temperature: request.temperature,
    maxTokens: request.maxTokens,
    stop: request.stop ?? [],
    signal,
    ...(backend.seed === undefined ? {} : { seed: backend.seed }),
    onLoad: (fraction) => request.onProgress?.({ kind: 'load', fraction }),
    onQueued: (ahead) => request.onProgress?.({ kind: 'queued', ahead }),
    onPrompt: (done, total) => request.onProgress?.({ kind: 'prompt', done, total }),
    onSample: (index, sample) => {
      done += 1
      request.onProgress?.({ kind: 'sample', done, total: request.n })
      request.onSample?.(index, sample)
    }
  })
  if (!result.ok && timeout.aborted && request.signal?.aborted !== true)
    return fail('model-timeout', `The built-in model did not finish within ${Math.round(config.timeoutMs / 1000)} s.`)
  if (!result.ok) return result
  const { stats, model, loadMs } = result.value
  request.onEngineStats?.({
    backend: model.backend,
    loadMs,
    promptTokens: stats.promptTokens,
    promptEvaluatedTokens: stats.promptEvaluatedTokens,
    promptMs: stats.promptMs,
    prefix: stats.prefix,
    sequences: stats.sequences,
    copyMs: stats.copyMs,
    samples: stats.samples,
    generatedTokens: stats.generatedTokens,
    generateMs: stats.generateMs
  })
  return ok(result.value.samples)
}

/** Reads the fixed part of a prompt into the engine ahead of the first question (see ModelClient.warm). */
export async function warmBuiltin(
  config: EndpointConfig,
  backend: BuiltinBackend | undefined,
  request: Pick<SampleRequest, 'prompt' | 'messages' | 'fixed' | 'signal'>
): Promise<Result<EnginePrefixStats | null>> {
  if (backend === undefined) return fail('model-unreachable', 'The built-in model is not available in this program.')
  if ((request.fixed ?? 0) <= 0) return ok(null)
  const file = modelFile(config)
  if (!file.ok) return file
  const warmed = await backend.host.warm({
    model: engineSpec(config, backend, file.value),
    input: engineInput(config, request),
    ...(request.signal === undefined ? {} : { signal: request.signal })
  })
  return warmed.ok ? ok(warmed.value.prefix) : warmed
}

/** Samples the engine decodes side by side: the paper's n. More samples are drawn in rounds. */
export const ENGINE_SEQUENCES = 5

/** The engine process an endpoint's requests run in (the same spec keeps the same process). */
export function engineSpec(config: EndpointConfig, backend: BuiltinBackend, file: string): EngineModelSpec {
  const settings = config.builtin
  return {
    file,
    contextSize: settings?.contextSize ?? DEFAULT_CONTEXT,
    threads: threadsFor(settings?.threads ?? 0),
    sequences: ENGINE_SEQUENCES,
    gpu: settings?.gpu ?? 'auto',
    ...(backend.stateDir === undefined ? {} : { stateDir: backend.stateDir }),
    ...(backend.memoryLimitBytes === undefined ? {} : { memoryLimitBytes: backend.memoryLimitBytes })
  }
}

/** The request as the engine takes it: text for completion models, messages for chat models, with its fixed part. */
export function engineInput(
  config: EndpointConfig,
  request: Pick<SampleRequest, 'prompt' | 'messages' | 'fixed' | 'prefill'>
): EngineInput {
  const fixed = request.fixed ?? 0
  if (config.api === 'completions') {
    if (request.prompt !== undefined) return { kind: 'text', text: request.prompt, fixed }
    const messages = request.messages ?? []
    // The fixed messages' text, and the separator after them.
    const fixedChars = fixed > 0 ? messages.slice(0, fixed).reduce((a, m) => a + m.content.length + 2, 0) : 0
    return { kind: 'text', text: messages.map((m) => m.content).join('\n\n'), fixed: fixedChars }
  }
  if (request.messages !== undefined)
    return { kind: 'chat', messages: request.messages, fixed, ...(request.prefill === undefined ? {} : { prefill: request.prefill }) }
  return { kind: 'chat', messages: [{ role: 'user', content: request.prompt ?? '' }] }
}
