/**
 * `npm run bench -- SUITE [--json FILE]`: run one benchmark suite, print a readable table, and with
 * --json write {"suite", "metrics": {name: number}, "details"}. Suites live in scripts/bench/<suite>.ts
 * and export `run(args): Promise<{ metrics, details }>`.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
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
  const started = Date.now()
  // Everything after the suite name except --json goes to the suite (its own flags and positionals).
  const argv = process.argv.slice(2)
  const rest = argv
    .slice(argv.indexOf(name) + 1)
    .filter((arg, i, all) => arg !== '--json' && all[i - 1] !== '--json' && !arg.startsWith('--json='))
  const result = await suite.run(rest)
  const width = Math.max(...Object.keys(result.metrics).map((k) => k.length), 6)
  console.log(`\n${name} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`)
  console.log(`${'metric'.padEnd(width)}  value`)
  console.log(`${'-'.repeat(width)}  ${'-'.repeat(12)}`)
  for (const [metric, value] of Object.entries(result.metrics)) {
    console.log(`${metric.padEnd(width)}  ${Number.isInteger(value) ? value : value.toFixed(3)}`)
  }
  const json = typeof values.json === 'string' ? values.json : undefined
  if (json) {
    const path = resolve(json)
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, `${JSON.stringify({ suite: name, metrics: result.metrics, details: result.details }, null, 2)}\n`)
    console.log(`\nwrote ${path}`)
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
