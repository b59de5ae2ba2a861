import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Choice, ScriptedServer } from '../../../../test/support/scripted-openai-server'
import { startScriptedServer } from '../../../../test/support/scripted-openai-server'
import { FileSecretStore, localKeyCipher } from '../store/secret-file'
import { openFileStore } from '../store/store'
import { EndpointRegistry, SETTINGS_STORE } from '../settings'
import { appRoot } from '../paths'
import { probePython } from '../python/cpython-channel'
import { evaluate, type EvalOptions } from './index'
import { bareQuery } from './model-source'
import { openSource } from '../../../../scripts/eval'
import type { RunSummary } from './summary'
import type { QuestionRecord } from './types'

// The first three questions of HiTab dev and of Spider dev, as the loaders order them.
const HITAB = {
  budget:
    'if the pre-production development activities were to be included, how many dollars would the fy 2017 r&d budget authority have been?',
  transport: 'how many percent of black male workers were employed in the transportation and warehousing sector?',
  admin:
    'how many percent of black male workers were employed in the administrative and support, waste management and remediation services sector?'
}
const SPIDER = {
  count: 'How many singers do we have?',
  total: 'What is the total number of singers?',
  byAge: 'Show name, country, age for all singers ordered by age from the oldest to the youngest.'
}
const KEY = 'sk-eval-model-mode-0001'
const QA_PROMPT = /^Answer the question in as few words as possible/
const SUB_QUESTION = 'Which sector covers waste management and remediation?'

const fenced = (code: string): string => `\`\`\`python\n${code}\n\`\`\``
const asked = (question: string) => (r: { prompt: string }) => r.prompt.includes(`Question: ${question}\n`)

// HiTab, chat API, five samples each: the most probable program is right for the first question, fails
// for the second (the paper keeps the most probable even when it fails) and asks qa() for the third.
const hitabChoices: Record<keyof typeof HITAB, Choice[]> = {
  budget: [
    { text: fenced('answer = lookup(df, "total", "2017 actual")'), logprobs: [-0.5, -0.5] },
    { text: fenced('answer = df.iloc[0, 0]'), logprobs: [-1, -1, -1] },
    { text: 'I am not sure how to answer this.', logprobs: [-2, -2] },
    { text: fenced('answer = lookup(df, "total", "2017 actual")'), logprobs: [-1.5, -1.5] },
    { text: fenced('answer = df.loc["nowhere"]'), logprobs: [-3, -3] }
  ],
  transport: [
    { text: fenced('answer = df.loc["transport", "black"]'), logprobs: [-0.2, -0.2] },
    {
      text: fenced('answer = lookup(df, ("percent", "transportation and warehousing"), ("black male workers", "total"))'),
      logprobs: [-1, -1]
    },
    {
      text: fenced('answer = lookup(df, ("percent", "transportation and warehousing"), ("black male workers", "total"))'),
      logprobs: [-1.2, -1]
    },
    { text: fenced('answer = 0'), logprobs: [-4] },
    { text: fenced('answer = df.iloc[0, 0]'), logprobs: [-3, -3] }
  ],
  admin: [
    {
      text: fenced(
        `sector = qa(${JSON.stringify(SUB_QUESTION)})\nanswer = lookup(df, ("percent", sector), ("black male workers", "total"))`
      ),
      logprobs: [-0.1, -0.1, -0.1]
    },
    { text: fenced('answer = df.iloc[1, 1]'), logprobs: [-2, -2] },
    { text: fenced('answer = df.iloc[2, 2]'), logprobs: [-2.5, -2] },
    { text: fenced('answer = df.iloc[3, 3]'), logprobs: [-3, -2] },
    { text: fenced('answer = df.iloc[4, 4]'), logprobs: [-3.5, -2] }
  ]
}

let server: ScriptedServer
let home: string
let runs: string

