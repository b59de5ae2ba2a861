/**
 * Child-process entry: open one file through `Workspace.open` (import + structure) and print one JSON
 * line with the outcome, the time taken and the peak resident memory it added. Run in its own process
 * so that each file's memory peak is its own and a hang can be killed.
 * Usage: node open-file.mjs FILE [PROBE]
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { basename } from 'node:path'
import { Workspace } from '../../src/main/services/workspace'
import type { OpenOutcome } from './support/bad-files'
import { importFile } from '../../src/main/services/tables/import'

/**
 * Linux: clear the high-water mark of resident memory (writing 5 to clear_refs) and return the current
 * resident size. getrusage's maxRSS is no use here: a child inherits its parent's peak across exec.
 */
function resetPeak(): number {
  writeFileSync('/proc/self/clear_refs', '5')
  return statusKb('VmRSS') * 1024
}

function peakSinceReset(): number {
  return statusKb('VmHWM') * 1024
}

function statusKb(field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync('/proc/self/status', 'utf8'))
  if (match === null) throw new Error(`/proc/self/status has no ${field}`)
  return Number(match[1])
}

async function main(): Promise<void> {
  const [path, probe] = process.argv.slice(2)
  if (path === undefined) throw new Error('usage: open-file FILE [PROBE]')
  const baseline = resetPeak()
  const bytes = new Uint8Array(readFileSync(path))
  const started = performance.now()
  const workspace = new Workspace({ maxTables: 1_000, maxCells: 100_000_000 })
  const result = await workspace.open(basename(path), bytes)
  const ms = performance.now() - started
  const peakRss = peakSinceReset()
  const outcome: OpenOutcome = result.ok
    ? {
        ok: true,
        ms,
        rssGrowthMb: Math.max(0, peakRss - baseline) / 1024 / 1024,
        tables: result.value.map((t) => ({
          name: t.summary.name,
          rows: t.summary.rowCount,
          cols: t.summary.columns.length,
          warnings: [...t.summary.warnings, ...(t.parsed.warnings ?? [])]
        })),
        found: probe === undefined ? null : await imported(basename(path), bytes, probe)
      }
    : { ok: false, ms, rssGrowthMb: Math.max(0, peakRss - baseline) / 1024 / 1024, code: result.error.code, message: result.error.message }
  process.stdout.write(`${JSON.stringify(outcome)}\n`)
}

/** Whether the importer read a cell holding `probe` (the workspace keeps only the structured table). */
async function imported(name: string, bytes: Uint8Array, probe: string): Promise<boolean> {
  const grids = await importFile(name, bytes)
  return grids.ok && grids.value.some((grid) => grid.cells.some((row) => row.some((cell) => cell.includes(probe))))
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  process.exit(1)
})
