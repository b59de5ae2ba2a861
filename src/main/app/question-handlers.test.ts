import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ScriptedServer } from '../../../test/support/scripted-openai-server'
import { startScriptedServer } from '../../../test/support/scripted-openai-server'
import type { AskProgress, AskSummary } from '../../shared/ask'
import type { ParsedTable } from '../../shared/table'
import { MemorySecretStore } from '../services/model'
import { createCPythonExecutor } from '../services/python/cpython-executor'
import type { PythonExecutor } from '../services/python/executor'
import { EndpointRegistry } from '../services/settings'
import { openFileStore } from '../services/store/store'
import { importFileSync } from '../services/tables/import'
import { structureGrid } from '../services/tables/structure'
import type { QuestionHandlers } from './question-handlers'
import { createQuestionHandlers } from './question-handlers'

let server: ScriptedServer
let executor: PythonExecutor
let dir: string
let handlers: QuestionHandlers
const events: AskProgress[] = []
const answered: AskSummary[] = []
/** Tables open in the workspace; a test closes one while its question runs. */
const open = new Set(['t1', 't2'])
let table: ParsedTable

beforeAll(async () => {
  server = await startScriptedServer({
    rules: [
      {
        match: /Question: who scored most\?/,
        reply: { choices: [{ text: '```python\nanswer = df.loc[df["Score"].idxmax(), "Name"]\n```', logprobs: [-1] }] }
      },
      { match: /Question: slow\?/, reply: { delayMs: 5_000, choices: [{ text: '```python\nanswer = 1\n```' }] } },
      { match: /Question: a little slow\?/, reply: { delayMs: 600, choices: [{ text: '```python\nanswer = len(df)\n```' }] } },
      { match: /Question: broken\?/, reply: { fault: { kind: 'status', status: 404, message: 'no such model' } } }
    ]
  })
  executor = createCPythonExecutor({ python: 'python3' })
  dir = mkdtempSync(join(tmpdir(), 'tableqa-qh-'))
  const grids = importFileSync('scores.csv', new TextEncoder().encode('Name,Score\nAnn,3\nBo,10\nCy,7\n'))
  if (!grids.ok || grids.value[0] === undefined) throw new Error('csv did not import')
  table = structureGrid(grids.value[0])
  const secrets = new MemorySecretStore()
  handlers = createQuestionHandlers({
    table: (id) => (open.has(id) ? { name: 'scores.csv', table } : undefined),
    registry: new EndpointRegistry(openFileStore(dir, 'settings').store, secrets),
    secrets,
    executor,
    events: { emit: (_event, payload) => events.push(payload) },
    onAnswered: (s) => answered.push(s)
  })
})

afterAll(async () => {
  await executor?.close()
  await server?.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('question and endpoint handlers', () => {
  it('asks for an endpoint before answering', async () => {
    const result = await handlers['question:ask']({ tableIds: ['t1'], question: 'who scored most?' })
    expect(result.ok || result.error.message).toMatch(/No model endpoint is set up/)
  })

  it('saves, tests and lists endpoints without keys', async () => {
    const saved = await handlers['endpoints:save']({
      endpoint: { name: 'Scripted', baseUrl: server.url, model: 'test-model', api: 'chat' },
      apiKey: 'sk-handler-test-key',
      makeDefault: true
    })
    if (!saved.ok) throw new Error(saved.error.message)
    expect(saved.value).toMatchObject({ hasKey: true, isDefault: true })
    expect(JSON.stringify(await handlers['endpoints:list']())).not.toContain('sk-handler-test-key')
    const tested = await handlers['endpoints:test']({ id: saved.value.id })
    expect(tested.ok && tested.value.modelListed).toBe(true)
    const models = await handlers['endpoints:models']({ id: saved.value.id })
    expect(models.ok && models.value).toEqual(['test-model'])
  })

  it('answers with the default endpoint, emitting progress, and reports the answer', async () => {
    const result = await handlers['question:ask']({ askId: 'a1', tableIds: ['t1'], question: 'who scored most?', options: { n: 2 } })
    if (!result.ok) throw new Error(result.error.message)
    expect(result.value.answer?.text).toBe('Bo')
    expect(events.filter((e) => e.askId === 'a1').map((e) => e.message)).toEqual(
      expect.arrayContaining(['generating 2/2', 'executing 1/2', 'executing 2/2'])
    )
    expect(answered.map((s) => s.askId)).toContain('a1')
  })

  it('refuses unknown tables and cancels a running question', async () => {
    const missing = await handlers['question:ask']({ tableIds: ['gone'], question: 'who scored most?' })
    expect(missing.ok || missing.error.code).toBe('not-found')
    const pending = handlers['question:ask']({ askId: 'slow-1', tableIds: ['t1'], question: 'slow?', options: { n: 1 } })
    await new Promise((r) => setTimeout(r, 150))
    expect((await handlers['question:cancel']({ askId: 'slow-1' })).ok).toBe(true)
    const result = await pending
    expect(result.ok || result.error.code).toBe('cancelled')
    expect((await handlers['question:cancel']({ askId: 'slow-1' })).ok).toBe(false)
  })

  it('keeps a question that failed in history, with the reason', async () => {
    const result = await handlers['question:ask']({ askId: 'fails-1', tableIds: ['t1'], question: 'broken?', options: { n: 1 } })
    expect(result.ok).toBe(false)
    const kept = answered.find((s) => s.askId === 'fails-1')
    expect(kept?.question).toBe('broken?')
    expect(kept?.answer).toBeNull()
    expect(kept?.problem?.code).toBe(result.ok ? undefined : result.error.code)
    expect(answered.find((s) => s.askId === 'slow-1')?.problem?.code).toBe('cancelled')
  })

  it('finishes and keeps a question whose table is closed while it runs', async () => {
    const pending = handlers['question:ask']({ askId: 'closing', tableIds: ['t2'], question: 'a little slow?', options: { n: 1 } })
    await new Promise((r) => setTimeout(r, 100))
    open.delete('t2')
    const result = await pending
    expect(result.ok && result.value.answer?.text).toBe('3')
    expect(answered.find((s) => s.askId === 'closing')?.answer?.text).toBe('3')
    const after = await handlers['question:ask']({ tableIds: ['t2'], question: 'a little slow?' })
    expect(after.ok || after.error.code).toBe('not-found')
  })
})
