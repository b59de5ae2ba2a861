/**
 * Model mode: candidates from the generation pipeline (`generate` in src/main/services/pipeline), the same
 * prompt, sampling and code extraction the app uses. The runner then runs every candidate itself; `qa(...)`
 * calls are answered by the same client through the pipeline's QA prompt. Samples and QA answers are
 * cached in `<dataDir>/model-cache`, so evaluating the same configuration again makes no requests.
 */
import type { Sample } from '../../../shared/model'
import type { Result } from '../../../shared/result'
import type { IndexView } from '../../../shared/table'
import type { ModelClient } from '../model'
import type { AskRequest, Generation } from '../pipeline/generate'
import { DEFAULTS as ASK_DEFAULTS, loadLibrary, prepare, samplePrograms } from '../pipeline/generate'
import { repairProgram } from '../pipeline/repair'
import { qaHandler } from '../pipeline/qa'
import type { CandidateProgram, CandidateSet, CandidateSource, EvalQuestion, TableSet } from './types'

export type ModelOptions = {
  apis: 'none' | 'qa' | 'full'
  tableRepr: IndexView
  lang: 'python' | 'sql'
  /** Programs sampled per question (the paper: 5). */
  n: number
  /** Sampling temperature (the paper: 0.7). */
  temperature: number
  /** Ask once more, with the error, for each candidate whose program failed. */
  repair?: boolean
  /** How many times a failed candidate may be corrected (the app's default when absent). */
  repairRounds?: number
  /** The prompt profile; the endpoint's default when absent. */
  profile?: 'paper' | 'compact'
}

/** Most `qa(...)` calls one candidate may make, as in the app. */
const MAX_QA_CALLS = 20

/** Candidates from `client` (opened by the caller: a configured endpoint, an ad-hoc URL, the built-in model). */
export function modelSource(client: ModelClient, options: ModelOptions): CandidateSource {
  const library = loadLibrary(undefined)
  if (!library.ok) throw new Error(`Model mode: ${library.error.message} ${library.error.detail ?? ''}`.trim())
  const { config } = client
  return {
    name: `${config.name} (${config.model}, ${config.api})`,
    async candidates(
      q: EvalQuestion,
      tables: TableSet,
      signal?: AbortSignal,
      onCandidate?: (index: number, candidate: CandidateProgram) => void
    ): Promise<CandidateSet> {
      const request: AskRequest = {
        tables: [
          ...(tables.main === null ? [] : [{ name: tables.main.name, table: tables.main, variable: 'df' }]),
          ...tables.named.map((t) => ({ name: t.name, table: t.table, variable: t.name }))
        ],
        question: q.question,
        options: {
          n: options.n,
          temperature: options.temperature,
          apis: options.apis,
          tableRepr: options.tableRepr,
          mode: options.lang,
          ...(options.profile === undefined ? {} : { profile: options.profile })
        },
        ...(signal === undefined ? {} : { signal })
      }
      let generated
      try {
        const prepared = await prepare(request, { client, library: library.value })
        generated = !prepared.ok
          ? prepared
          : await samplePrograms(prepared.value, request, client, (index, sample, program) =>
              onCandidate?.(index, candidateOf(sample, program, options.lang))
            )
      } catch (error) {
        return {
          candidates: [],
          error: { category: 'model', message: `generation failed: ${error instanceof Error ? error.message : String(error)}` }
        }
      }
      if (!generated.ok) {
        const { code, message } = generated.error
        return { candidates: [], error: { category: 'model', message: `${code}: ${message}` } }
      }
      const g = generated.value
      return {
        candidates: candidatesOf(g, options.lang),
        tokens: { prompt: g.tokens.prompt, ...(g.tokens.completion === null ? {} : { completion: g.tokens.completion }) },
        qa: qaHandler(client, g.library, signal),
        maxQaCalls: MAX_QA_CALLS,
        notes: g.notes,
        ...(g.engine === null ? {} : { engine: g.engine }),
        ...(options.repair !== true
          ? {}
          : {
              repairRounds: options.repairRounds ?? ASK_DEFAULTS.repairRounds,
              repair: async (index: number, program: string, note: string): Promise<CandidateProgram | null> => {
                const fixed = await repairProgram(client, g.prompt, g.library, program, note, {
                  maxTokens: ASK_DEFAULTS.maxTokens,
                  temperature: options.temperature,
                  ...(signal === undefined ? {} : { signal })
                })
                if (!fixed.ok) return null
                const original = g.samples[index]
                // The candidate keeps its sample's log-probability: the repair is the same approach, corrected.
                const sample = {
                  ...fixed.value.sample,
                  logprobSum: original?.logprobSum ?? null,
                  logprobMean: original?.logprobMean ?? null
                }
                return candidateOf(sample, fixed.value.program, options.lang)
              }
            })
      }
    }
  }
}

function candidatesOf(g: Generation, lang: ModelOptions['lang']): CandidateProgram[] {
  return g.samples.map((sample, i) => candidateOf(sample, g.programs[i], lang))
}

function candidateOf(sample: Sample, program: Result<string> | undefined, lang: ModelOptions['lang']): CandidateProgram {
  const scores = { logprobSum: sample.logprobSum, logprobMean: sample.logprobMean, tokens: sample.tokens }
  if (program === undefined || !program.ok) {
    const why = program === undefined ? 'no program' : program.error.message
    return { program: '', lang: 'python', ...scores, error: `${why} (reply: ${JSON.stringify(sample.text.slice(0, 200))})` }
  }
  const sql = lang === 'sql' ? bareQuery(program.value) : null
  return sql === null ? { program: program.value, lang: 'python', ...scores } : { program: sql, lang: 'sql', ...scores }
}

const QUERY_CALL = /^\s*(?:answer\s*=\s*)?sqldf\(\s*(?:"""([\s\S]*?)"""|'''([\s\S]*?)'''|"([^"\n]*)"|'([^'\n]*)')\s*\)\s*;?\s*$/

/**
 * The query of a program that is nothing but one `sqldf` call on a string literal, else null. Such a
 * program is a SQL prediction, so Spider's evaluator clean-up applies to it as to any predicted query.
 * Literals with escapes are left as Python, since their text is not the query's text.
 */
export function bareQuery(program: string): string | null {
  const m = QUERY_CALL.exec(program)
  if (m === null) return null
  const sql = m[1] ?? m[2] ?? m[3] ?? m[4] ?? ''
  return sql.includes('\\') || sql.trim() === '' ? null : sql.trim()
}
