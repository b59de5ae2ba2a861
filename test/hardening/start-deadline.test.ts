/**
 * The start deadline in the real sandbox (Pyodide workers in headless Chromium): the interpreter a
 * question's next program is given is kept busy (a loop in the worker's thread, run there through the
 * browser's debugging protocol, as a callback a program left behind would run), so it cannot start the
 * program. That program must fail within its own limit plus the grace, in the app's words, with the
 * interpreter replaced; the question's next program and the next question must run as usual. Needs
 * `npx electron-vite build` and Debian Chromium.
 */
import { performance } from 'node:perf_hooks'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PythonExecutor } from '../../src/main/services/python/executor'
import { testExecutor } from '../support/executor'

const LIMIT_MS = 1_000
const GRACE_MS = 1_000
/** Messages between main, the page and the worker on a machine shared with other work. */
const SLACK_MS = 3_000
/** How long every worker is kept busy: past the stuck run's deadline, well within the next run's limit. */
const BUSY_MS = LIMIT_MS + GRACE_MS + 2_000

let executor: PythonExecutor
let page: Page | null = null

const SPINNING = 'tableqa-test: spinning'

/**
 * Keep every worker of the page busy for `ms`. Resolves with how many once each has said (on its
 * console, which the browser reports while it spins) that its loop has begun.
 */
async function keepWorkersBusy(ms: number): Promise<number> {
  const workers = page?.workers() ?? []
  let spinning = 0
  const begun = new Promise<void>((resolve) => {
    for (const worker of workers)
      worker.on('console', (message) => {
        if (message.text() === SPINNING && ++spinning === workers.length) resolve()
      })
  })
  for (const worker of workers) {
    // Not awaited: each returns only once its loop ends (or fails once the executor closes).
    void worker
      .evaluate(
        ({ busyMs, said }) => {
          console.log(said)
          const end = Date.now() + busyMs
          while (Date.now() < end) {
            // Spinning, as a callback left behind by a program would.
          }
        },
        { busyMs: ms, said: SPINNING }
      )
      .catch(() => undefined)
  }
  await begun
  return workers.length
}

beforeAll(async () => {
  // One interpreter per question, so the question's next program goes to the interpreter of its first.
  executor = testExecutor({ poolSize: 2, scopeParallelism: 1, startGraceMs: GRACE_MS }, 30_000, [], undefined, (p) => (page = p))
  await executor.start()
  if (!(await executor.whenWarm())) throw new Error('the interpreters did not boot within 2 minutes')
}, 180_000)

afterAll(async () => {
  await executor.close()
})

describe('a run whose interpreter does not start it', () => {
  it('fails within its limit plus the grace, says so, and the next runs work', async () => {
    const first = await executor.run({ runId: 'busy-1', code: 'answer = 1', tableId: null, scope: 'q1', timeoutMs: LIMIT_MS })
    expect(first.result).toMatchObject({ ok: true, value: { value: { json: 1 } } })
    expect(await keepWorkersBusy(BUSY_MS)).toBeGreaterThanOrEqual(2)

    const started = performance.now()
    const stuck = await executor.run({ runId: 'busy-2', code: 'answer = 2', tableId: null, scope: 'q1', timeoutMs: LIMIT_MS })
    const waitedMs = performance.now() - started
    expect(stuck.killed).toBe(true)
    expect(stuck.result).toMatchObject({
      ok: false,
      error: {
        code: 'timeout',
        message:
          'Python did not start the program within 2 s (its time limit plus 1 s): its interpreter was busy with something else. The interpreter was replaced; run the program again.'
      }
    })
    expect(waitedMs).toBeGreaterThanOrEqual(LIMIT_MS + GRACE_MS - 50)
    expect(waitedMs).toBeLessThan(LIMIT_MS + GRACE_MS + SLACK_MS)

    // The same question goes on, in another interpreter.
    const again = await executor.run({ runId: 'busy-3', code: 'answer = 1 + 2', tableId: null, scope: 'q1', timeoutMs: 10_000 })
    expect(again.result).toMatchObject({ ok: true, value: { value: { json: 3 } } })
    await executor.endScope('q1')

    const next = await executor.run({ runId: 'next-1', code: 'answer = 40 + 2', tableId: null, scope: 'q2', timeoutMs: 10_000 })
    expect(next.result).toMatchObject({ ok: true, value: { value: { json: 42 } } })
    await executor.endScope('q2')
  }, 120_000)
})
