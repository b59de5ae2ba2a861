import type { ExecutorState } from '../../../shared/python'

/** What the status bar's start-up bar shows: `value` of `max` steps done, and the step under way. */
export type BootProgressView = { value: number; max: number; label: string; text: string }

/** The start-up bar for a status, or null when there is none to show (not starting, or no steps known). */
export function bootProgressView(status: ExecutorState): BootProgressView | null {
  if (status.state !== 'starting' || !status.progress) return null
  const { done, total, label } = status.progress
  if (!Number.isFinite(total) || total < 1) return null
  const max = Math.floor(total)
  const value = Number.isFinite(done) ? Math.min(max, Math.max(0, Math.floor(done))) : 0
  const step = label.trim() === '' ? 'starting' : label.trim()
  return { value, max, label: step, text: `${step} (step ${Math.min(value + 1, max)} of ${max})` }
}
