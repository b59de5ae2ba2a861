import type { ExecutorState } from '../../../shared/python'
import type { Executor, RunOutcome, RunRequest } from './types'

/** A table to hand to the new executor after a switch. */
export type TableToLoad = { tableId: string; payload: Uint8Array }

/**
 * The executor every handler holds: it delegates to the current one, which the user can replace (Pyodide
 * sandbox or local CPython) without the handlers knowing. Status events of the current executor are
 * forwarded; those of a replaced one are not.
 */
export class SwitchableExecutor implements Executor {
  private readonly listeners = new Set<(state: ExecutorState) => void>()
  private unsubscribe: () => void
  private switching: Promise<void> = Promise.resolve()

  constructor(private current: Executor) {
    this.unsubscribe = this.follow(current)
  }

  get kind(): Executor['kind'] {
    return this.current.kind
  }

  start(): Promise<unknown> {
    return this.current.start()
  }

  status(): ExecutorState {
    return this.current.status()
  }

  onStatus(listener: (state: ExecutorState) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  loadTable(tableId: string, payload: Uint8Array): Promise<void> {
    return this.current.loadTable(tableId, payload)
  }

  dropTable(tableId: string): Promise<void> {
    return this.current.dropTable(tableId)
  }

  run(request: RunRequest): Promise<RunOutcome> {
    return this.current.run(request)
  }

  endScope(scope: string): Promise<void> {
    return this.current.endScope(scope)
  }

  stop(runId: string): Promise<boolean> {
    return this.current.stop(runId)
  }

  close(): Promise<void> {
    return this.current.close()
  }

  /**
   * Replace the current executor: the old one is closed (runs still going end as shut down), the new one
   * gets every open table and is started. Switches are serialised so two quick ones cannot interleave.
   */
  switchTo(next: Executor, tables: TableToLoad[]): Promise<void> {
    const step = this.switching.then(async () => {
      const old = this.current
      this.unsubscribe()
      this.current = next
      this.unsubscribe = this.follow(next)
      this.emit(next.status())
      await old.close().catch(() => {})
      for (const table of tables) await next.loadTable(table.tableId, table.payload)
      next.start().catch(() => {})
    })
    this.switching = step.catch(() => {})
    return step
  }

  private follow(executor: Executor): () => void {
    return executor.onStatus((state) => this.emit(state))
  }

  private emit(state: ExecutorState): void {
    for (const listener of this.listeners) listener(state)
  }
}
