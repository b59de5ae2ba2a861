import { describe, expect, it } from 'vitest'
import { answerGist, answerSize, voteOf } from './types'

describe('answers as the selection sees them', () => {
  it('gives the value of a one-value answer, whatever its shape, and only the size of a larger one', () => {
    expect(answerGist({ kind: 'scalar', value: 'Ada' })).toEqual({ size: 1, value: 'Ada' })
    expect(answerGist({ kind: 'list', items: [3] })).toEqual({ size: 1, value: 3 })
    expect(answerGist({ kind: 'table', rows: [[2.5]] })).toEqual({ size: 1, value: 2.5 })
    expect(
      answerGist({
        kind: 'table',
        rows: [
          [1, 2],
          [3, 4]
        ]
      })
    ).toEqual({ size: 4 })
    expect(answerGist({ kind: 'none' })).toEqual({ size: 0 })
    expect(answerGist(undefined)).toEqual({ size: 0 })
    expect(answerSize({ kind: 'scalar', value: null })).toBe(0)
  })

  it('gives no vote for an empty answer or a failed run', () => {
    expect(voteOf(true, { kind: 'list', items: [] })).toEqual({ ok: false })
    expect(voteOf(false, { kind: 'scalar', value: 1 })).toEqual({ ok: false })
    expect(voteOf(true, { kind: 'scalar', value: 1 })).toEqual({ ok: true, answerKey: '{"kind":"scalar","value":1}' })
    // Values that are all missing (an all-NaN Series) are no answer, as in the app; one value among them is.
    expect(voteOf(true, { kind: 'list', items: [null, null] })).toEqual({ ok: false })
    expect(voteOf(true, { kind: 'table', rows: [[null], [null]] })).toEqual({ ok: false })
    expect(voteOf(true, { kind: 'list', items: [null, 3] })).toEqual({ ok: true, answerKey: '{"kind":"list","items":[null,3]}' })
  })
})
