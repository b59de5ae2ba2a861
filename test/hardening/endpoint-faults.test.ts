import { describe, expect, it } from 'vitest'
import { FAULT_SCENARIOS, runFaultScenario, type FaultScenario } from './support/endpoint-faults'

describe('model endpoint faults: bounded retries and clear errors, on every API kind', () => {
  it.each(FAULT_SCENARIOS.map((s) => [s.name, s] as [string, FaultScenario]))('%s', async (_name, scenario) => {
    const outcome = await runFaultScenario(scenario)
    expect(outcome.problems, JSON.stringify(outcome.error)).toEqual([])
  })
})
