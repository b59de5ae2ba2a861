import { describe, expect, it } from 'vitest'
import { bootProgressView } from './bootProgress'

describe('the start-up progress bar', () => {
  it('shows the steps done, the total and the step under way', () => {
    expect(
      bootProgressView({ state: 'starting', detail: 'Loading pandas', progress: { done: 3, total: 7, label: 'Loading pandas' } })
    ).toEqual({
      value: 3,
      max: 7,
      label: 'Loading pandas',
      text: 'Loading pandas (step 4 of 7)'
    })
  })

  it('is absent without progress, and once Python is ready, busy or failed', () => {
    expect(bootProgressView({ state: 'starting', detail: 'Starting Python…' })).toBeNull()
    expect(bootProgressView({ state: 'ready', pandas: true, pythonVersion: '3.13.2' })).toBeNull()
    expect(bootProgressView({ state: 'busy', runId: 'r' })).toBeNull()
    expect(bootProgressView({ state: 'error', message: 'no' })).toBeNull()
  })

  it('keeps odd numbers within the bar', () => {
    expect(bootProgressView({ state: 'starting', detail: '', progress: { done: 9, total: 4, label: 'x' } })).toMatchObject({
      value: 4,
      max: 4,
      text: 'x (step 4 of 4)'
    })
    expect(bootProgressView({ state: 'starting', detail: '', progress: { done: -2, total: 4, label: ' ' } })).toMatchObject({
      value: 0,
      label: 'starting'
    })
    expect(bootProgressView({ state: 'starting', detail: '', progress: { done: Number.NaN, total: 4, label: 'x' } })).toMatchObject({
      value: 0
    })
    expect(bootProgressView({ state: 'starting', detail: '', progress: { done: 0, total: 0, label: 'x' } })).toBeNull()
  })
})
