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
  /** An executor being readied by `handOver`: it gets the tables opened and closed meanwhile. */
  private incoming: Executor | null = null

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

  async loadTable(tableId: string, payload: Uint8Array): Promise<void> {
    await Promise.all([this.current.loadTable(tableId, payload), this.incoming?.loadTable(tableId, payload)])
  }

  async dropTable(tableId: string): Promise<void> {
    await Promise.all([this.current.dropTable(tableId), this.incoming?.dropTable(tableId)])
  }

  run(request: RunRequest): Promise<RunOutcome> {
    return this.current.run(request)
  }

  stop(runId: string): Promise<boolean> {
    return this.current.stop(runId)
  }

  async close(): Promise<void> {
    const incoming = this.incoming
    this.incoming = null
    await Promise.all([this.current.close(), incoming?.close()])
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

  /**
   * Replace the current executor with `next` without interrupting anything: `next` gets the open tables and
   * boots while the current one keeps taking runs; once `next` is ready it takes every new run, and the old
   * one is closed when the runs it has are finished. Used to bring up interpreters with packages that
   * arrived while the app was running. False (and `next` closed) if `next` failed to start or the user
   * switched executors meanwhile.
   */
  async handOver(next: Executor, tables: TableToLoad[]): Promise<boolean> {
    const old = this.current
    const previous = this.incoming
    this.incoming = next
    await previous?.close().catch(() => {})
    try {
      for (const table of tables) await next.loadTable(table.tableId, table.payload)
      const started = await untilSettled(next)
      let swapped = false
      const step = this.switching.then(() => {
        if (!started || this.current !== old || this.incoming !== next) return
        this.unsubscribe()
        this.current = next
        this.unsubscribe = this.follow(next)
        this.emit(next.status())
        swapped = true
      })
      this.switching = step.catch(() => {})
      await step
      if (this.incoming === next) this.incoming = null
      if (!swapped) {
        await next.close().catch(() => {})
        return false
      }
      await untilIdle(old)
      await old.close().catch(() => {})
      return true
    } catch {
      if (this.incoming === next) this.incoming = null
      await next.close().catch(() => {})
      return false
    }
  }

  private follow(executor: Executor): () => void {
    return executor.onStatus((state) => this.emit(state))
  }

  private emit(state: ExecutorState): void {
    for (const listener of this.listeners) listener(state)
  }
}

/** Start `executor` and wait for it to be ready (true) or to fail (false). */
function untilSettled(executor: Executor): Promise<boolean> {
  return new Promise((resolve) => {
    const settle = (state: ExecutorState): boolean => {
      if (state.state !== 'ready' && state.state !== 'error') return false
      off()
      resolve(state.state === 'ready')
      return true
    }
    const off = executor.onStatus((state) => void settle(state))
    if (settle(executor.status())) return
    executor.start().catch(() => {
      off()
      resolve(false)
    })
  })
}

/** Longest wait for a replaced executor's runs (the longest time limit, plus its QA calls); then it is closed regardless. */
const IDLE_WAIT_MS = 30 * 60_000

/** Resolves once `executor` has no run going. */
function untilIdle(executor: Executor): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, IDLE_WAIT_MS)
    const off = executor.onStatus((state) => {
      if (state.state !== 'busy') done()
    })
    function done(): void {
      clearTimeout(timer)
      off()
      resolve()
    }
    if (executor.status().state !== 'busy') done()
  })
}