function lines(out: string): QuestionRecord[] {
  return readFileSync(join(out, 'questions.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as QuestionRecord)
}

function generationRequests(from: number): ScriptedServer['requests'] {
  return server.requests.slice(from).filter((r) => r.path.startsWith('/v1/') && r.path !== '/v1/models')
}

type Cli = { code: number; stdout: string; stderr: string }

function evalCli(args: string[]): Promise<Cli> {
  return new Promise((resolve) => {
    execFile(
      join(appRoot(), 'node_modules', '.bin', 'tsx'),
      [join(appRoot(), 'scripts', 'eval.ts'), ...args],
      { cwd: appRoot(), env: { ...process.env, TABLEQA_HOME: home, EVAL_TEST_KEY: KEY, TABLEQA_API_KEY: '' }, timeout: 180_000 },
      (error, stdout, stderr) => resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr })
    )
  })
}

beforeAll(async () => {
  const probe = await probePython(process.env.TABLEQA_PYTHON ?? 'python3')
  if (!probe.ok || probe.pandas === null)
    throw new Error('Model-mode evaluation tests need python3 with pandas (pip install -r python/requirements-test.txt).')
  home = mkdtempSync(join(tmpdir(), 'eval-model-home-'))
  runs = mkdtempSync(join(tmpdir(), 'eval-model-runs-'))
  server = await startScriptedServer({
    requireKey: KEY,
    rules: [
      {
        match: (r) => QA_PROMPT.test(r.prompt) && r.prompt.includes(SUB_QUESTION),
        reply: { choices: [{ text: 'administrative and support, waste management and remediation services' }] }
      },
      {
        match: (r) => QA_PROMPT.test(r.prompt) && r.prompt.includes("Which column of singer holds each singer's age?"),
        reply: { choices: [{ text: 'Age' }] }
      },
      { match: asked(HITAB.budget), reply: { choices: hitabChoices.budget } },
      { match: asked(HITAB.transport), reply: { choices: hitabChoices.transport } },
      { match: asked(HITAB.admin), reply: { choices: hitabChoices.admin } },
      // Spider, completions API: the reply continues the prompt's open code block.
      {
        match: asked(SPIDER.count),
        reply: {
          choices: [
            { text: 'answer = sqldf("SELECT count(*) FROM singer")\n```', logprobs: [-0.3, -0.3] },
            { text: 'answer = len(singer.columns)\n```', logprobs: [-2, -2] }
          ]
        }
      },
      { match: asked(SPIDER.total), reply: { delayMs: 4_000, choices: [{ text: 'answer = len(singer)\n```' }] } },
      {
        match: asked(SPIDER.byAge),
        reply: {
          choices: [
            {
              text: `col = qa("Which column of singer holds each singer's age?")\nanswer = singer.sort_values(col, ascending=False)[["Name", "Country", "Age"]]\n\`\`\``,
              logprobs: [-0.4, -0.4, -0.4]
            },
            { text: 'answer = sqldf("SELECT Name, Country, Age FROM singer ORDER BY Age")\n```', logprobs: [-1, -1] }
          ]
        }
      }
    ]
  })
  // A named endpoint whose key is in the key file, as the web app stores it.
  const registry = new EndpointRegistry(
    openFileStore(home, SETTINGS_STORE).store,
    new FileSecretStore(join(home, 'secrets.json'), localKeyCipher(home))
  )
  const saved = await registry.save(
    { name: 'scripted-sql', baseUrl: server.url, model: 'test-model', api: 'completions', timeoutMs: 1_500, maxRetries: 0 },
    KEY
  )
  if (!saved.ok) throw new Error(saved.error.message)
})

afterAll(async () => {
  await server?.close()
  rmSync(home, { recursive: true, force: true })
  rmSync(runs, { recursive: true, force: true })
})

