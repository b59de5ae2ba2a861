/**
 * One interpreter as the run pool keeps it, and what it holds: which tables are loaded (or loading) in
 * it, which of those have a newer payload since, and how well it suits a run. The pool (`run-pool.ts`)
 * decides when; these keep the bookkeeping of a slot and its interpreter in step.
 */

import type { HostPageRun, TablePayload } from './executor-protocol'
import type { PythonHost } from './python-host'
import type { RunClock } from './run-clock'

export type Slot = {
  host: PythonHost
  state: 'booting' | 'ready' | 'busy' | 'dead'
  /** The scope this interpreter serves once it has run one of its programs; null while clean. */
  scope: string | null
  /** Tables loaded or being loaded. */
  held: Set<string>
  /** Held tables whose payload has changed since (clean interpreters only: a question keeps its layout). */
  stale: Set<string>
  /** Loads sent and not yet acknowledged. */
  loads: number
  run: RunClock | null
}

/** Stands in until the pool's `spawnHost` returns: nothing is sent to an interpreter during its own creation. */
const INERT: PythonHost = {
  loadTable: () => {},
  dropTable: () => {},
  run: () => {},
  answerQa: () => {},
  interrupt: () => {},
  terminate: () => {}
}

export function newSlot(): Slot {
  return { host: INERT, state: 'booting', scope: null, held: new Set(), stale: new Set(), loads: 0, run: null }
}

/** The tables a run binds. */
export function neededTables(request: HostPageRun): string[] {
  return [request.tableId, ...request.namedTables.map((t) => t.tableId)].filter((id): id is string => id !== null)
}

/** Holds the table with its current payload. */
export function holds(slot: Slot, tableId: string): boolean {
  return slot.held.has(tableId) && !slot.stale.has(tableId)
}

export function loadInto(slot: Slot, tableId: string, payload: TablePayload): void {
  slot.host.loadTable(tableId, payload)
  slot.held.add(tableId)
  slot.stale.delete(tableId)
  slot.loads += 1
}

export function dropFrom(slot: Slot, tableId: string): void {
  slot.host.dropTable(tableId)
  slot.held.delete(tableId)
  slot.stale.delete(tableId)
}

/** Of `choices`, the one that suits the run best: holding its tables counts most, being busy loading counts against. */
export function bestSlot(choices: Slot[], request: HostPageRun): Slot | null {
  const needed = neededTables(request)
  let best: Slot | null = null
  let bestScore = -Infinity
  for (const slot of choices) {
    const held = needed.filter((id) => holds(slot, id)).length
    const score = held * 2 - (held === needed.length && slot.loads === 0 ? 0 : 1) - slot.loads / 1000
    if (score > bestScore) [best, bestScore] = [slot, score]
  }
  return best
}

/** A clean, idle interpreter that holds every wanted table as it is now. */
export function isWarm(slot: Slot, wanted: string[]): boolean {
  return slot.state === 'ready' && slot.scope === null && slot.loads === 0 && wanted.every((id) => holds(slot, id))
}
