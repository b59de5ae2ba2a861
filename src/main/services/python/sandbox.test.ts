import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HOSTILE_PROGRAMS, type HostileProgram } from '../../../../test/fixtures/hostile/corpus'
import { hostileHarness, type HostileHarness } from '../../../../test/fixtures/hostile/run'
import { testExecutor } from '../../../../test/support/executor'
import type { PythonExecutor } from './executor'

let executor: PythonExecutor
let harness: HostileHarness

beforeAll(async () => {
  harness = await hostileHarness()
  executor = testExecutor({ poolSize: 2, killGraceMs: 40 })
  await harness.prepare(executor)
})

afterAll(async () => {
  await executor?.close()
  await harness?.close()
})

describe('sandbox: hostile programs are contained', () => {
  it('has a corpus of at least 30 programs across every category of the threat model', () => {
    expect(HOSTILE_PROGRAMS.length).toBeGreaterThanOrEqual(30)
    const categories = new Set(HOSTILE_PROGRAMS.map((p) => p.category))
    for (const c of ['host files', 'secrets', 'environment', 'node', 'processes', 'network', 'workers', 'tampering', 'isolation', 'exhaustion']) expect(categories).toContain(c)
  })

  it.each(HOSTILE_PROGRAMS.map((p) => [p.name, p] as [string, HostileProgram]))('%s', async (_name, program) => {
    const verdict = await harness.run(executor, program)
    expect(verdict.problems).toEqual([])
  })

  it('let nothing out: no request reached the canary server, no file appeared on the host', () => {
    expect(harness.escaped()).toEqual([])
  })
})