describe('model mode on HiTab dev through npm run eval', () => {
  const args = (out: string): string[] => [
    '--dataset',
    'hitab',
    '--split',
    'dev',
    '--limit',
    '3',
    '--base-url',
    server.url,
    '--model',
    'test-model',
    '--api-key-env',
    'EVAL_TEST_KEY',
    '--out',
    out
  ]

  it('samples five programs per question, runs them with qa() answered, selects by log-probability and scores', async () => {
    const out = join(runs, 'hitab')
    const before = server.requests.length
    const run = await evalCli(args(out))
    expect(run.stderr).not.toMatch(/Error|error:/)
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('**EA 66.7 %** (2 / 3 scored questions')
    expect(run.stdout).toMatch(/Model use: 15 candidates; about [\d,]+ prompt tokens \(estimated\), [\d,]+ completion tokens, 1 qa calls\./)
    expect(run.stdout).not.toContain(KEY)

    const sent = generationRequests(before)
    const generation = sent.filter((r) => !QA_PROMPT.test(r.prompt))
    expect(generation).toHaveLength(3)
    for (const r of generation) {
      expect(r.path).toBe('/v1/chat/completions')
      expect(r.body).toMatchObject({ n: 5, temperature: 0.7, logprobs: true })
      expect(r.headers['authorization']).toBe(`Bearer ${KEY}`)
    }
    expect(sent.filter((r) => QA_PROMPT.test(r.prompt))).toHaveLength(1)

    const byQuestion = new Map(lines(out).map((r) => [r.question, r]))
    const budget = byQuestion.get(HITAB.budget)
    expect(budget).toMatchObject({
      correct: true,
      answer: { kind: 'scalar', value: 154983 },
      qaCalls: 0,
      program: 'answer = lookup(df, "total", "2017 actual")'
    })
    expect(budget?.candidates.map((c) => c.logprobSum)).toEqual([-1, -3, -4, -3, -6])
    expect(budget?.candidates.map((c) => c.logprobMean)).toEqual([-0.5, -1, -2, -1.5, -3])
    expect(budget?.candidates.map((c) => c.tokens)).toEqual([2, 3, 2, 2, 2])
    expect(budget?.candidates.map((c) => c.ok)).toEqual([true, true, false, true, false])
    expect(budget?.candidates[2]?.error).toMatch(/I am not sure how to answer this/)
    expect(budget?.tokens?.completion).toBe(11)
    expect(budget?.tokens?.prompt).toBeGreaterThan(500)

    const transport = byQuestion.get(HITAB.transport)
    expect(transport).toMatchObject({ correct: false, miss: { category: 'execution' }, program: 'answer = df.loc["transport", "black"]' })
    expect(transport?.candidates.slice(1, 3).map((c) => c.answer)).toEqual([
      { kind: 'scalar', value: 11.1 },
      { kind: 'scalar', value: 11.1 }
    ])

    const admin = byQuestion.get(HITAB.admin)
    expect(admin).toMatchObject({ correct: true, answer: { kind: 'scalar', value: 9.7 }, qaCalls: 1 })
    expect(admin?.candidates.map((c) => c.qaCalls)).toEqual([1, 0, 0, 0, 0])

    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as RunSummary
    expect(summary).toMatchObject({ questions: 3, scored: 3, correct: 2, misses: { execution: 1 }, usage: { candidates: 15, qaCalls: 1 } })
    expect(summary.endpoint).toBe(`${new URL(server.url).host} (test-model, chat)`)
    expect(JSON.parse(readFileSync(join(out, 'run.json'), 'utf8'))).toMatchObject({ n: 5, temperature: 0.7, apis: 'full', lang: 'python' })
  })

  it('asks nothing again: a new folder is answered from the response cache, the same folder from its log', async () => {
    const before = server.requests.length
    const fresh = await evalCli(args(join(runs, 'hitab-again')))
    expect(fresh.code).toBe(0)
    expect(fresh.stdout).toContain('**EA 66.7 %** (2 / 3 scored questions')
    expect(lines(join(runs, 'hitab-again')).find((r) => r.question === HITAB.admin)?.qaCalls).toBe(1)
    const resumed = await evalCli(args(join(runs, 'hitab')))
    expect(resumed.code).toBe(0)
    expect(resumed.stdout).toContain('3 questions were taken from an earlier run in the same folder.')
    expect(lines(join(runs, 'hitab'))).toHaveLength(3)
    expect(server.requests.length - before).toBe(0)
  })

  it('refuses bad sampling flags before starting', async () => {
    const run = await evalCli([...args(join(runs, 'never')), '--temperature', '3'])
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/--temperature must be a number from 0 to 2, not 3/)
  })
})

