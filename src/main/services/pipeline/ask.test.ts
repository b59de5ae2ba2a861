import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Choice, Rule, ScriptedServer } from '../../../../test/support/scripted-openai-server'
import { startScriptedServer } from '../../../../test/support/scripted-openai-server'
import type { AskProgress } from '../../../shared/ask'
import { programAtRound, repairDepth } from '../../../shared/ask'
import type { EndpointConfig } from '../../../shared/model'
import type { ParsedTable } from '../../../shared/table'
import { MemorySecretStore, ModelClient } from '../model'
import { datasetsDir } from '../paths'
import { createCPythonExecutor } from '../python/cpython-executor'
import { probePython } from '../python/cpython-channel'
import type { PythonExecutor } from '../python/executor'
import { importFile } from '../tables/import'
import { structureGrid } from '../tables/structure'
import type { AskRequest } from './ask'
import { MAX_QUESTION_CHARS, ask } from './ask'
import { REPEATED_NOTE } from './repair'

const QUESTION = 'how many percent of black male workers were employed in the transportation and warehousing sector?'
const QA_PROMPT = /^Answer the question in as few words as possible/

const fenced = (code: string): string => `Here is the program.\n\n\`\`\`python\n${code}\n\`\`\`\n`
const hitabCandidates: Choice[] = [
  { text: fenced('answer = lookup(df, "transportation and warehousing", ("black male workers", "total"))'), logprobs: [-1, -1, -1, -1] },
  { text: fenced('answer = df.loc["transport", "black"]'), logprobs: [-1.5, -1.5] },
  {
    text: fenced(
      'sector = qa("Which industry sector includes airlines and trucking?")\nanswer = lookup(df, sector, ("black male workers", "total"))'
    ),
    logprobs: [-2, -2, -2]
  },
  {
    text: fenced('answer = df.loc[("percent", "transportation and warehousing"), ("black male workers", "total")]'),
    logprobs: [-2.5, -2.5]
  },
  { text: 'I cannot answer this from the table.', logprobs: [-4, -4] }
]

let server: ScriptedServer
let executor: PythonExecutor
let hitab: ParsedTable
let spider: { name: string; table: ParsedTable }[]
let spiderSingers = 0

function endpoint(overrides: Partial<EndpointConfig> = {}): EndpointConfig {
  return {
    id: 'e1',
    name: 'scripted',
    baseUrl: server.url,
    model: 'test-model',
    api: 'chat',
    timeoutMs: 10_000,
    maxRetries: 0,
    promptTokenBudget: 8_000,
    ...overrides
  }
}

function client(overrides: Partial<EndpointConfig> = {}): ModelClient {
  return new ModelClient(endpoint(overrides), { secrets: new MemorySecretStore() })
}

function askHitab(extra: Partial<AskRequest> = {}, cfg: Partial<EndpointConfig> = {}): ReturnType<typeof ask> {
  return ask({ tables: [{ name: 'HiTab 1008', table: hitab }], question: QUESTION, ...extra }, { client: client(cfg), executor })
}

const TOTAL_READ = 'df.loc[("percent", "transportation and warehousing"), ("black male workers", "total")]'

