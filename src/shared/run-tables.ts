/**
 * The open tables as the run pool keeps them: each table's payload, and which tables every clean
 * interpreter should hold ahead of questions (most recently used first, within a byte budget; tables an
 * interpreter died loading are left to be loaded when a run needs them).
 */

import type { TablePayload } from './executor-protocol'

type Table = { payload: TablePayload; bytes: number; used: number }

export class PoolTables {
  private readonly tables = new Map<string, Table>()
  /** Tables held by an interpreter that died loading: loaded only when a run needs them. */
  private readonly crashedLoading = new Set<string>()
  private uses = 0

  constructor(private readonly preloadBytes: number) {}

  /** Keep a table; false when it is already kept with this very payload. */
  put(tableId: string, payload: TablePayload): boolean {
    if (this.tables.get(tableId)?.payload === payload) return false
    this.tables.set(tableId, { payload, bytes: typeof payload === 'string' ? payload.length : payload.byteLength, used: ++this.uses })
    this.crashedLoading.delete(tableId)
    return true
  }

  drop(tableId: string): void {
    this.tables.delete(tableId)
    this.crashedLoading.delete(tableId)
  }

  /** A table a run needs, marked as just used; undefined when it is not open. */
  use(tableId: string): TablePayload | undefined {
    const table = this.tables.get(tableId)
    if (table) table.used = ++this.uses
    return table?.payload
  }

  payload(tableId: string): TablePayload | undefined {
    return this.tables.get(tableId)?.payload
  }

  /** An interpreter died while loading these. */
  crashedWhileLoading(tableIds: Iterable<string>): void {
    for (const tableId of tableIds) this.crashedLoading.add(tableId)
  }

  /** The tables each clean interpreter should hold, in load order. */
  preloadSet(): string[] {
    const order = [...this.tables.entries()].filter(([id]) => !this.crashedLoading.has(id)).sort((a, b) => b[1].used - a[1].used)
    const chosen: string[] = []
    let room = this.preloadBytes
    for (const [id, table] of order) {
      if (table.bytes > room) continue
      room -= table.bytes
      chosen.push(id)
    }
    return chosen
  }
}

const MAX_ENDED_KEPT = 1_000

/** Ended scopes, remembered (the most recent ones) so that a late run of one is refused. */
export class EndedScopes {
  private readonly scopes = new Set<string>()

  has(scope: string): boolean {
    return this.scopes.has(scope)
  }

  add(scope: string): void {
    this.scopes.add(scope)
  }

  /** Forget the oldest ended scopes past the limit, once no interpreter serves them any more. */
  forget(slots: readonly { scope: string | null }[]): void {
    for (const scope of this.scopes) {
      if (this.scopes.size <= MAX_ENDED_KEPT) return
      if (!slots.some((s) => s.scope === scope)) this.scopes.delete(scope)
    }
  }
}
