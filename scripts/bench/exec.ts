/**
 * Executor benchmark, for Pyodide (sandboxed page in headless Chromium) and the local CPython:
 * cold start to ready, warm latency of a small program on a HiTab table (pandas where the executor has
 * it, plain rows otherwise), throughput with the warm pool, memory of the executor's processes, and
 * how long a runaway program lives past its deadline; and the size and parse time of big tables' payloads
 * (scripts/bench/payload.ts). `npm run bench -- exec [pyodide|cpython|payload]` runs one part.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { testExecutor } from '../../test/support/executor'
import { datasetsDir } from '../../src/main/services/paths'
import { createCPythonExecutor } from '../../src/main/services/python/cpython-executor'
import type { PythonExecutor } from '../../src/main/services/python/executor'
import { encodeTable } from '../../src/main/services/python/types'
import { importFile } from '../../src/main/services/tables/import'
import { structureGrid } from '../../src/main/services/tables/structure'
import type { SuiteResult } from '../bench'
import { payloadMetrics } from './payload'

const WARM_RUNS = 60
const THROUGHPUT_RUNS = 40
const KILL_RUNS = 5
const POOL_SIZE = 2
const HITAB_TABLE = join('hitab', 'data', 'tables', 'raw', '1004.json')

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[index] ?? Number.NaN
}

/** Resident memory of every process descended from this one (the browser or the Python processes), MB. */
function descendantRssMb(): number {
  const parents = new Map<number, number>()
  const rss = new Map<number, number>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      parents.set(Number(entry), Number(fields[1]))
      rss.set(Number(entry), (Number(fields[21]) * 4096) / 1024 / 1024)
    } catch {
      // The process ended while we looked.
    }
  }
  let total = 0
  for (const [pid, size] of rss) {
    let parent = parents.get(pid)
    while (parent !== undefined && parent > 1 && parent !== process.pid) parent = parents.get(parent)
    if (parent === process.pid) total += size
  }
  return total
}

async function hitabPayload(): Promise<Uint8Array> {
  const path = join(datasetsDir(), HITAB_TABLE)
  const grids = await importFile('1004.json', new Uint8Array(readFileSync(path)))
  if (!grids.ok || !grids.value[0]) throw new Error(`cannot import ${path}`)
  return encodeTable(structureGrid(grids.value[0]))
}

async function measure(
  label: string,
  executor: PythonExecutor,
  payload: Uint8Array
): Promise<{ metrics: Record<string, number>; details: unknown }> {
  const baseline = descendantRssMb()
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
  await executor.loadTable('bench', payload)
  const program = pandas ? 'df.select_dtypes("number").iloc[:, 0].sum()' : 'sum(1 for r in rows)'
  await executor.run({ runId: 'warmup', code: program, tableId: 'bench' })
  // Let the spare finish booting so memory and throughput see the whole pool.
  await Promise.all(Array.from({ length: POOL_SIZE }, (_, i) => executor.run({ runId: `fill-${i}`, code: '0', tableId: 'bench' })))
  const rssMb = descendantRssMb() - baseline

  const warm: number[] = []
  for (let i = 0; i < WARM_RUNS; i++) {
    const start = performance.now()
    const { result } = await executor.run({ runId: `warm-${i}`, code: program, tableId: 'bench' })
    if (!result.ok) throw new Error(`${label}: warm run failed: ${result.error.message}`)
    warm.push(performance.now() - start)
  }
  warm.sort((a, b) => a - b)

  const burstStart = performance.now()
  await Promise.all(
    Array.from({ length: THROUGHPUT_RUNS }, (_, i) => executor.run({ runId: `burst-${i}`, code: program, tableId: 'bench' }))
  )
  const throughput = THROUGHPUT_RUNS / ((performance.now() - burstStart) / 1000)

  const kills: { program: string; pastDeadlineMs: number; killed: boolean }[] = []
  for (const code of ['while True:\n    pass', 'import time\ntime.sleep(60)']) {
    for (let i = 0; i < KILL_RUNS; i++) {
      const deadline = 300
      const start = performance.now()
      const { result, killed } = await executor.run({ runId: `kill-${code.length}-${i}`, code, tableId: null, timeoutMs: deadline })
      if (result.ok || result.error.code !== 'timeout') throw new Error(`${label}: runaway program was not stopped by its deadline`)
      kills.push({ program: code.split('\n')[0] ?? code, pastDeadlineMs: performance.now() - start - deadline, killed })
      // Let the pool refill so each sample measures a stop, not a boot.
      await Promise.all(
        Array.from({ length: POOL_SIZE }, (_, j) => executor.run({ runId: `refill-${code.length}-${i}-${j}`, code: '0', tableId: null }))
      )
    }
  }
  await executor.close()
  const killTimes = kills.map((k) => k.pastDeadlineMs).sort((a, b) => a - b)
  const round = (n: number, digits = 1): number => Number(n.toFixed(digits))
  return {
    metrics: {
      [`${label}_cold_start_ms`]: Math.round(coldStartMs),
      [`${label}_warm_p50_ms`]: round(percentile(warm, 50), 2),
      [`${label}_warm_p95_ms`]: round(percentile(warm, 95), 2),
      [`${label}_throughput_runs_per_s`]: round(throughput),
      [`${label}_rss_per_worker_mb`]: Math.round(rssMb / POOL_SIZE),
      [`${label}_kill_after_deadline_p50_ms`]: round(percentile(killTimes, 50)),
      [`${label}_kill_after_deadline_max_ms`]: round(killTimes.at(-1) ?? Number.NaN),
      [`${label}_pandas`]: pandas ? 1 : 0
    },
    details: { program, warmRuns: WARM_RUNS, throughputRuns: THROUGHPUT_RUNS, poolSize: POOL_SIZE, rssTotalMb: Math.round(rssMb), kills }
  }
}

export async function run(args: string[] = []): Promise<SuiteResult> {
  const only = args.find((a) => a === 'pyodide' || a === 'cpython' || a === 'payload')
  if (only === 'payload') return payloadMetrics()
  const payload = await hitabPayload()
  const metrics: Record<string, number> = {}
  const details: Record<string, unknown> = {
    table: HITAB_TABLE,
    rss: 'resident memory of the executor processes (browser or Python processes) after the pool is warm, divided by the pool size',
    hosts: { pyodide: 'headless Chromium (playwright-core), Pyodide in Web Workers', cpython: 'python3 processes (tableqa.serve)' }
  }
  if (only !== 'cpython') {
    const result = await measure('pyodide', testExecutor({ poolSize: POOL_SIZE }, 10_000), payload)
    Object.assign(metrics, result.metrics)
    details.pyodide = result.details
  }
  if (only !== 'pyodide') {
    const result = await measure(
      'cpython',
      createCPythonExecutor({ python: process.env.TABLEQA_PYTHON ?? 'python3', config: { poolSize: POOL_SIZE } }),
      payload
    )
    Object.assign(metrics, result.metrics)
    details.cpython = result.details
  }
  if (only === undefined) {
    const result = await payloadMetrics()
    Object.assign(metrics, result.metrics)
    details.payload = result.details
  }
  return { metrics, details }
}
