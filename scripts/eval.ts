/**
 * `npm run eval -- --dataset wikitq|hitab|aitqa|spider --split dev|test (--endpoint NAME|builtin|oracle |
 * --base-url URL --model NAME [--api chat|completions|responses]) [--api-key-env VAR] [--n 5]
 * [--temperature 0.7] [--offset K] [--limit N] [--apis none|qa|full] [--table-repr multiindex|flatten]
 * [--lang python|sql] [--select logprob|vote|greedy] [--repair on|off] [--repair-rounds N] [--profile paper|compact] [--concurrency K]
 * [--out DIR] [--data DIR]`
 * `--profile` is the prompt's layout (default `paper`, the method as published; the app gives the built-in
 * model `compact`). `--repair on` asks once more, with the error, for each candidate whose program failed, and again for
 * a correction that fails too, up to `--repair-rounds` times (default 1) per candidate (off by default
 * here, so that runs compare with the paper's method; the app does it for the built-in model).
 */
import { parseArgs } from 'node:util'
import { evaluate, summaryMarkdown, type EvalOptions } from '../src/main/services/eval'
import { DATASETS, type DatasetId, type Split } from '../src/main/services/eval/types'
import { MAX_N, MAX_REPAIR_ROUNDS } from '../src/main/services/pipeline/generate'
import { defaultDataDir } from '../src/main/services/paths'
import { API_KINDS, openModelClient, type EndpointChoice } from './lib/model-client'

const USAGE = `Usage: npm run eval -- --dataset wikitq|hitab|aitqa|spider --split dev|test
  (--endpoint NAME|builtin|oracle | --base-url URL --model NAME [--api chat|completions|responses])
  [--api-key-env VAR] [--n 5] [--temperature 0.7] [--offset K] [--limit N] [--apis none|qa|full] [--table-repr multiindex|flatten] [--lang python|sql]
  [--select logprob|vote|greedy] [--repair on|off] [--repair-rounds N] [--profile paper|compact] [--concurrency K] [--out DIR] [--data DIR]
  [--timeout SECONDS]`

function oneOf<T extends string>(name: string, value: string | undefined, allowed: readonly T[], fallback?: T): T {
  if (value === undefined && fallback !== undefined) return fallback
  if (value !== undefined && (allowed as readonly string[]).includes(value)) return value as T
  throw new Error(`--${name} must be one of ${allowed.join(', ')}${value === undefined ? '' : `, not ${value}`}`)
}

function temperatureOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  const t = Number(value)
  if (value.trim() === '' || !Number.isFinite(t) || t < 0 || t > 2)
    throw new Error(`--temperature must be a number from 0 to 2, not ${value}`)
  return t
}

