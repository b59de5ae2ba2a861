/**
 * Model mode: candidates from the generation pipeline (`src/main/services/pipeline`, function `ask`).
 * The pipeline is loaded at run time so that evaluation builds and runs in oracle mode without it.
 */
import type { CandidateSource } from './types'

export type ModelOptions = {
  endpoint?: string
  baseUrl?: string
  model?: string
  apis: 'none' | 'qa' | 'full'
  tableRepr: 'multiindex' | 'flatten'
  lang: 'python' | 'sql'
}

type PipelineModule = { ask?: unknown }

export async function modelSource(options: ModelOptions): Promise<CandidateSource> {
  const target = options.endpoint ?? `${options.model ?? '?'} at ${options.baseUrl ?? '?'}`
  let mod: PipelineModule
  try {
    const path = '../pipeline/index'
    mod = (await import(/* @vite-ignore */ path)) as PipelineModule
  } catch {
    throw new Error(
      `Model mode (${target}) needs the generation pipeline: src/main/services/pipeline exporting ask(...), which is not in this build. ` +
        'Oracle mode (--endpoint oracle) works without it.'
    )
  }
  if (typeof mod.ask !== 'function') {
    throw new Error(`Model mode (${target}): src/main/services/pipeline is present but exports no ask(...) function.`)
  }
  throw new Error(
    `Model mode (${target}): src/main/services/pipeline exports ask(...), but the evaluation adapter for it is not wired yet; ` +
      'see docs/EVALUATION.md, "Model runs".'
  )
}
