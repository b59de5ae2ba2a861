/**
 * Ask a question about a table from the command line:
 *   npm run ask -- --table FILE --question "..." [--endpoint NAME|builtin | --base-url URL --model NAME
 *     [--api-key-env VAR] [--api chat|completions|responses]] [--n 5] [--temperature 0.7] [--profile paper|compact]
 *     [--repair on|off] [--repair-rounds N] [--select logprob|vote|greedy]
 *     [--lang python|sql] [--apis none|qa|full] [--repr multiindex|flatten] [--executor pyodide|cpython] [--json]
 * Without endpoint flags the built-in model answers (installed with `npm run setup:model`), in its own
 * engine process. Named endpoints come from the settings in the data folder; their key from --api-key-env VAR (or
 * TABLEQA_API_KEY), else from the data folder's key file (keys the desktop app encrypted with the OS
 * keychain cannot be read here: give those with --api-key-env).
 */

import { readFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { parseArgs } from 'node:util'
import type { AskKind, AskOptions, AskProgress, AskSummary } from '../src/shared/ask'
import { answerHeadline, answerTableText } from '../src/shared/ask'
import type { ApiKind, EngineRequestStats, SelectionMode } from '../src/shared/model'
import { ResponseCache } from '../src/main/services/model'
import { defaultDataDir } from '../src/main/services/paths'
import { ask } from '../src/main/services/pipeline'
import { API_KINDS, openModelClient } from './lib/model-client'
import { executorConfig } from '../src/main/app/compose'
import { ExecutorAssets } from '../src/main/services/python/assets'
import { packageDirs } from '../src/main/services/python/package-source'
import { chromiumChannelFactory, findChromium } from '../src/main/services/python/chromium-channel'
import { probePython } from '../src/main/services/python/cpython-channel'
import { createCPythonExecutor } from '../src/main/services/python/cpython-executor'
import { PythonExecutor } from '../src/main/services/python/executor'
import type { Executor } from '../src/main/services/python/types'
import { importFile } from '../src/main/services/tables/import'
import { structureGrid } from '../src/main/services/tables/structure'
import { runCli, UsageError } from './lib/cli'

const USAGE = `usage: npm run ask -- --table FILE --question "..." [--endpoint NAME|builtin | --base-url URL --model NAME [--api-key-env VAR] [--api chat|completions|responses]]
       [--n 5] [--temperature 0.7] [--profile paper|compact] [--repair on|off] [--repair-rounds 1] [--select logprob|vote|greedy] [--score sum|mean] [--lang python|sql] [--apis none|qa|full] [--repr multiindex|flatten]
       [--kind auto|relational|hierarchical|airline|multi-table] [--budget TOKENS] [--executor pyodide|cpython] [--python python3] [--no-cache] [--json]
       npm run ask -- --clear-cache      empty the response cache (<data folder>/model-cache) and exit
With no endpoint flags the built-in model answers on this computer (install one with npm run setup:model).
Replies of servers are cached by endpoint, model, prompt and parameters, so asking again is free; --no-cache skips the cache.`

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], flag: string): T | undefined {
  if (value === undefined) return undefined
  if ((allowed as readonly string[]).includes(value)) return value as T
  throw new UsageError(`--${flag} must be one of ${allowed.join(', ')}.`)
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      table: { type: 'string' },
      question: { type: 'string' },
      endpoint: { type: 'string' },
      'base-url': { type: 'string' },
      model: { type: 'string' },
      'api-key-env': { type: 'string' },
      api: { type: 'string' },
      n: { type: 'string' },
      temperature: { type: 'string' },
      profile: { type: 'string' },
      repair: { type: 'string' },
      'repair-rounds': { type: 'string' },
      select: { type: 'string' },
      score: { type: 'string' },
      lang: { type: 'string' },
      apis: { type: 'string' },
      repr: { type: 'string' },
      kind: { type: 'string' },
      budget: { type: 'string' },
      executor: { type: 'string' },
      python: { type: 'string' },
      json: { type: 'boolean', default: false },
      'no-cache': { type: 'boolean', default: false },
      'clear-cache': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false }
    },
    strict: true
  })
  if (values.help === true) {
    console.log(USAGE)
    return 0
  }
  if (values['clear-cache'] === true) {
    const cache = new ResponseCache(join(defaultDataDir(), 'model-cache'))
    const removed = await cache.clear()
    console.log(`Cleared the response cache: ${removed} replies removed from ${cache.dir}.`)
    return 0
  }
  if (values.table === undefined || values.question === undefined) throw new UsageError('--table and --question are required.')

  const opened = await openModelClient(
    {
      ...(values.endpoint === undefined ? {} : { endpoint: values.endpoint }),
      ...(values['base-url'] === undefined ? {} : { baseUrl: values['base-url'] }),
      ...(values.model === undefined ? {} : { model: values.model }),
      ...(values.api === undefined ? {} : { api: oneOf<ApiKind>(values.api, API_KINDS, 'api') }),
      ...(values['api-key-env'] === undefined ? {} : { apiKeyEnv: values['api-key-env'] }),
      ...(values.budget === undefined ? {} : { promptTokenBudget: Number(values.budget) })
    },
    { dataDir: defaultDataDir(), cache: values['no-cache'] !== true }
  )
  if (!opened.ok) throw new UsageError(opened.error.message)

  const options: AskOptions = {}
  if (values.n !== undefined) options.n = Number(values.n)
  if (values.temperature !== undefined) options.temperature = Number(values.temperature)
  const profile = oneOf(values.profile, ['paper', 'compact'] as const, 'profile')
  if (profile !== undefined) options.profile = profile
  const repair = oneOf(values.repair, ['on', 'off'] as const, 'repair')
  if (repair !== undefined) options.repair = repair === 'on'
  // Checked with the other options when the question is asked.
  if (values['repair-rounds'] !== undefined) options.repairRounds = Number(values['repair-rounds'])
  const selection = oneOf<SelectionMode>(values.select, ['logprob', 'vote', 'greedy'], 'select')
  if (selection !== undefined) options.selection = selection
  const score = oneOf(values.score, ['sum', 'mean'] as const, 'score')
  if (score !== undefined) options.score = score
  const mode = oneOf(values.lang, ['python', 'sql'] as const, 'lang')
  if (mode !== undefined) options.mode = mode
  const apis = oneOf(values.apis, ['none', 'qa', 'full'] as const, 'apis')
  if (apis !== undefined) options.apis = apis
  const repr = oneOf(values.repr, ['multiindex', 'flatten'] as const, 'repr')
  if (repr !== undefined) options.tableRepr = repr
  const kind = oneOf<AskKind>(values.kind, ['auto', 'relational', 'hierarchical', 'airline', 'multi-table'], 'kind')
  if (kind !== undefined) options.kind = kind

  const bytes = new Uint8Array(readFileSync(values.table))
  const grids = await importFile(basename(values.table), bytes)
  if (!grids.ok) throw new UsageError(`${values.table}: ${grids.error.message}`)
  const tables = grids.value.map((g) => ({ name: g.name, table: structureGrid(g) }))

  const python = values.python ?? 'python3'
  const probe = await probePython(python)
  const pandas = probe.ok && probe.pandas !== null
  const wanted = oneOf(values.executor, ['pyodide', 'cpython'] as const, 'executor')
  const kindOfExecutor = wanted ?? (pandas ? 'cpython' : 'pyodide')
  // The sandbox has pandas when its files are in the package folders (the app fetches them on first start).
  const sandboxConfig = executorConfig(defaultDataDir(), { poolSize: 1 })
  const sandboxPandas = sandboxConfig.loadPandas
    ? 'pandas from the cached Pyodide packages'
    : 'programs get plain rows (run `npm run setup:python` for pandas)'
  const why =
    wanted !== undefined
      ? kindOfExecutor === 'pyodide'
        ? `as asked; ${sandboxPandas}`
        : 'as asked'
      : pandas
        ? `${python} has pandas; local CPython, not sandboxed`
        : `${python} has no pandas; sandboxed Pyodide, ${sandboxPandas}`
  let executor: Executor
  if (kindOfExecutor === 'cpython') {
    executor = createCPythonExecutor({ python })
  } else {
    const chromium = findChromium()
    if (chromium === null) throw new UsageError('The Pyodide executor needs Chromium (apt-get install chromium, or set TABLEQA_CHROMIUM).')
    const assets = new ExecutorAssets({ packageDirs: packageDirs(defaultDataDir()) })
    if (!assets.built()) throw new UsageError('The Pyodide executor needs the built executor page: run `npm run build` first.')
    executor = new PythonExecutor(chromiumChannelFactory(assets, chromium), {
      config: sandboxConfig,
      defaultTimeoutMs: 30_000,
      bootTimeoutMs: 120_000
    })
  }
  const controller = new AbortController()
  process.once('SIGINT', () => controller.abort())
  if (opened.value.config.kind === 'builtin' && values.json !== true)
    process.stderr.write(`  built-in model: ${opened.value.config.model} (${opened.value.config.builtin?.modelFile ?? ''})\n`)
  try {
    const result = await ask(
      {
        tables,
        question: values.question,
        options,
        signal: controller.signal,
        onProgress: values.json === true ? undefined : progressPrinter()
      },
      { client: opened.value.client, executor }
    )
    if (!result.ok) {
      if (values.json === true)
        console.log(JSON.stringify({ ok: false, error: result.error, executorChoice: { kind: kindOfExecutor, why } }, null, 2))
      else
        console.error(
          `error (${result.error.code}): ${result.error.message}${result.error.detail === undefined ? '' : `\n${result.error.detail}`}`
        )
      return 1
    }
    if (values.json === true)
      console.log(JSON.stringify({ ok: true, ...result.value, executorChoice: { kind: kindOfExecutor, why } }, null, 2))
    else printSummary(result.value, `${kindOfExecutor} (${why})`)
    return result.value.answer === null ? 1 : 0
  } finally {
    await executor.close()
    await opened.value.close()
  }
}

