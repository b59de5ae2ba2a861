import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MemorySecretStore } from '../../src/main/services/model'
import { appRoot, datasetsDir } from '../../src/main/services/paths'
import { EndpointRegistry, SETTINGS_STORE } from '../../src/main/services/settings'
import { openFileStore } from '../../src/main/services/store/store'
import type { ScriptedServer } from '../support/scripted-openai-server'
import { startScriptedServer } from '../support/scripted-openai-server'

const QUESTION = 'what percent of immigrant black male workers worked in manufacturing?'
const TABLE_QUESTION = 'show the first three rows for black male workers'
const TABLE = join(datasetsDir(), 'hitab', 'data', 'tables', 'raw', '1008.json')
const fenced = (code: string): string => `\`\`\`python\n${code}\n\`\`\``

let server: ScriptedServer
let home: string

type Run = { code: number; stdout: string; stderr: string }

function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      join(appRoot(), 'node_modules', '.bin', 'tsx'),
      [join(appRoot(), 'scripts', 'ask.ts'), ...args],
      { cwd: appRoot(), env: { ...process.env, TABLEQA_HOME: home, ...env }, timeout: 120_000 },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr })
      }
    )
  })
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'tableqa-ask-cli-'))
  server = await startScriptedServer({
    requireKey: 'sk-cli-test-key-0001',
    rules: [
      {
        match: (r) => r.prompt.includes(`Question: ${QUESTION}`),
        reply: {
          choices: [
            { text: fenced('answer = lookup(df, "manufacturing", ("black male workers", "immigrant"))'), logprobs: [-1, -1] },
            { text: fenced('answer = df.loc[("percent", "manufacturing"), ("black male workers", "immigrant")]'), logprobs: [-2, -2] },
            { text: fenced('answer = df.loc["nowhere"]'), logprobs: [-0.5, -0.5] }
          ]
        }
      },
      {
        match: (r) => r.prompt.includes(`Question: ${TABLE_QUESTION}`),
        reply: { choices: [{ text: fenced('answer = df["black male workers"].head(3)'), logprobs: [-1] }] }
      }
    ]
  })
  const registry = new EndpointRegistry(openFileStore(home, SETTINGS_STORE).store, new MemorySecretStore())
  const saved = await registry.save({ name: 'scripted', baseUrl: server.url, model: 'test-model', api: 'chat' }, 'not-the-real-key-here')
  if (!saved.ok) throw new Error(saved.error.message)
})

afterAll(async () => {
  await server?.close()
  rmSync(home, { recursive: true, force: true })
})

describe('npm run ask', () => {
  it('answers with --base-url and --json, machine-readable, and says which executor ran', async () => {
    const run = await cli(
      [
        '--table',
        TABLE,
        '--question',
        QUESTION,
        '--base-url',
        server.url,
        '--model',
        'test-model',
        '--api-key-env',
        'CLI_TEST_KEY',
        '--n',
        '3',
        '--json'
      ],
      { CLI_TEST_KEY: 'sk-cli-test-key-0001' }
    )
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const out = JSON.parse(run.stdout) as {
      ok: boolean
      answer: { items: unknown[] }
      candidates: { result: { ok: boolean } }[]
      chosen: number
      executorChoice: { kind: string; why: string }
      notes: string[]
    }
    expect(out.ok).toBe(true)
    expect(out.answer.items).toEqual([{ value: 24.2, type: 'number' }])
    expect(out.candidates.map((c) => c.result.ok)).toEqual([true, true, false])
    expect(out.chosen).toBe(0)
    expect(out.executorChoice.kind).toBe('cpython')
    expect(out.executorChoice.why).toMatch(/pandas/)
    expect(run.stdout).not.toContain('sk-cli-test-key-0001')
  })

  it('answers with a named endpoint from the settings, in text form', async () => {
    const run = await cli(
      ['--table', TABLE, '--question', QUESTION, '--endpoint', 'scripted', '--api-key-env', 'CLI_TEST_KEY', '--n', '3', '--select', 'vote'],
      { CLI_TEST_KEY: 'sk-cli-test-key-0001' }
    )
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^Executor: cpython/m)
    expect(run.stdout).toMatch(/^Answer: 24\.2$/m)
    expect(run.stdout).toMatch(/^Chosen: candidate 1 by vote$/m)
    expect(run.stdout).toContain('Candidates:')
    // Progress on stderr: each candidate's answer as soon as it ran.
    expect(run.stderr).toContain('generating 3/3')
    expect(run.stderr).toMatch(/candidate 3 ran: failed \(KeyError/)
  })

  it('prints a table answer as a grid, headed by its size', async () => {
    const run = await cli(
      ['--table', TABLE, '--question', TABLE_QUESTION, '--endpoint', 'scripted', '--api-key-env', 'CLI_TEST_KEY', '--n', '1'],
      { CLI_TEST_KEY: 'sk-cli-test-key-0001' }
    )
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^Answer: A table of 3 rows × 4 columns$/m)
    // Its header row (the index has no name), then one row per index path with the values aligned under it.
    const lines = run.stdout.split('\n')
    const at = lines.findIndex((l) => l.startsWith('Answer: '))
    expect(lines[at + 1]).toMatch(/^ +immigrant {2}second generation {2}third generation or more {2}total$/)
    expect(lines[at + 2]).toMatch(/^ {4}percent {2}agriculture, forestry, fishing and hunting +0\.7 +0\.3 +1\.3 +0\.8$/)
    // Numbers are right-aligned: every row, like the header, ends at the same column.
    expect(new Set(lines.slice(at + 1, at + 5).map((l) => l.length)).size).toBe(1)
    // The candidate list heads it the same way.
    expect(run.stdout).toMatch(/^ {2}1\. \[log-prob -1\.00\] A table of 3 rows × 4 columns$/m)
  })

  it('fails clearly without the key, with an unknown endpoint, and with bad flags', async () => {
    const noKey = await cli(['--table', TABLE, '--question', QUESTION, '--endpoint', 'scripted', '--n', '1', '--json'], {
      TABLEQA_API_KEY: ''
    })
    expect(noKey.code).toBe(1)
    expect((JSON.parse(noKey.stdout) as { error: { code: string } }).error.code).toBe('unauthorized')
    const unknown = await cli(['--table', TABLE, '--question', QUESTION, '--endpoint', 'elsewhere'])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toMatch(/No endpoint named 'elsewhere'.*there are: On this computer, scripted/)
    const bad = await cli(['--table', TABLE, '--question', QUESTION, '--endpoint', 'scripted', '--select', 'best'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/--select must be one of logprob, vote, greedy/)
  })

  it('answers a repeated question from the response cache, and --clear-cache empties it', async () => {
    const args = [
      '--table',
      TABLE,
      '--question',
      QUESTION,
      '--base-url',
      server.url,
      '--model',
      'test-model',
      '--api-key-env',
      'CLI_TEST_KEY',
      '--n',
      '3',
      '--json'
    ]
    const env = { CLI_TEST_KEY: 'sk-cli-test-key-0001' }
    expect((await cli(args, env)).code).toBe(0)
    const before = server.requests.length
    const again = await cli(args, env)
    expect(again.code).toBe(0)
    expect(server.requests.length).toBe(before)
    const cleared = await cli(['--clear-cache'])
    expect(cleared.stdout).toMatch(/Cleared the response cache: [1-9]\d* replies/)
    expect((await cli(args, env)).code).toBe(0)
    expect(server.requests.length).toBeGreaterThan(before)
  })
})
