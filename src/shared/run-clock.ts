/**
 * The clock of one run in the pool. Every moment of the wait is covered by a limit: while the
 * interpreter loads the run's tables, the load limit; once they are loaded, the run must start within
 * its own time limit plus a small grace; once it has started, its time limit, paused while the program
 * waits for a QA answer. When a limit passes the pool is told why (`Expiry`) and stops the run.
 */

import type { HostPageRun } from './executor-protocol'
import type { PythonRunResult } from './python'
import { assertNever } from './result'
import { runFailure } from './run-result'

/** Why a run is being stopped. */
export type StopReason = 'timeout' | 'stopped' | 'load-timeout' | 'no-start'

export type ClockLimits = { tableLoadLimitMs: number; startGraceMs: number }

export class RunClock {
  stopping: StopReason | null = null
  started = false
  qaCalls = 0
  qaPending: number | null = null
  private timer: ReturnType<typeof setTimeout> | null = null
  private kill: ReturnType<typeof setTimeout> | null = null
  /** Time left of the program's own limit; it runs only while the program is not waiting for QA. */
  private remainingMs: number
  private armedAt = 0

  constructor(
    readonly request: HostPageRun,
    private readonly limits: ClockLimits,
    private readonly expire: (why: StopReason) => void
  ) {
    this.remainingMs = request.timeoutMs
  }

  /** The interpreter still loads tables the run needs (or loads queued before it). */
  awaitLoads(): void {
    this.set(this.limits.tableLoadLimitMs, 'load-timeout')
  }

  /** Everything the run needs is loaded: it must start within its limit plus the grace. */
  awaitStart(): void {
    if (this.started || this.stopping) return
    this.set(this.request.timeoutMs + this.limits.startGraceMs, 'no-start')
  }

  /** The program began: its own limit runs from now. */
  begin(): void {
    this.started = true
    this.resume()
  }

  /** A QA call: the clock stops until the answer is in. */
  pause(): void {
    this.clearTimer()
    this.remainingMs -= Date.now() - this.armedAt
  }

  resume(): void {
    this.armedAt = Date.now()
    this.set(Math.max(0, this.remainingMs), 'timeout')
  }

  /** After an interrupt, give the program `graceMs` to return before `then` terminates it. */
  killAfter(graceMs: number, then: () => void): void {
    this.kill = setTimeout(then, graceMs)
  }

  clear(): void {
    this.clearTimer()
    if (this.kill) clearTimeout(this.kill)
    this.kill = null
  }

  private set(ms: number, why: StopReason): void {
    this.clearTimer()
    this.timer = setTimeout(() => this.expire(why), ms)
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
  }
}

/** The result of a run stopped for `run.stopping`, keeping what it printed when the interrupt let it return. */
export function stoppedResult(run: RunClock, limits: ClockLimits, partial?: PythonRunResult): PythonRunResult {
  const output = partial && !partial.ok ? { stdout: partial.error.stdout, stderr: partial.error.stderr } : undefined
  const why = run.stopping
  switch (why) {
    case 'timeout':
      return runFailure('timeout', `Stopped after ${seconds(run.request.timeoutMs)} s: the program ran past its time limit.`, output)
    case 'load-timeout':
      return runFailure(
        'timeout',
        `Loading the table into Python took longer than ${seconds(limits.tableLoadLimitMs)} s, so the program did not start. The table is probably too large for this executor: filter the file first, or use the local Python executor (Settings › Where programs run).`,
        output
      )
    case 'no-start':
      return runFailure(
        'timeout',
        `Python did not start the program within ${seconds(run.request.timeoutMs + limits.startGraceMs)} s (its time limit plus ${seconds(limits.startGraceMs)} s): its interpreter was busy with something else. The interpreter was replaced; run the program again.`,
        output
      )
    case 'stopped':
    case null:
      return runFailure('interrupted', run.started ? 'Stopped by you.' : 'Stopped by you, while the table was loading.', output)
    default:
      return assertNever(why)
  }
}

export function seconds(ms: number): string {
  return (ms / 1000).toLocaleString('en-US', { maximumFractionDigits: 1 })
}
