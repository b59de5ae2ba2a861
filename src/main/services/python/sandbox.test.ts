import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HOSTILE_PROGRAMS, type HostileProgram } from '../../../../test/fixtures/hostile/corpus'
import { testExecutor } from '../../../../test/support/executor'
import type { PythonExecutor } from './executor'

const SECRET = 'canary-secret-7d1f'
const SECRET_ENV = 'TABLEQA_CANARY_API_KEY'
let executor: PythonExecutor
let canary: Server
let hits = 0
let fill: (code: string) => string = (code) => code
let canaryDir = ''
let canaryFile = ''

beforeAll(async () => {
  canary = createServer((_request, response) => {
    hits += 1
    response.end('reached')
  })
  await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve))
  const port = (canary.address() as AddressInfo).port
  canaryDir = mkdtempSync(join(tmpdir(), 'tableqa-canary-'))
  canaryFile = join(canaryDir, 'secret.txt')
  writeFileSync(canaryFile, SECRET)
  process.env[SECRET_ENV] = SECRET
  const values: Record<string, string> = {
    CANARY_URL: `http://127.0.0.1:${port}/`,
    CANARY_WS: `ws://127.0.0.1:${port}/`,
    CANARY_FILE: canaryFile,
    CANARY_DIR: canaryDir,
    HOST_HOME: homedir(),
    SECRET_ENV,
    STORE_FILE: join(canaryDir, 'history.json')
  }
  fill = (code) => code.replace(/\{\{(\w+)\}\}/g, (_m, key: string) => values[key] ?? '')
  executor = testExecutor({ poolSize: 2, killGraceMs: 40 })
  await executor.loadTable('t', { name: 't', columns: [['a']], index: [[]], values: [['1']] })
})

afterAll(async () => {
  await executor?.close()
  canary?.close()
  delete process.env[SECRET_ENV]
})

function outcomeOf(result: Awaited<ReturnType<PythonExecutor['run']>>['result']): string {
  if (!result.ok) return result.error.code === 'timeout' ? 'timeout' : 'error'
  return result.value.truncated ? 'truncated' : 'ok'
}

describe('sandbox: hostile programs are contained', () => {
  it('has a corpus of at least 30 programs across every category of the threat model', () => {
    expect(HOSTILE_PROGRAMS.length).toBeGreaterThanOrEqual(30)
    const categories = new Set(HOSTILE_PROGRAMS.map((p) => p.category))
    for (const c of ['host files', 'secrets', 'environment', 'node', 'processes', 'network', 'workers', 'tampering', 'exhaustion']) expect(categories).toContain(c)
  })

  it.each(HOSTILE_PROGRAMS.map((p) => [p.name, p] as [string, HostileProgram]))('%s', async (_name, program) => {
    const outcomes = Array.isArray(program.outcome) ? program.outcome : [program.outcome]
    const timeoutMs = outcomes.includes('timeout') ? 1_000 : 20_000
    const { result } = await executor.run({ runId: `hostile-${program.name}`, code: fill(program.code), tableId: 't', timeoutMs })
    const text = JSON.stringify(result)
    expect(outcomes, text.slice(0, 600)).toContain(outcomeOf(result))
    expect(text).not.toContain(SECRET)
    // The next program runs normally and sees an untouched table and runtime.
    const next = await executor.run({ runId: `after-${program.name}`, code: 'answer = (len(rows), len([1, 2, 3]), rows[0]["a"])', tableId: 't' })
    expect(next.result.ok, JSON.stringify(next.result).slice(0, 600)).toBe(true)
    if (next.result.ok) expect(next.result.value.value?.json).toEqual([1, 3, 1])
  })

  it('let nothing out: no request reached the canary server, no file appeared on the host', () => {
    expect(hits).toBe(0)
    expect(readdirSync(canaryDir).sort()).toEqual(['secret.txt'])
    expect(readFileSync(canaryFile, 'utf8')).toBe(SECRET)
  })
})