const rules: Rule[] = [
  { match: QA_PROMPT, reply: { choices: [{ text: 'transportation and warehousing' }] } },
  {
    match: /Question: how many singers do we have\?\nReply/,
    reply: { choices: [{ text: fenced('answer = sqldf("SELECT COUNT(*) FROM singer")'), logprobs: [-1, -1] }] }
  },
  { match: /Question: silent program\?/, reply: { choices: [{ text: fenced('x = 1'), logprobs: [-1] }] } },
  // Several values where one number was asked: the repair is shown the read of each, and copies one.
  {
    match: (r) =>
      r.prompt.includes('Question: how many percent of black male workers worked in transportation?') &&
      r.prompt.includes('That program did not work'),
    reply: { choices: [{ text: fenced(`answer = ${TOTAL_READ}`), logprobs: [-0.2] }] }
  },
  {
    match: /Question: how many percent of black male workers worked in transportation\?/,
    reply: {
      choices: [{ text: fenced('answer = df.loc[("percent", "transportation and warehousing"), "black male workers"]'), logprobs: [-1] }]
    }
  },
  { match: /Question: no code at all\?/, reply: { choices: [{ text: 'Sorry, I only chat.', logprobs: [-1] }] } },
  {
    match: /Question: whole table\?/,
    reply: {
      choices: [
        { text: fenced('import pandas as pd\nanswer = pd.DataFrame({"a": range(1_000_000), "b": range(1_000_000)})'), logprobs: [-1] }
      ]
    }
  },
  { match: /Question: slow\?/, reply: { delayMs: 5_000, choices: [{ text: fenced('answer = 1') }] } },
  { match: /without log-probs/, reply: { choices: hitabCandidates.map((c) => ({ text: c.text })) } },
  // 'canada' and '2016' are words of the table's title, no header of it.
  {
    match: /Question: how many percent of black male workers in canada were in transportation and warehousing in 2016\?\nReply/,
    reply: {
      choices: [
        {
          text: fenced('answer = df.loc["canada", "transportation and warehousing", ("black male workers", "total"), "2016"]'),
          logprobs: [-1]
        }
      ]
    }
  },
  // 'total' stands under both kinds of workers; the question names one of them.
  {
    match: /Question: how many percent of other male workers were in transportation and warehousing\?\nReply/,
    reply: { choices: [{ text: fenced('answer = df.loc["transportation and warehousing", "total"]'), logprobs: [-1] }] }
  },
  // Three programs read the whole row where one number was asked; one reads the cell.
  {
    match: /Question: how many percent in the row\?/,
    reply: {
      choices: [
        ...[-1, -1.1, -1.2].map((lp) => ({
          text: fenced('answer = df.loc[("percent", "transportation and warehousing")]'),
          logprobs: [lp]
        })),
        { text: fenced('answer = lookup(df, "transportation and warehousing", ("black male workers", "total"))'), logprobs: [-4] }
      ]
    }
  },
  // A greedy repair that repeats the failed program; asked again at the question's temperature, a fix.
  {
    match: (r) => r.prompt.includes('Question: repeated repair?') && r.prompt.includes('That program did not work'),
    reply: (r) => ({
      choices: [
        {
          text: fenced(
            r.body?.['temperature'] === 0
              ? 'answer = df.loc["transport", "black"]  \n'
              : 'answer = lookup(df, "transportation and warehousing", ("black male workers", "total"))'
          ),
          logprobs: [-0.2]
        }
      ]
    })
  },
  // A correction that fails too: corrected again with its own program and error.
  {
    match: (r) =>
      r.prompt.includes('Question: twice repaired?') &&
      r.prompt.includes('That program did not work') &&
      r.prompt.includes('df.loc["transportation and warehousing", "black"]'),
    reply: {
      choices: [
        { text: fenced('answer = lookup(df, "transportation and warehousing", ("black male workers", "total"))'), logprobs: [-0.1] }
      ]
    }
  },
  {
    match: (r) => r.prompt.includes('Question: twice repaired?') && r.prompt.includes('That program did not work'),
    reply: { choices: [{ text: fenced('answer = df.loc["transportation and warehousing", "black"]'), logprobs: [-0.3] }] }
  },
  { match: /Question: twice repaired\?/, reply: { choices: [{ text: fenced('answer = df.loc["transport", "black"]'), logprobs: [-1] }] } },
  // A condition that matches no row leaves the answer empty; its repair is told which, as the bench tells it.
  {
    match: (r) => r.prompt.includes('Question: which singers are from holland?') && r.prompt.includes('That program did not work'),
    reply: { choices: [{ text: fenced('answer = df[df["Country"] == "Netherlands"]["Name"].tolist()'), logprobs: [-0.2] }] }
  },
  {
    match: /Question: which singers are from holland\?/,
    reply: { choices: [{ text: fenced('answer = df[df["Country"] == "netherlands"]["Name"].tolist()'), logprobs: [-1] }] }
  },
  { match: /Question: repeated repair\?/, reply: { choices: [{ text: fenced('answer = df.loc["transport", "black"]'), logprobs: [-1] }] } },
  // Execution feedback: the failed program and its error come back; the model corrects the header.
  {
    match: /That program did not work: KeyError[\s\S]*Write a corrected program/,
    reply: {
      choices: [
        { text: fenced('answer = lookup(df, "transportation and warehousing", ("black male workers", "total"))'), logprobs: [-0.1] }
      ]
    }
  },
  { match: (r) => r.prompt.includes(`Question: ${QUESTION}`), reply: { choices: hitabCandidates } }
]

