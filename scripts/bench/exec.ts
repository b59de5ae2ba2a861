/**
 * Executor benchmark (Pyodide in the sandboxed page under headless Chromium): cold start to ready,
 * warm latency of a small program, and how long a runaway program lives past its deadline.
 */
import { performance } from 'node:perf_hooks'
import { testExecutor } from '../../test/support/executor'
import type { SuiteResult } from '../bench'

const WARM_RUNS = 60
const KILL_RUNS = 5

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[index] ?? Number.NaN
}

export async function run(): Promise<SuiteResult> {
  const executor = testExecutor({ poolSize: 2 }, 10_000)
  let pandas = false
  const readyAt = new Promise<number>((resolve) => {
    executor.onStatus((state) => {
      if (state.state === 'ready') {
        pandas = state.pandas
        resolve(performance.now())
      }
    })
  })
  const t0 = performance.now()
  await executor.start()
  const coldStartMs = (await readyAt) - t0
  await executor.loadTable('bench', {
    name: 'bench',
    columns: [['Region'], ['2019'], ['2020']],
    index: Array.from({ length: 40 }, () => []),
    values: Array.from({ length: 40 }, (_, i) => [`Region ${i}`, String(1000 + i), String(1100 + 2 * i)])
  })
  const program = pandas ? 'df["2020"].astype(float).sum()' : 'sum(float(r["2020"]) for r in rows)'
  await executor.run({ runId: 'warmup', code: program, tableId: 'bench' })
  const warm: number[] = []
  for (let i = 0; i < WARM_RUNS; i++) {
    const start = performance.now()
    const { result } = await executor.run({ runId: `warm-${i}`, code: program, tableId: 'bench' })
    if (!result.ok) throw new Error(`warm run failed: ${result.error.message}`)
    warm.push(performance.now() - start)
  }
  warm.sort((a, b) => a - b)

  const kills: { program: string; pastDeadlineMs: number; killed: boolean }[] = []
  for (const code of ['while True:\n    pass', 'import time\ntime.sleep(60)']) {
    for (let i = 0; i < KILL_RUNS; i++) {
      const deadline = 300
      const start = performance.now()
      const { result, killed } = await executor.run({ runId: `kill-${code.length}-${i}`, code, tableId: null, timeoutMs: deadline })
      if (result.ok || result.error.code !== 'timeout') throw new Error('runaway program was not stopped by its deadline')
      kills.push({ program: code.split('\n')[0] ?? code, pastDeadlineMs: performance.now() - start - deadline, killed })
      // Let the pool refill its spare so each sample measures a kill, not a boot.
      await executor.run({ runId: `after-kill-${code.length}-${i}`, code: '0', tableId: null })
    }
  }
  await executor.close()
  const killTimes = kills.map((k) => k.pastDeadlineMs).sort((a, b) => a - b)
  return {
    metrics: {
      cold_start_ms: Math.round(coldStartMs),
      warm_p50_ms: Number(percentile(warm, 50).toFixed(2)),
      warm_p95_ms: Number(percentile(warm, 95).toFixed(2)),
      kill_after_deadline_p50_ms: Number(percentile(killTimes, 50).toFixed(1)),
      kill_after_deadline_max_ms: Number((killTimes.at(-1) ?? Number.NaN).toFixed(1)),
      pandas_loaded: pandas ? 1 : 0
    },
    details: { host: 'headless Chromium (playwright-core), Pyodide in a Web Worker', warmRuns: WARM_RUNS, program, kills }
  }
}
