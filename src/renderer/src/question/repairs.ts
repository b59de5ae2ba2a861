import type { RepairedFrom } from '../../../shared/ask'

/** One failed program a candidate's program corrects, as the candidate list shows it. */
export type EarlierProgram = { program: string; error: string; title: string; label: string }

/**
 * The failed programs a candidate's program corrects, first to last: the sampled program, then each
 * correction that failed too, with what went wrong and how the list names them.
 */
export function earlierPrograms(from: RepairedFrom | undefined, candidate: number): EarlierProgram[] {
  const steps: { program: string; error: string }[] = []
  for (let f = from; f !== undefined; f = f.before) steps.unshift({ program: f.program, error: f.error })
  return steps.map((s, k) => ({
    ...s,
    title: k === 0 ? 'The first program' : `Correction ${k}`,
    label: k === 0 ? `First program of candidate ${candidate + 1}` : `Correction ${k} of candidate ${candidate + 1}`
  }))
}
