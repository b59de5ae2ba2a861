/**
 * `npm run bench -- robustness [KILLS] [--json FILE]`: how the app holds up against hostile input.
 * - the hostile program corpus in the sandbox (headless Chromium; needs `npx electron-vite build`),
 * - the bad-files corpus through Workspace.open, each file in its own process,
 * - model endpoint faults through the model client and a scripted server,
 * - a history writer killed with SIGKILL KILLS times (default 100),
 * - app:info latency on the browser-mode server while a 100 MB CSV is imported.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { HOSTILE_PROGRAMS } from '../../test/fixtures/hostile/corpus'
import { hostileHarness } from '../../test/fixtures/hostile/run'
import { makeBadFiles } from '../../test/fixtures/bad-files/make'
import { badFileOpener, judge, mapLimited } from '../../test/hardening/support/bad-files'
import { FAULT_SCENARIOS, runFaultScenario } from '../../test/hardening/support/endpoint-faults'
import { simulateKills } from '../../test/hardening/support/kill-history'
import { probeDuring } from '../../test/hardening/support/web-app'
import { startWebApp } from '../../test/support/web-app'
import { webClient } from '../../test/hardening/support/web-client'
import { testExecutor } from '../../test/support/executor'
import type { SuiteResult } from '../bench'

async function hostile(): Promise<{
  contained: number
  total: number
  failures: { name: string; problems: string[] }[]
  escaped: string[]
}> {
  const harness = await hostileHarness()
  const executor = testExecutor({ poolSize: 2, killGraceMs: 40 })
  const failures: { name: string; problems: string[] }[] = []
  try {
    await harness.prepare(executor)
    for (const program of HOSTILE_PROGRAMS) {
      const verdict = await harness.run(executor, program)
      if (verdict.problems.length > 0) failures.push({ name: program.name, problems: verdict.problems })
    }
    const escaped = harness.escaped()
    // Anything that got out counts against every program: it cannot be pinned to one.
    const contained = escaped.length > 0 ? 0 : HOSTILE_PROGRAMS.length - failures.length
    return { contained, total: HOSTILE_PROGRAMS.length, failures, escaped }
  } finally {
    await executor.close()
    await harness.close()
  }
}

async function badFiles(dir: string): Promise<{ handled: number; total: number; slowestMs: number; slowest: string; files: unknown[] }> {
  const files = await makeBadFiles(dir)
  const open = await badFileOpener()
  const big = files.filter((f) => f.maxRssMb >= 1_000)
  const outcomes = new Map<string, Awaited<ReturnType<typeof open>>>()
  for (const file of big) outcomes.set(file.name, await open(file))
  await mapLimited(
    files.filter((f) => !big.includes(f)),
    2,
    async (file) => outcomes.set(file.name, await open(file))
  )
  let handled = 0
  let slowestMs = 0
  let slowest = ''
  const rows = files.map((file) => {
    const outcome = outcomes.get(file.name)
    const problems = outcome === undefined ? ['not opened'] : judge(file, outcome)
    if (problems.length === 0) handled++
    if (outcome !== undefined && outcome.ms > slowestMs) {
      slowestMs = outcome.ms
      slowest = file.name
    }
    const result =
      outcome === undefined
        ? null
        : outcome.ok === true
          ? `opened ${outcome.tables.length} table(s)`
          : outcome.ok === false
            ? `${outcome.code}: ${outcome.message}`
            : outcome.why
    return { name: file.name, ms: Math.round(outcome?.ms ?? 0), rssGrowthMb: Math.round(outcome?.rssGrowthMb ?? 0), result, problems }
  })
  return { handled, total: files.length, slowestMs, slowest, files: rows }
}

async function responsiveness(bigCsv: string): Promise<{ maxMs: number; failedCalls: number; importMs: number } | { skipped: string }> {
  let app
  try {
    app = await startWebApp(mkdtempSync(join(tmpdir(), 'tableqa-bench-web-')))
  } catch (error) {
    return { skipped: `the browser-mode server did not start (build first: npx electron-vite build): ${String(error).slice(0, 300)}` }
  }
  try {
    const call = webClient(app.url)
    const started = performance.now()
    const opening = call('table:openBytes', { name: 'big-100mb.csv', bytes: new Uint8Array(readFileSync(bigCsv)) })
    const probes = await probeDuring(opening, () => call('app:info', undefined, AbortSignal.timeout(60_000)))
    await opening
    return {
      maxMs: Math.max(0, ...probes.map((p) => p.ms)),
      failedCalls: probes.filter((p) => p.error !== null).length,
      importMs: performance.now() - started
    }
  } finally {
    await app.stop()
  }
}

export async function run(args: string[]): Promise<SuiteResult> {
  const rounds = Number(args.find((a) => /^\d+$/.test(a)) ?? 100)
  const work = mkdtempSync(join(tmpdir(), 'tableqa-bench-robustness-'))
  try {
    console.log('hostile programs…')
    const programs = await hostile()
    console.log('bad files…')
    const files = await badFiles(join(work, 'files'))
    console.log('endpoint faults…')
    const faults = []
    for (const scenario of FAULT_SCENARIOS) faults.push(await runFaultScenario(scenario))
    console.log(`killing a history writer ${rounds} times…`)
    const kills = await simulateKills(join(work, 'kills'), rounds)
    console.log('app:info during a 100 MB import…')
    const busy = await responsiveness(join(work, 'files', 'big-100mb.csv'))
    const metrics: Record<string, number> = {
      hostile_programs_contained: programs.contained,
      hostile_programs_total: programs.total,
      bad_files_handled: files.handled,
      bad_files_total: files.total,
      endpoint_faults_survived: faults.filter((f) => f.survived).length,
      endpoint_faults_total: faults.length,
      history_entries_lost: kills.lost,
      history_entries_committed: kills.committed,
      history_kills: kills.rounds,
      history_corrupt_opens: kills.corruptOpens,
      history_temp_files_left: kills.leftovers.length,
      slowest_bad_file_ms: Math.round(files.slowestMs)
    }
    if ('maxMs' in busy) {
      metrics.app_info_max_ms_during_big_import = Math.round(busy.maxMs)
      metrics.app_info_failed_calls_during_big_import = busy.failedCalls
    }
    return {
      metrics,
      details: {
        hostile: { failures: programs.failures, escaped: programs.escaped },
        badFiles: { slowest: files.slowest, files: files.files },
        endpointFaults: faults.map((f) => ({
          name: f.name,
          survived: f.survived,
          ms: Math.round(f.ms),
          requests: f.requests,
          error: f.error,
          problems: f.problems
        })),
        kills: { ...kills, problems: kills.problems.slice(0, 20), leftovers: kills.leftovers.slice(0, 20) },
        responsiveness: busy
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}