/**
 * Progress on stderr: the model's steps (loading, reading the prompt, sampling) on one line redrawn in place
 * on a terminal (a line per step elsewhere), and each candidate's answer as soon as it has run.
 */
function progressPrinter(): (e: AskProgress) => void {
  const tty = process.stderr.isTTY === true
  let open = false
  let lastStep = ''
  return (e) => {
    const step = e.message.replace(/[\d,]+ of [\d,]+ tokens$/, 'tokens')
    if (e.candidate !== undefined) {
      if (open) process.stderr.write('\n')
      open = false
      const c = e.candidate
      process.stderr.write(`  candidate ${c.index + 1} ran: ${c.answer ?? `failed (${c.error ?? 'no answer'})`}\n`)
      return
    }
    if (tty) {
      process.stderr.write(`\r  ${e.message}`.padEnd(72))
      open = true
    } else if (step !== lastStep || !/^reading the prompt/.test(e.message)) process.stderr.write(`  ${e.message}\n`)
    lastStep = step
  }
}

function printSummary(s: AskSummary, executor: string): void {
  const out: string[] = []
  out.push(`Executor: ${executor}`)
  out.push(`Endpoint: ${s.endpoint.name} (${s.endpoint.model}, ${s.endpoint.api}); prompt: ${s.kind}, about ${s.promptTokens} tokens`)
  out.push('')
  out.push(s.answer === null ? `No answer: ${s.problem?.message ?? 'unknown reason'}` : `Answer: ${answerHeadline(s.answer)}`)
  // A table answer is shown as the grid it is (its values joined on one line would be unreadable). A chart
  // is named by what it plots: the app draws it, and --json gives its Vega-Lite spec.
  if (s.answer?.table !== undefined && s.answer.chart === undefined && answerHeadline(s.answer) !== s.answer.text)
    out.push(indent(answerTableText(s.answer.table)))
  if (s.answer?.note !== undefined) out.push(`Note: ${s.answer.note}`)
  if (s.selection !== null)
    out.push(
      `Chosen: candidate ${(s.chosen ?? 0) + 1} by ${s.selection.mode}${s.selection.fallbackReason === undefined ? '' : ` (${s.selection.fallbackReason})`}`
    )
  for (const note of s.notes) out.push(`- ${note}`)
  if (s.program !== null) out.push('', 'Program:', indent(s.program))
  out.push('', 'Candidates:')
  for (const c of s.candidates) {
    const lp = c.logprobSum === null ? 'no log-prob' : `log-prob ${c.logprobSum.toFixed(2)}`
    const result = c.result.ok ? answerHeadline(c.result.answer) : `${c.result.error.code}: ${c.result.error.message}`
    out.push(`  ${c.index + 1}. [${lp}${c.qaCalls > 0 ? `, ${c.qaCalls} qa call(s)` : ''}] ${result}`)
    if (c.program !== null) out.push(indent(c.program, '       '))
  }
  out.push(
    '',
    `Timings: prompt ${s.timings.promptMs} ms, generation ${s.timings.generateMs} ms, execution ${s.timings.executeMs} ms, total ${s.timings.totalMs} ms; qa calls ${s.qaCalls}`
  )
  if (s.engine !== undefined) out.push(engineLine(s.engine))
  console.log(out.join('\n'))
}

