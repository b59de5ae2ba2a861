import { describe, expect, it } from 'vitest'
import { checkRunResult, readRunResult } from './run-result'

const base = { stdout: '', stderr: '', value: { repr: '14', type: 'int', json: 14 }, truncated: false, durationMs: 2, tableKind: 'pandas' }

describe('checkRunResult', () => {
  it("keeps the runtime's notes on unmatched conditions and readings, strings only, capped", () => {
    const r = checkRunResult(
      { ok: true, value: { ...base, unmatched: ['x matched no row', 7], readings: ['a read as b', null, 'c', 'd', 'e'] } },
      'interpreter'
    )
    expect(r.ok && r.value.unmatched).toEqual(['x matched no row'])
    expect(r.ok && r.value.readings).toEqual(['a read as b', 'c', 'd'])
    const long = checkRunResult({ ok: true, value: { ...base, readings: ['y'.repeat(5000)] } }, 'interpreter')
    expect(long.ok && (long.value.readings?.[0]?.length ?? 0) < 1000).toBe(true)
  })

  it('leaves both out when there are none or they are no list', () => {
    const r = readRunResult(JSON.stringify({ ok: true, value: { ...base, readings: 'not a list' } }))
    expect(r.ok && 'readings' in r.value).toBe(false)
    expect(r.ok && 'unmatched' in r.value).toBe(false)
  })
})