beforeAll(async () => {
  const probe = await probePython('python3')
  if (!probe.ok || probe.pandas === null)
    throw new Error('The pipeline tests need python3 with pandas (pip install -r python/requirements-test.txt).')
  server = await startScriptedServer({ rules })
  executor = createCPythonExecutor({ python: 'python3', defaultTimeoutMs: 20_000 })
  const file = join(datasetsDir(), 'hitab', 'data', 'tables', 'raw', '1008.json')
  const grids = await importFile('1008.json', new Uint8Array(readFileSync(file)))
  if (!grids.ok || grids.value[0] === undefined) throw new Error('HiTab table 1008 did not import')
  hitab = structureGrid(grids.value[0])
  const db = join(datasetsDir(), 'spider', 'database', 'concert_singer', 'concert_singer.sqlite')
  const tables = await importFile('concert_singer.sqlite', new Uint8Array(readFileSync(db)))
  if (!tables.ok) throw new Error('Spider concert_singer did not import')
  spider = tables.value.map((g) => ({ name: g.name, table: structureGrid(g) }))
  const count = spawnSync(
    'python3',
    ['-c', `import sqlite3; print(sqlite3.connect(${JSON.stringify(db)}).execute("select count(*) from singer").fetchone()[0])`],
    { encoding: 'utf8' }
  )
  spiderSingers = Number(count.stdout.trim())
})

afterAll(async () => {
  await executor?.close()
  await server?.close()
})