/** Where the built-in engine's time went, in one line. */
function engineLine(e: EngineRequestStats): string {
  const prefix =
    e.prefix.source === 'none'
      ? ''
      : `; instructions and examples (${e.prefix.tokens.toLocaleString('en-US')} tokens) ${
          e.prefix.source === 'held'
            ? 'held from before'
            : e.prefix.source === 'disk'
              ? `read from disk in ${e.prefix.ms} ms`
              : `evaluated in ${e.prefix.ms} ms`
        }`
  const capped = e.samples.filter((s) => s.finish === 'length').length
  return [
    `Engine (${e.backend}): ${e.loadMs === null ? 'model loaded already' : `model loaded in ${e.loadMs} ms`}`,
    `; prompt ${e.promptTokens.toLocaleString('en-US')} tokens, ${e.promptEvaluatedTokens.toLocaleString('en-US')} read in ${e.promptMs} ms${prefix}`,
    `; ${e.samples.length} samples on ${e.sequences} sequences in ${e.generateMs} ms (${e.samples.map((s) => s.tokens).join(', ')} tokens${capped > 0 ? `; ${capped} ran to the cap` : ''})`
  ].join('')
}

function indent(text: string, by = '    '): string {
  return text
    .split('\n')
    .map((l) => by + l)
    .join('\n')
}

runCli(main, USAGE, (error) => console.error(error))
