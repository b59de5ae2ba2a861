/**
 * The machine a benchmark runs on: its cores and load. Timings are only comparable at a known load, so
 * the load before and after a suite is kept with its figures, and a busy machine is said out loud.
 */
import { availableParallelism, loadavg } from 'node:os'

export type MachineLoad = { cores: number; loadBefore: number; loadAfter: number }

/** The 1-minute load average, to two decimals. */
export function loadNow(): number {
  return Math.round((loadavg()[0] ?? 0) * 100) / 100
}

export function cores(): number {
  return availableParallelism()
}

/**
 * What to tell the user when the machine is already busy before a benchmark starts (another model or
 * test run on these cores): null when the load is under half the cores.
 */
export function busyNote(load: number, coreCount: number): string | null {
  if (load < coreCount / 2) return null
  return `Note: the machine is busy before the benchmark starts (load average ${load.toFixed(2)} on ${coreCount} cores): timings will be slower than at idle.`
}
