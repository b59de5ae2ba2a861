import { describe, expect, it } from 'vitest'
import { checkSettingValues, DEFAULT_APP_SETTINGS, readAppSettings } from './settings'

describe('readAppSettings', () => {
  it('gives the defaults for nothing or junk', () => {
    expect(readAppSettings(undefined)).toEqual(DEFAULT_APP_SETTINGS)
    expect(readAppSettings('x')).toEqual(DEFAULT_APP_SETTINGS)
    expect(readAppSettings({ executor: null, sampling: 3, timeouts: [] })).toEqual(DEFAULT_APP_SETTINGS)
  })

  it('keeps older stored settings that only name the executor', () => {
    expect(readAppSettings({ executor: { kind: 'cpython', python: '/usr/bin/python3' } })).toEqual({
      ...DEFAULT_APP_SETTINGS,
      executor: { kind: 'cpython', python: '/usr/bin/python3' }
    })
  })

  it('keeps good parts and replaces bad ones field by field', () => {
    const read = readAppSettings({
      sampling: { n: 8, temperature: 9, selection: 'vote', score: 'median' },
      timeouts: { runMs: 120_000, qaMs: 50 }
    })
    expect(read.sampling).toEqual({ n: 8, temperature: 0.7, selection: 'vote', score: 'sum' })
    expect(read.timeouts).toEqual({ runMs: 120_000, qaMs: 60_000 })
    expect(readAppSettings({ sampling: { n: 1.5, selection: 'best' } }).sampling).toEqual(DEFAULT_APP_SETTINGS.sampling)
  })
})

describe('checkSettingValues', () => {
  const { sampling, timeouts } = DEFAULT_APP_SETTINGS

  it('accepts the defaults and the range ends', () => {
    expect(checkSettingValues(sampling, timeouts)).toBeNull()
    expect(checkSettingValues({ ...sampling, n: 1, temperature: 0 }, { ...timeouts, runMs: 1_000 })).toBeNull()
    expect(checkSettingValues({ ...sampling, n: 20, temperature: 2 }, { ...timeouts, runMs: 600_000 })).toBeNull()
  })

  it('names the first problem', () => {
    expect(checkSettingValues({ ...sampling, n: 21 }, timeouts)).toMatch(/Samples/)
    expect(checkSettingValues({ ...sampling, n: '5' }, timeouts)).toMatch(/Samples/)
    expect(checkSettingValues({ ...sampling, temperature: Number.NaN }, timeouts)).toMatch(/Temperature/)
    expect(checkSettingValues({ ...sampling, selection: 'best' }, timeouts)).toMatch(/logprob, vote or greedy/)
    expect(checkSettingValues({ ...sampling, score: 'max' }, timeouts)).toMatch(/sum or mean/)
    expect(checkSettingValues(sampling, { ...timeouts, runMs: 999 })).toMatch(/1 second and 10 minutes/)
    expect(checkSettingValues(sampling, { ...timeouts, qaMs: 0 })).toMatch(/QA call/)
    expect(checkSettingValues(undefined, undefined)).toMatch(/Samples/)
  })
})