describe('model mode on Spider dev in SQL mode with a named endpoint', () => {
  const options = async (out: string, endpoint = 'scripted-sql'): Promise<EvalOptions> => ({
    source: await openSource({ endpoint }, home),
    dataset: 'spider',
    split: 'dev',
    limit: 3,
    n: 2,
    temperature: 0.2,
    apis: 'full',
    tableRepr: 'multiindex',
    lang: 'sql',
    select: 'logprob',
    concurrency: 2,
    out,
    progress: false
  })

  it('scores SQL and Python candidates, logs a timeout as that question’s model error, and resumes without requests', async () => {
    const out = join(runs, 'spider')
    const before = server.requests.length
    const summary = await evaluate(await options(out))
    expect(summary).toMatchObject({ questions: 3, scored: 3, correct: 2, misses: { model: 1 }, usage: { qaCalls: 1 } })
    const sent = generationRequests(before).filter((r) => !QA_PROMPT.test(r.prompt))
    for (const r of sent) {
      expect(r.path).toBe('/v1/completions')
      expect(r.body).toMatchObject({ n: 2, temperature: 0.2 })
      expect(r.headers['authorization']).toBe(`Bearer ${KEY}`)
    }
    const byQuestion = new Map(lines(out).map((r) => [r.question, r]))
    const count = byQuestion.get(SPIDER.count)
    expect(count).toMatchObject({ correct: true, program: 'SELECT count(*) FROM singer', answer: { kind: 'table', rows: [[6]] } })
    expect(count?.candidates.map((c) => c.lang)).toEqual(['sql', 'python'])
    expect(count?.candidates.map((c) => c.logprobSum)).toEqual([-0.6, -4])
    const total = byQuestion.get(SPIDER.total)
    expect(total).toMatchObject({ correct: false, candidates: [], miss: { category: 'model' } })
    expect(total?.error).toMatch(/^model-timeout: /)
    const byAge = byQuestion.get(SPIDER.byAge)
    expect(byAge).toMatchObject({ correct: true, qaCalls: 1, answer: { kind: 'table' } })
    expect(byAge?.answer?.kind === 'table' && byAge.answer.rows[0]).toEqual(['Joe Sharp', 'Netherlands', 52])

    const again = server.requests.length
    const resumed = await evaluate(await options(out))
    expect(server.requests.length - again).toBe(0)
    expect(resumed).toMatchObject({ questions: 3, correct: 2 })
    expect(resumed.notes.join(' ')).toContain('3 questions were taken from an earlier run')
  })

  it('refuses a named endpoint that does not exist, naming the ones that do', async () => {
    await expect(options(join(runs, 'none'), 'elsewhere')).rejects.toThrow(
      /No endpoint named 'elsewhere'.*there are: On this computer, scripted-sql/
    )
  })
})

describe('a program that is one sqldf call on a literal', () => {
  it('is read as its query; anything else stays Python', () => {
    expect(bareQuery('answer = sqldf("SELECT count(*) FROM singer")')).toBe('SELECT count(*) FROM singer')
    expect(bareQuery("sqldf('''\n  SELECT name\n  FROM singer\n''')\n")).toBe('SELECT name\n  FROM singer')
    expect(bareQuery('q = "SELECT 1"\nanswer = sqldf(q)')).toBeNull()
    expect(bareQuery('answer = sqldf("SELECT \\"a b\\" FROM t")')).toBeNull()
    expect(bareQuery('answer = sqldf("SELECT 1")["x"]')).toBeNull()
  })
})