describe('ask on a HiTab table', () => {
  it('samples five programs, runs them, answers a qa() call and picks by log-probability when asked to', async () => {
    const events: AskProgress[] = []
    const before = server.requests.length
    const result = await askHitab({ options: { selection: 'logprob' }, onProgress: (e) => events.push(e) })
    if (!result.ok) throw new Error(result.error.message)
    const s = result.value
    expect(s.kind).toBe('hierarchical')
    expect(s.executor).toBe('cpython')
    expect(s.candidates).toHaveLength(5)
    expect(s.candidates.map((c) => c.logprobSum)).toEqual([-4, -3, -6, -5, -8])
    // Candidate 2 fails (KeyError), candidate 5 has no code; the other three agree.
    expect(s.candidates.map((c) => c.result.ok)).toEqual([true, false, true, true, false])
    expect(s.candidates[1]?.result.ok === false && s.candidates[1].result.error.code).toBe('python-error')
    expect(s.candidates[1]?.result.ok === false && s.candidates[1].result.error.detail).toMatch(/^Traceback[\s\S]*KeyError/)
    expect(s.candidates[4]?.result.ok === false && s.candidates[4].result.error.code).toBe('model-no-code')
    expect(s.candidates.map((c) => c.answerKey)).toEqual(['11.1', null, '11.1', '11.1', null])
    expect(s.candidates[2]?.qaCalls).toBe(1)
    expect(s.qaCalls).toBe(1)
    // The most probable program failed, so the most probable one that ran answers.
    expect(s.selection?.mode).toBe('logprob')
    expect(s.selection?.ranking[0]).toBe(1)
    expect(s.chosen).toBe(0)
    expect(s.answer?.items).toEqual([{ value: 11.1, type: 'number' }])
    expect(s.program).toContain('lookup(df, "transportation and warehousing"')
    expect(s.notes.join(' ')).toMatch(/most probable program \(candidate 2\) failed/)
    expect(s.promptTokens).toBeGreaterThan(1000)
    expect(s.promptTokens).toBeLessThanOrEqual(8_000)
    const messages = events.map((e) => e.message)
    expect(messages).toContain('generating 5/5')
    for (let k = 1; k <= 5; k += 1) expect(messages).toContain(`executing ${k}/5`)
    expect(messages).toContain('qa call 1')
    // One generation request (n honoured) plus one QA request; the QA prompt carries the sub-question.
    const mine = server.requests.slice(before)
    expect(mine.filter((r) => r.path === '/v1/chat/completions')).toHaveLength(2)
    expect(mine.some((r) => QA_PROMPT.test(r.prompt) && r.prompt.includes('Which industry sector includes airlines and trucking?'))).toBe(
      true
    )
    const generation = mine.find((r) => r.prompt.includes(`Question: ${QUESTION}`))
    expect(generation?.body?.['n']).toBe(5)
    expect(generation?.body?.['temperature']).toBe(0.7)
    expect(generation?.prompt).toContain("('black male workers', 'total')")
  })

  it('corrects a failed program once with its error, says so, and leaves a reply without code alone', async () => {
    const before = server.requests.length
    const events: AskProgress[] = []
    const result = await askHitab({ options: { repair: true, selection: 'vote' }, onProgress: (e) => events.push(e) })
    if (!result.ok) throw new Error(result.error.message)
    const s = result.value
    expect(s.candidates.map((c) => c.result.ok)).toEqual([true, true, true, true, false])
    const fixed = s.candidates[1]
    expect(fixed?.repairedFrom?.program).toBe('answer = df.loc["transport", "black"]')
    expect(fixed?.repairedFrom?.error).toMatch(/KeyError/)
    expect(fixed?.program).toContain('lookup(df, "transportation and warehousing"')
    // It keeps its sample's log-probability; the reply without code was not asked again.
    expect(fixed?.logprobSum).toBe(-3)
    expect(s.candidates[4]?.repairedFrom).toBeUndefined()
    expect(s.selection?.votes?.[0]).toMatchObject({ key: '11.1', count: 4 })
    const repairs = server.requests.slice(before).filter((r) => r.prompt.includes('That program did not work'))
    expect(repairs).toHaveLength(1)
    // The repair continues the question's own conversation, greedily.
    expect(repairs[0]?.prompt).toContain(`Question: ${QUESTION}`)
    expect(repairs[0]?.body?.['temperature']).toBe(0)
    expect(events.some((e) => e.candidate?.repaired === true && e.candidate.answer === '11.1')).toBe(true)
  })

  it("asks a repair that repeats the failed program once more, at the question's temperature", async () => {
    const before = server.requests.length
    const result = await ask(
      { tables: [{ name: 'HiTab 1008', table: hitab }], question: 'repeated repair?', options: { n: 1, repair: true, temperature: 0.5 } },
      { client: client(), executor }
    )
    if (!result.ok) throw new Error(result.error.message)
    const fixed = result.value.candidates[0]
    expect(fixed?.result.ok).toBe(true)
    expect(fixed?.repairedFrom?.program).toBe('answer = df.loc["transport", "black"]')
    expect(result.value.answer?.items).toEqual([{ value: 11.1, type: 'number' }])
    const repairs = server.requests.slice(before).filter((r) => r.prompt.includes('That program did not work'))
    expect(repairs.map((r) => r.body?.['temperature'])).toEqual([0, 0.5])
    // The second time, the model is told that the same program fails the same way.
    expect(repairs.map((r) => r.prompt.includes(REPEATED_NOTE))).toEqual([false, true])
  })

  it('corrects a correction that fails again with its own program and error, up to the rounds asked', async () => {
    const twice = async (repairRounds?: number) => {
      const before = server.requests.length
      const result = await ask(
        {
          tables: [{ name: 'HiTab 1008', table: hitab }],
          question: 'twice repaired?',
          options: { n: 1, repair: true, ...(repairRounds === undefined ? {} : { repairRounds }) }
        },
        { client: client(), executor }
      )
      if (!result.ok) throw new Error(result.error.message)
      const repairs = server.requests.slice(before).filter((r) => r.prompt.includes('That program did not work'))
      return { s: result.value, repairs }
    }
    // One round (the default): the correction fails too and stays as it is.
    const one = await twice()
    expect(one.repairs).toHaveLength(1)
    expect(one.s.candidates[0]?.result.ok).toBe(false)
    expect(one.s.candidates[0]?.program).toBe('answer = df.loc["transportation and warehousing", "black"]')
    expect(repairDepth(one.s.candidates[0]?.repairedFrom)).toBe(1)
    // Two rounds: the second repair is asked with the correction and its own error only.
    const two = await twice(2)
    expect(two.repairs).toHaveLength(2)
    expect(two.repairs[1]?.prompt).toContain('df.loc["transportation and warehousing", "black"]')
    expect(two.repairs[1]?.prompt).not.toContain('df.loc["transport", "black"]')
    const fixed = two.s.candidates[0]
    expect(fixed?.result.ok).toBe(true)
    expect(two.s.answer?.items).toEqual([{ value: 11.1, type: 'number' }])
    expect(fixed?.repairedFrom?.program).toBe('answer = df.loc["transportation and warehousing", "black"]')
    expect(fixed?.repairedFrom?.before?.program).toBe('answer = df.loc["transport", "black"]')
    expect(fixed?.repairedFrom?.before?.before).toBeUndefined()
    expect(programAtRound(fixed?.program ?? '', fixed?.repairedFrom, 0)).toBe('answer = df.loc["transport", "black"]')
  })

  it('tells the repair of an empty answer which condition matched no row, in the words the bench uses', async () => {
    const singer = spider.find((t) => t.name.endsWith('› singer'))
    if (singer === undefined) throw new Error('no singer table')
    const before = server.requests.length
    const result = await ask(
      { tables: [{ name: 'singer', table: singer.table }], question: 'which singers are from holland?', options: { n: 1, repair: true } },
      { client: client(), executor }
    )
    if (!result.ok) throw new Error(result.error.message)
    const repairs = server.requests.slice(before).filter((r) => r.prompt.includes('That program did not work'))
    expect(repairs).toHaveLength(1)
    expect(repairs[0]?.prompt).toContain("The answer is empty, because df['Country'] == 'netherlands' matched no row; cells of 'Country'")
    expect(repairs[0]?.prompt).toContain('compare with the value as the cells write it')
    const fixed = result.value.candidates[0]
    expect(fixed?.repairedFrom?.error).toMatch(/^The answer is empty, because/)
    expect(result.value.answer?.items).toEqual([{ value: 'Joe Sharp', type: 'string' }])
  })

  it('refuses a number of repair rounds out of range', async () => {
    for (const repairRounds of [0, 4, 1.5]) {
      const result = await ask(
        { tables: [{ name: 'HiTab 1008', table: hitab }], question: 'twice repaired?', options: { repair: true, repairRounds } },
        { client: client(), executor }
      )
      expect(result.ok ? null : result.error.message).toBe('repairRounds must be a whole number from 1 to 3.')
    }
  })

  it('leaves whole rows out of the vote where one number was asked and a program gave one value', async () => {
    const result = await ask(
      { tables: [{ name: 'HiTab 1008', table: hitab }], question: 'how many percent in the row?', options: { n: 4, selection: 'vote' } },
      { client: client(), executor }
    )
    if (!result.ok) throw new Error(result.error.message)
    const s = result.value
    expect(s.candidates.map((c) => c.result.ok === true && c.result.answer.table?.rowCount)).toEqual([8, 8, 8, undefined])
    expect(s.chosen).toBe(3)
    expect(s.answer?.items).toEqual([{ value: 11.1, type: 'number' }])
    expect(s.notes).toContain('Candidates 1, 2 and 3 gave several values where one number was asked, so they took no part in the choice.')
  })

  it('runs each program with its question: a label under several parents reads as the one the question names, and says so', async () => {
    const result = await ask(
      {
        tables: [{ name: 'HiTab 1008', table: hitab }],
        question: 'how many percent of other male workers were in transportation and warehousing?',
        options: { n: 1 }
      },
      { client: client(), executor }
    )
    if (!result.ok) throw new Error(result.error.message)
    expect(result.value.answer?.items).toEqual([{ value: 7.1, type: 'number' }])
    expect(result.value.answer?.note).toContain("column ('other male workers', 'total')")
  })

  it("hands the table's title to the runtime, which reads a key without the title's words and says so", async () => {
    const result = await ask(
      {
        tables: [{ name: 'HiTab 1008', table: hitab }],
        question: 'how many percent of black male workers in canada were in transportation and warehousing in 2016?',
        options: { n: 1 }
      },
      { client: client(), executor }
    )
    if (!result.ok) throw new Error(result.error.message)
    expect(result.value.answer?.items).toEqual([{ value: 11.1, type: 'number' }])
    expect(result.value.answer?.note).toContain("without 'canada', '2016' (the table's title, no header)")
  })

  it('shows the repair of several values where one number was asked the read of each value, to copy the one asked for', async () => {
    const question = 'how many percent of black male workers worked in transportation?'
    const before = server.requests.length
    const result = await ask(
      { tables: [{ name: 'df', table: hitab }], question, options: { n: 1, repair: true } },
      { client: client(), executor }
    )
    if (!result.ok) throw new Error(result.error.message)
    const repairs = server.requests.slice(before).filter((r) => r.prompt.includes('That program did not work'))
    expect(repairs).toHaveLength(1)
    expect(repairs[0]?.prompt).toContain(
      'The answer is 4 values, but the question asks for one number. Each value, and the read that gives it alone:\n'
    )
    expect(repairs[0]?.prompt).toContain(`${TOTAL_READ}  # 11.1\n`)
    expect(repairs[0]?.prompt).toContain(
      'df.loc[("percent", "transportation and warehousing"), ("black male workers", "immigrant")]  # 12.2\n'
    )
    expect(result.value.candidates[0]?.repairedFrom?.error).toMatch(/^The answer is 4 values/)
    expect(result.value.answer?.items).toEqual([{ value: 11.1, type: 'number' }])
  })

  it('asks no repair of a hosted endpoint unless told to', async () => {
    const before = server.requests.length
    const result = await askHitab()
    if (!result.ok) throw new Error(result.error.message)
    expect(result.value.candidates.some((c) => c.repairedFrom !== undefined)).toBe(false)
    expect(server.requests.slice(before).some((r) => r.prompt.includes('That program did not work'))).toBe(false)
  })

  it('chooses by execution vote unless told otherwise, the most probable program of the largest group first', async () => {
    const result = await askHitab()
    if (!result.ok) throw new Error(result.error.message)
    expect(result.value.selection?.requested).toBe('vote')
    expect(result.value.selection?.mode).toBe('vote')
    expect(result.value.selection?.votes?.[0]).toMatchObject({ key: '11.1', count: 3 })
    // Candidates 1, 3 and 4 agree (log-probabilities -4, -6, -5): the most probable of them, candidate 1.
    expect(result.value.selection?.ranking.slice(0, 3)).toEqual([0, 3, 2])
    expect(result.value.chosen).toBe(0)
    expect(result.value.notes.join(' ')).not.toMatch(/most probable program/)
  })

  it('falls back to a vote, and says so, when the endpoint gives no log-probabilities', async () => {
    const result = await ask(
      { tables: [{ name: 'HiTab 1008', table: hitab }], question: `${QUESTION} (without log-probs)`, options: { selection: 'logprob' } },
      { client: client(), executor }
    )
    if (!result.ok) throw new Error(result.error.message)
    expect(result.value.candidates.every((c) => c.logprobSum === null)).toBe(true)
    expect(result.value.selection?.mode).toBe('vote')
    expect(result.value.selection?.fallbackReason).toMatch(/no log-probabilities/)
    expect(result.value.answer?.items[0]?.value).toBe(11.1)
  })

  it('shows the flattened table in the ablation mode', async () => {
    const before = server.requests.length
    await askHitab({ options: { tableRepr: 'flatten', n: 1 } })
    const sent = server.requests.slice(before).find((r) => r.prompt.includes(`Question: ${QUESTION}`))
    expect(sent?.prompt).toContain("'black male workers - total'")
    expect(sent?.prompt).not.toContain("('black male workers', 'total')")
  })
})

