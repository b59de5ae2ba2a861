/**
 * `npm run bench -- SUITE [--json FILE]`: run one benchmark suite, print a readable table, and with
 * --json write {"suite", "machine": {cores, loadBefore, loadAfter}, "metrics": {name: number}, "details"}; the
 * machine's 1-minute load average before and after the run is printed with the figures. Suites live in scripts/bench/<suite>.ts
 * and export `run(args): Promise<{ metrics, details }>`.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { busyNote, cores as coreCount, loadNow, type MachineLoad } from './lib/machine'
import { dirname, resolve } from 'node:path'
import { parseArgs } from 'node:util'

export type SuiteResult = { metrics: Record<string, number>; details: unknown }
type Suite = { run(args: string[]): Promise<SuiteResult> }

const SUITES: Record<string, () => Promise<Suite>> = {
  corrections: () => import('./bench/corrections'),
  exec: () => import('./bench/exec'),
  model: () => import('./bench/model'),
  oracle: () => import('./bench/oracle'),
  packages: () => import('./bench/packages'),
  parse: () => import('./bench/parse'),
  question: () => import('./bench/question'),
  replay: () => import('./bench/replay'),
  robustness: () => import('./bench/robustness')
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ allowPositionals: true, strict: false, options: { json: { type: 'string' } } })
  const name = positionals[0]
  const load = name ? SUITES[name] : undefined
  if (!name || !load) {
    console.error(`Usage: npm run bench -- SUITE [--json FILE]\nSuites: ${Object.keys(SUITES).join(', ')}`)
    process.exit(2)
  }
  const suite = await load()
  // Timings are only comparable at a known load (./lib/machine.ts).
  const cores = coreCount()
  const loadBefore = loadNow()
  const busy = busyNote(loadBefore, cores)
  if (busy !== null) console.error(busy)
  const started = Date.now()
  // Everything after the suite name except --json goes to the suite (its own flags and positionals).
  const argv = process.argv.slice(2)
  const rest = argv
    .slice(argv.indexOf(name) + 1)
    .filter((arg, i, all) => arg !== '--json' && all[i - 1] !== '--json' && !arg.startsWith('--json='))
  const result = await suite.run(rest)
  const width = Math.max(...Object.keys(result.metrics).map((k) => k.length), 6)
  const machine: MachineLoad = { cores, loadBefore, loadAfter: loadNow() }
  console.log(
    `\n${name} (${((Date.now() - started) / 1000).toFixed(1)} s; load average ${machine.loadBefore} before, ${machine.loadAfter} after, ${cores} cores)\n`
  )
  console.log(`${'metric'.padEnd(width)}  value`)
  console.log(`${'-'.repeat(width)}  ${'-'.repeat(12)}`)
  for (const [metric, value] of Object.entries(result.metrics)) {
    console.log(`${metric.padEnd(width)}  ${Number.isInteger(value) ? value : value.toFixed(3)}`)
  }
  const json = typeof values.json === 'string' ? values.json : undefined
  if (json) {
    const path = resolve(json)
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, `${JSON.stringify({ suite: name, machine, metrics: result.metrics, details: result.details }, null, 2)}\n`)
    console.log(`\nwrote ${path}`)
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
