/**
 * Chooses one program among sampled candidates: by log-probability (the seed paper), by an
 * execution-guided vote, or greedily (the first). See `SelectionMode` for the modes.
 */

import type { SelectionMode } from '../../../shared/model'
import type { Result } from '../../../shared/result'
import { assertNever, fail, ok } from '../../../shared/result'
import { normaliseAnswerKey } from '../../../shared/agreement'

/** A sampled program after it ran. */
export type Candidate = {
  program: string
  logprobSum: number | null
  logprobMean: number | null
  /** How its run went; `answerKey` is a comparable text form of the answer (e.g. normalised items joined). */
  exec: { ok: boolean; answerKey?: string }
}

export type SelectOptions = {
  mode: SelectionMode
  /** Which log-probability ranks candidates. Sum (default) favours short programs; mean does not. */
  score?: 'sum' | 'mean'
}

/** One answer in a vote and who voted for it. */
export type VoteGroup = { key: string; count: number; indices: number[] }

export type Selection = {
  /** Index of the chosen candidate. */
  index: number
  /** The mode that decided: differs from the requested one after a fallback. */
  mode: SelectionMode
  requested: SelectionMode
  /** Why the requested mode could not decide. */
  fallbackReason?: string
  /** Candidate indices, best first. */
  ranking: number[]
  /** Vote groups, most votes first (vote mode only). */
  votes?: VoteGroup[]
}

export { normaliseAnswerKey }

function scoreOf(c: Candidate, score: 'sum' | 'mean'): number | null {
  return score === 'mean' ? c.logprobMean : c.logprobSum
}

/** Orders indices by score, best first; unscored after scored; ties by original order. */
function byScore(candidates: Candidate[], indices: number[], score: 'sum' | 'mean'): number[] {
  // Two unscored candidates give -Infinity - -Infinity = NaN, which is falsy, so `||` falls to the order.
  const value = (i: number): number => scoreOf(candidates[i] as Candidate, score) ?? Number.NEGATIVE_INFINITY
  return [...indices].sort((a, b) => value(b) - value(a) || a - b)
}

function isScored(c: Candidate, score: 'sum' | 'mean'): boolean {
  const s = scoreOf(c, score)
  return s !== null && Number.isFinite(s)
}

export function selectCandidate(candidates: Candidate[], options: SelectOptions): Result<Selection> {
  if (candidates.length === 0) return fail('bad-input', 'There are no candidates to choose from.')
  const score = options.score ?? 'sum'
  const all = candidates.map((_, i) => i)
  const requested = options.mode
  switch (requested) {
    case 'greedy':
      return ok({ index: 0, mode: 'greedy', requested, ranking: all })
    case 'logprob': {
      if (!candidates.some((c) => isScored(c, score))) {
        const voted = vote(candidates, score, requested)
        const reason = 'The endpoint gave no log-probabilities, so candidates were chosen by execution vote.'
        return ok({ ...voted, fallbackReason: voted.fallbackReason === undefined ? reason : `${reason} ${voted.fallbackReason}` })
      }
      const ranking = byScore(candidates, all, score)
      return ok({ index: ranking[0] ?? 0, mode: 'logprob', requested, ranking })
    }
    case 'vote':
      return ok(vote(candidates, score, requested))
    default:
      return assertNever(requested)
  }
}

function vote(candidates: Candidate[], score: 'sum' | 'mean', requested: SelectionMode): Selection {
  const groups = new Map<string, VoteGroup>()
  const failed: number[] = []
  candidates.forEach((c, i) => {
    if (!c.exec.ok || c.exec.answerKey === undefined) {
      failed.push(i)
      return
    }
    const key = normaliseAnswerKey(c.exec.answerKey)
    const group = groups.get(key) ?? { key, count: 0, indices: [] }
    group.count += 1
    group.indices.push(i)
    groups.set(key, group)
  })
  const best = (g: VoteGroup): number =>
    Math.max(...g.indices.map((i) => scoreOf(candidates[i] as Candidate, score) ?? Number.NEGATIVE_INFINITY))
  const votes = [...groups.values()]
    .map((g) => ({ ...g, indices: byScore(candidates, g.indices, score) }))
    .sort((a, b) => b.count - a.count || best(b) - best(a) || Math.min(...a.indices) - Math.min(...b.indices))
  const ranking = [...votes.flatMap((g) => g.indices), ...byScore(candidates, failed, score)]
  if (votes.length === 0) {
    const scored = candidates.some((c) => isScored(c, score))
    return {
      index: ranking[0] ?? 0,
      mode: scored ? 'logprob' : 'greedy',
      requested,
      ranking,
      votes,
      fallbackReason: scored
        ? 'No candidate ran successfully, so the most probable one was chosen.'
        : 'No candidate ran successfully, so the first one was chosen.'
    }
  }
  return { index: ranking[0] ?? 0, mode: 'vote', requested, ranking, votes }
}