function positiveInt(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer, not ${value}`)
  return n
}

/** What the command line asks for: the run's options, and the oracle or the endpoint to open. */
export type EvalArgs = { options: Omit<EvalOptions, 'source'>; source: 'oracle' | EndpointChoice }

export function parseEvalArgs(argv: string[]): EvalArgs {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      dataset: { type: 'string' },
      split: { type: 'string' },
      endpoint: { type: 'string' },
      'base-url': { type: 'string' },
      model: { type: 'string' },
      api: { type: 'string' },
      'api-key-env': { type: 'string' },
      n: { type: 'string' },
      temperature: { type: 'string' },
      offset: { type: 'string' },
      limit: { type: 'string' },
      apis: { type: 'string' },
      'table-repr': { type: 'string' },
      lang: { type: 'string' },
      select: { type: 'string' },
      concurrency: { type: 'string' },
      out: { type: 'string' },
      data: { type: 'string' },
      timeout: { type: 'string' },
      repair: { type: 'string' },
      'repair-rounds': { type: 'string' },
      profile: { type: 'string' }
    }
  })
  const endpoint = values.endpoint
  if (endpoint === undefined && (values['base-url'] === undefined || values.model === undefined)) {
    throw new Error('give --endpoint NAME (or builtin, or oracle), or both --base-url URL and --model NAME')
  }
  const timeout = positiveInt('timeout', values.timeout)
  const n = positiveInt('n', values.n)
  if (n !== undefined && n > MAX_N) throw new Error(`--n must be at most ${MAX_N}, not ${n}`)
  const temperature = temperatureOf(values.temperature)
  const repairRounds = positiveInt('repair-rounds', values['repair-rounds'])
  if (repairRounds !== undefined && repairRounds > MAX_REPAIR_ROUNDS)
    throw new Error(`--repair-rounds must be at most ${MAX_REPAIR_ROUNDS}, not ${repairRounds}`)
  const api = values.api === undefined ? undefined : oneOf('api', values.api, API_KINDS)
  const source: EvalArgs['source'] =
    endpoint === 'oracle'
      ? 'oracle'
      : {
          ...(endpoint === undefined ? {} : { endpoint }),
          ...(values['base-url'] === undefined ? {} : { baseUrl: values['base-url'] }),
          ...(values.model === undefined ? {} : { model: values.model }),
          ...(api === undefined ? {} : { api }),
          ...(values['api-key-env'] === undefined ? {} : { apiKeyEnv: values['api-key-env'] })
        }
  const options: EvalArgs['options'] = {
    dataset: oneOf<DatasetId>('dataset', values.dataset, DATASETS),
    split: oneOf<Split>('split', values.split, ['dev', 'test']),
    ...(n === undefined ? {} : { n }),
    ...(temperature === undefined ? {} : { temperature }),
    ...(values.offset === undefined || values.offset === '0' ? {} : { offset: positiveInt('offset', values.offset) }),
    limit: positiveInt('limit', values.limit),
    apis: oneOf('apis', values.apis, ['none', 'qa', 'full'] as const, 'full'),
    tableRepr: oneOf('table-repr', values['table-repr'], ['multiindex', 'flatten'] as const, 'multiindex'),
    lang: oneOf('lang', values.lang, ['python', 'sql'] as const, 'python'),
    select: oneOf('select', values.select, ['logprob', 'vote', 'greedy'] as const, 'logprob'),
    concurrency: positiveInt('concurrency', values.concurrency) ?? 2,
    out: values.out,
    data: values.data,
    timeoutMs: timeout === undefined ? undefined : timeout * 1000,
    ...(values.repair === undefined ? {} : { repair: oneOf('repair', values.repair, ['on', 'off'] as const, 'off') === 'on' }),
    ...(repairRounds === undefined ? {} : { repairRounds }),
    profile: oneOf('profile', values.profile, ['paper', 'compact'] as const, 'paper')
  }
  return { options, source }
}

/** The oracle, or a client for the endpoint the flags name (settings, key file and cache of the data folder). */
export async function openSource(source: EvalArgs['source'], dataDir = defaultDataDir()): Promise<EvalOptions['source']> {
  return (await openClosableSource(source, dataDir)).source
}

/** As openSource, with what stops the client (the built-in model's engine process) when the run is over. */
export async function openClosableSource(
  source: EvalArgs['source'],
  dataDir = defaultDataDir()
): Promise<{ source: EvalOptions['source']; close: () => Promise<void> }> {
  if (source === 'oracle') return { source: 'oracle', close: () => Promise.resolve() }
  const opened = await openModelClient(source, { dataDir, cache: true, keyRequired: true })
  if (!opened.ok) throw new Error(`Model mode: ${opened.error.message}`)
  const { client, config, close } = opened.value
  const label = source.endpoint ?? (config.kind === 'builtin' ? 'builtin' : `${config.model}@${config.baseUrl}`)
  return { source: { client, label }, close }
}

async function main(): Promise<void> {
  let args: EvalArgs
  try {
    args = parseEvalArgs(process.argv.slice(2))
  } catch (e) {
    console.error(`${e instanceof Error ? e.message : String(e)}\n\n${USAGE}`)
    process.exit(2)
  }
  const opened = await openClosableSource(args.source)
  try {
    const summary = await evaluate({ ...args.options, source: opened.source })
    console.log(summaryMarkdown(summary))
  } finally {
    await opened.close()
  }
}

if (process.argv[1] !== undefined && /scripts[\\/]eval\.ts$/.test(process.argv[1])) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error)
    process.exit(1)
  })
}
