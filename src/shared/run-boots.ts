/**
 * What the run pool says about interpreters starting and stopping. Starting: one `ready` for the first interpreter
 * booted, boot progress of the one furthest along until then (so the host's bar only moves forward), a
 * boot error only before any interpreter is ready (later ones are the pool's to handle, never shown), and
 * when to give up: after `MAX_BOOT_FAILURES` failures in a row, no more interpreters are started. Stopping:
 * why a run's interpreter died, in the app's own words.
 */

import type { BootFailure, PageToHost } from './executor-protocol'
import type { HostCrash } from './python-host'
import type { BootProgress } from './python'

export const MAX_BOOT_FAILURES = 3

export class BootReports {
  private announced = false
  private shown = -1
  private failures = 0

  constructor(private readonly emit: (message: PageToHost) => void) {}

  /** Too many boots in a row failed: start no more. */
  get givenUp(): boolean {
    return this.failures >= MAX_BOOT_FAILURES
  }

  booted(message: { pythonVersion: string; pandas: boolean; bootMs: number }): void {
    this.failures = 0
    if (this.announced) return
    this.announced = true
    this.emit({ type: 'ready', pythonVersion: message.pythonVersion, pandas: message.pandas, bootMs: message.bootMs })
  }

  progress(progress: BootProgress): void {
    if (this.announced || !(progress.total > 0)) return
    const fraction = Math.min(1, Math.max(0, progress.done / progress.total))
    if (fraction <= this.shown) return
    this.shown = fraction
    this.emit({ type: 'progress', progress })
  }

  failed(failure: BootFailure, detail: string): void {
    this.failures += 1
    if (!this.announced) this.emit({ type: 'boot-error', failure, detail })
  }
}

const LOAD_CRASH =
  'It stopped while loading the table, probably for lack of memory: filter the file first, or use the local Python executor (Settings › Where programs run).'

/** Why a run failed when its interpreter died; `whileLoading`: before the program started, loading its tables. */
export function crashText(crash: HostCrash, whileLoading: boolean): string {
  const what = crash.code === 'out-of-memory' ? 'The Python interpreter ran out of memory.' : 'The Python interpreter stopped unexpectedly.'
  return whileLoading ? `${what} ${LOAD_CRASH}` : what
}
