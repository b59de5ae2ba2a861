/**
 * One interpreter as the run pool keeps it, and what it holds: which tables are loaded (or loading) in
 * it, which of those have a newer payload since, and how well it suits a run. The pool (`run-pool.ts`)
 * decides when; these keep the bookkeeping of a slot and its interpreter in step.
 */

import type { HostPageRun, TablePayload } from './executor-protocol'
import type { HostMessage, PythonHost } from './python-host'
import { assertNever } from './result'
import type { RunClock } from './run-clock'
import type { PoolTables } from './run-tables'

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

/**
 * Whether what an interpreter said fits its state: a boot message only while booting, a `loaded` only for
 * a load sent, and a run's messages only for the run in flight, in their order. The pool replaces an
 * interpreter that says anything else.
 */
export function fits(slot: Slot, message: HostMessage): boolean {
  const run = slot.run
  switch (message.type) {
    case 'ready':
    case 'progress':
    case 'boot-error':
      return slot.state === 'booting'
    case 'loaded':
      return slot.state !== 'booting' && slot.loads > 0
    case 'started':
      return run !== null && run.request.runId === message.runId && !run.started && slot.loads === 0
    case 'qa':
      return run !== null && run.request.runId === message.runId && run.started && run.qaPending === null
    case 'result':
      return run !== null && run.request.runId === message.runId && slot.loads === 0
    case 'tampered':
      return run !== null && run.request.runId === message.runId && !run.started
    default:
      return assertNever(message)
  }
}

/** An idle interpreter for the run: one its scope already holds, else a clean one if the scope may take another. */
export function pickSlot(slots: Slot[], request: HostPageRun, parallelism: number): Slot | null {
  const { scope } = request
  let choices: Slot[]
  if (scope === null) {
    choices = slots.filter((s) => s.state === 'ready' && s.scope === null)
  } else {
    const own = slots.filter((s) => s.scope === scope && s.state !== 'dead')
    choices = own.filter((s) => s.state === 'ready')
    if (choices.length === 0 && own.length < parallelism) choices = slots.filter((s) => s.state === 'ready' && s.scope === null)
  }
  return bestSlot(choices, request)
}

/** A queued run may take a clean interpreter, and none is booted or booting. */
export function starved(slots: Slot[], queue: HostPageRun[], parallelism: number): boolean {
  const waiting = queue.some((r) => r.scope === null || slots.filter((s) => s.scope === r.scope && s.state !== 'dead').length < parallelism)
  return waiting && !slots.some((s) => s.scope === null && (s.state === 'booting' || s.state === 'ready'))
}

/** A new layout under the same id: clean interpreters holding the old one reload it when idle. */
export function markStale(slots: Slot[], tableId: string): void {
  for (const slot of slots) if (slot.scope === null && slot.held.has(tableId)) slot.stale.add(tableId)
}

/** A closed table: clean interpreters let it go; a question that is running keeps what it started with. */
export function forgetInClean(slots: Slot[], tableId: string): void {
  for (const slot of slots) {
    if (slot.scope !== null || !slot.held.delete(tableId)) continue
    slot.stale.delete(tableId)
    slot.host.dropTable(tableId)
  }
}

/** Load the open tables into every idle clean interpreter, and free layouts they no longer need. */
export function preloadClean(slots: Slot[], tables: PoolTables): void {
  const wanted = tables.preloadSet()
  for (const slot of slots) {
    if (slot.state !== 'ready' || slot.scope !== null) continue
    for (const tableId of wanted) {
      const payload = tables.payload(tableId)
      if (payload !== undefined && !holds(slot, tableId)) loadInto(slot, tableId, payload)
    }
    for (const tableId of [...slot.stale]) dropFrom(slot, tableId)
  }
}

/** Interpreters taken by questions beyond the pool; past this, replacements wait for a question to end. */
const MAX_TAKEN = 8

/** How many clean interpreters to start so that `poolSize` are booted or booting. */
export function replacementsWanted(slots: readonly Slot[], poolSize: number): number {
  const live = slots.filter((s) => s.state !== 'dead')
  const clean = live.filter((s) => s.scope === null).length
  const size = Math.max(1, poolSize)
  return Math.max(0, Math.min(size - clean, size + MAX_TAKEN - live.length))
}
