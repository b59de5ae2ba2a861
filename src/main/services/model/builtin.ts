/**
 * The `builtin` endpoint kind behind ModelClient: the same sampling contract as the HTTP endpoints (n,
 * temperature, max tokens, stop strings, progress, cancellation, log-probabilities), answered by the
 * app's own engine process instead of a server.
 */

import { basename } from 'node:path'
import type { EndpointConfig, Sample } from '../../../shared/model'
import { fail, ok, type Result } from '../../../shared/result'
import type { EngineHost } from '../local-model/engine-host'
import type { EngineInput } from '../local-model/engine-protocol'
import { readGguf } from '../local-model/gguf'
import { formatBytes, threadsFor } from '../local-model/hardware'
import { DEFAULT_CONTEXT } from '../local-model/models'
import type { ConnectionReport, SampleRequest } from './endpoint'

export type BuiltinBackend = {
  host: EngineHost
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
  const settings = config.builtin
  const input: EngineInput =
    config.api === 'completions'
      ? { kind: 'text', text: request.prompt ?? (request.messages ?? []).map((m) => m.content).join('\n\n') }
      : { kind: 'chat', messages: request.messages ?? [{ role: 'user', content: request.prompt ?? '' }] }
  const timeout = AbortSignal.timeout(config.timeoutMs)
  const signal = request.signal === undefined ? timeout : AbortSignal.any([request.signal, timeout])
  let done = 0
  const result = await backend.host.generate({
    model: {
      file: file.value,
      contextSize: settings?.contextSize ?? DEFAULT_CONTEXT,
      threads: threadsFor(settings?.threads ?? 0),
      ...(backend.memoryLimitBytes === undefined ? {} : { memoryLimitBytes: backend.memoryLimitBytes })
    },
    input,
    n: request.n,
    temperature: request.temperature,
    maxTokens: request.maxTokens,
    stop: request.stop ?? [],
    signal,
    ...(backend.seed === undefined ? {} : { seed: backend.seed }),
    onLoad: (fraction) => request.onProgress?.({ kind: 'load', fraction }),
    onQueued: (ahead) => request.onProgress?.({ kind: 'queued', ahead }),
    onSample: (index, sample) => {
      done += 1
      request.onProgress?.({ kind: 'sample', done, total: request.n })
      request.onSample?.(index, sample)
    }
  })
  if (!result.ok && timeout.aborted && request.signal?.aborted !== true)
    return fail('model-timeout', `The built-in model did not finish within ${Math.round(config.timeoutMs / 1000)} s.`)
  return result.ok ? ok(result.value.samples) : result
}
