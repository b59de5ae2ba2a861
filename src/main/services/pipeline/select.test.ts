import { describe, expect, it } from 'vitest'
import type { Result } from '../../../shared/result'
import type { Candidate, Selection } from './select'
import { normaliseAnswerKey, selectCandidate } from './select'

function cand(program: string, sum: number | null, tokens: number, exec: Candidate['exec']): Candidate {
  return { program, logprobSum: sum, logprobMean: sum === null ? null : sum / tokens, exec }
}

function chosen(result: Result<Selection>): Selection {
  if (!result.ok) throw new Error(result.error.message)
  return result.value
}

// Sums: b > a > c; means: c (-0.1) > b (-0.25) > a (-0.5).
const a = cand('answer = 1', -1, 2, { ok: true, answerKey: '1' })
const b = cand('answer = 2', -0.5, 2, { ok: true, answerKey: '2' })
const c = cand('answer = 3 # long', -2, 20, { ok: false })

describe('selectCandidate', () => {
  it('logprob mode takes the highest sum, regardless of execution (the paper)', () => {
    const s = chosen(selectCandidate([a, b, c], { mode: 'logprob' }))
    expect(s).toMatchObject({ index: 1, mode: 'logprob', requested: 'logprob', ranking: [1, 0, 2] })
    expect(s.fallbackReason).toBeUndefined()
  })

  it('logprob mode can rank by mean instead', () => {
    expect(chosen(selectCandidate([a, b, c], { mode: 'logprob', score: 'mean' })).ranking).toEqual([2, 1, 0])
  })

  it('logprob mode ranks unscored candidates last and keeps order among equals', () => {
    const unscored = cand('answer = 9', null, 1, { ok: true, answerKey: '9' })
    expect(chosen(selectCandidate([unscored, a, a, b], { mode: 'logprob' })).ranking).toEqual([3, 1, 2, 0])
  })

  it('vote mode drops failing candidates and takes the majority answer', () => {
    const x1 = cand('answer = df.a.sum()', -3, 3, { ok: true, answerKey: '1,000' })
    const x2 = cand('answer = 1000.0', -4, 3, { ok: true, answerKey: ' 1000 ' })
    const y = cand('answer = 7', -0.1, 3, { ok: true, answerKey: '7' })
    const bad = cand('answer = boom', 0, 3, { ok: false })
    const s = chosen(selectCandidate([bad, y, x2, x1], { mode: 'vote' }))
    expect(s.mode).toBe('vote')
    expect(s.index).toBe(3) // the 1000 group wins 2 to 1; within it x1 has the higher log-prob
    expect(s.votes?.map((g) => [g.key, g.count])).toEqual([
      ['1000', 2],
      ['7', 1]
    ])
    expect(s.ranking).toEqual([3, 2, 1, 0])
  })

  it('vote mode breaks a tie by log-probability, then by order', () => {
    const p = cand('p', -2, 1, { ok: true, answerKey: 'Paris' })
    const q = cand('q', -1, 1, { ok: true, answerKey: 'London' })
    expect(chosen(selectCandidate([p, q], { mode: 'vote' })).index).toBe(1)
    const p0 = cand('p', null, 1, { ok: true, answerKey: 'Paris' })
    const q0 = cand('q', null, 1, { ok: true, answerKey: 'London' })
    expect(chosen(selectCandidate([p0, q0], { mode: 'vote' })).index).toBe(0)
    expect(chosen(selectCandidate([q0, p0], { mode: 'vote' })).index).toBe(0)
  })

  it('vote mode counts a run without an answer as failed', () => {
    const silent = cand('x = 1', 0, 1, { ok: true })
    expect(chosen(selectCandidate([silent, a], { mode: 'vote' })).index).toBe(1)
  })

  it('vote mode with every candidate failing falls back and says so', () => {
    const f1 = cand('f1', -5, 1, { ok: false })
    const f2 = cand('f2', -1, 1, { ok: false })
    const s = chosen(selectCandidate([f1, f2], { mode: 'vote' }))
    expect(s).toMatchObject({ index: 1, mode: 'logprob' })
    expect(s.fallbackReason).toMatch(/No candidate ran/)
  })

  it('logprob mode without any log-probs falls back to the vote and says so', () => {
    const n1 = cand('n1', null, 1, { ok: true, answerKey: 'A' })
    const n2 = cand('n2', null, 1, { ok: true, answerKey: 'B' })
    const n3 = cand('n3', null, 1, { ok: true, answerKey: 'b' })
    const s = chosen(selectCandidate([n1, n2, n3], { mode: 'logprob' }))
    expect(s).toMatchObject({ index: 1, mode: 'vote', requested: 'logprob' })
    expect(s.fallbackReason).toMatch(/no log-probabilities/)
  })

  it('greedy mode takes the first candidate', () => {
    expect(chosen(selectCandidate([c, a, b], { mode: 'greedy' }))).toMatchObject({ index: 0, mode: 'greedy', ranking: [0, 1, 2] })
  })

  it('refuses an empty list', () => {
    const r = selectCandidate([], { mode: 'vote' })
    expect(!r.ok && r.error.code).toBe('bad-input')
  })
})

describe('normaliseAnswerKey', () => {
  it('folds case, spaces, quotes, thousands separators and trailing .0', () => {
    expect(normaliseAnswerKey('  "New   York" ')).toBe('new york')
    expect(normaliseAnswerKey('12,345.0')).toBe('12345')
    expect(normaliseAnswerKey('3.50')).toBe('3.50')
    expect(normaliseAnswerKey('a, b')).toBe('a, b')
  })
})