describe('ask in SQL mode on a Spider database', () => {
  it('binds each table to its name and runs the query through sqldf', async () => {
    const before = server.requests.length
    const result = await ask(
      { tables: spider, question: 'how many singers do we have?', options: { mode: 'sql', n: 1 } },
      { client: client(), executor }
    )
    if (!result.ok) throw new Error(result.error.message)
    expect(result.value.kind).toBe('multi-table')
    expect(result.value.answer?.items).toEqual([{ value: spiderSingers, type: 'number' }])
    const sent = server.requests.slice(before)[0]?.prompt ?? ''
    expect(sent).toContain('SQLite queries')
    for (const name of ['stadium', 'singer', 'concert', 'singer_in_concert'])
      expect(sent).toContain(`Table ${name}: concert_singer.sqlite › ${name}`)
  })
})

describe('ask with bad input', () => {
  it('refuses an empty question and one of 10,000 characters', async () => {
    const empty = await askHitab({ question: '   ' })
    expect(empty.ok || empty.error).toMatchObject({ code: 'bad-input', message: expect.stringMatching(/question is empty/) as unknown })
    const long = await askHitab({ question: 'why '.repeat(2_500) })
    expect(long.ok || long.error).toMatchObject({
      code: 'bad-input',
      message: expect.stringContaining(`limit is ${MAX_QUESTION_CHARS.toLocaleString('en-US')}`) as unknown
    })
  })

  it('says when the URL is not an OpenAI-compatible API, and when the model is unknown', async () => {
    const notApi = await askHitab({ options: { n: 1 } }, { baseUrl: `${server.origin}/not-an-api` })
    expect(notApi.ok).toBe(false)
    if (!notApi.ok) expect(notApi.error.message).toMatch(/OpenAI-compatible/)
    const unknown = await askHitab({ options: { n: 1 } }, { model: 'no-such-model' })
    expect(unknown.ok).toBe(false)
    if (!unknown.ok) expect(unknown.error.message).toMatch(/no-such-model/)
  })

  it('says when no reply holds code', async () => {
    const result = await askHitab({ question: 'no code at all?', options: { n: 2 } })
    expect(result.ok || result.error).toMatchObject({
      code: 'model-no-code',
      message: expect.stringMatching(/None of the 2 replies held a Python program/) as unknown
    })
  })

  it('says when a program gives no answer', async () => {
    const result = await askHitab({ question: 'silent program?', options: { n: 1 } })
    if (!result.ok) throw new Error(result.error.message)
    expect(result.value.answer).toBeNull()
    expect(result.value.problem?.code).toBe('no-answer')
    expect(result.value.problem?.message).toMatch(/neither assigned `answer`/)
  })

  it('caps an answer of a million rows with a note', async () => {
    const result = await askHitab({ question: 'whole table?', options: { n: 1 } })
    if (!result.ok) throw new Error(result.error.message)
    expect(result.value.answer?.items).toHaveLength(1_000)
    expect(result.value.answer?.note).toMatch(/1,000,000 rows × 2 columns; only the first 1,000 values are kept/)
  })

  it('stops when cancelled', async () => {
    const controller = new AbortController()
    const pending = askHitab({ question: 'slow?', options: { n: 1 }, signal: controller.signal })
    setTimeout(() => controller.abort(), 200)
    const result = await pending
    expect(result.ok || result.error.code).toBe('cancelled')
  })
})
