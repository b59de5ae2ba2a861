import { spawn } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { resolve } from 'node:path'
import type { RunRecord } from '../../../src/shared/python'
import { HISTORY_LIMIT } from '../../../src/main/services/history'
import { openFileStore } from '../../../src/main/services/store/store'
import { bundleEntry } from './bundle'

export type KillReport = {
  rounds: number
  /** Entries whose `add` had returned before a kill. */
  committed: number
  /** Committed entries missing after reopening (not counting ones the history limit dropped). */
  lost: number
  /** Reopenings that found the store unreadable. */
  corruptOpens: number
  /** Rounds whose writer had not committed anything when it was killed. */
  emptyRounds: number
  /** Files left in the data folder besides history.json (temporary files of interrupted writes). */
  leftovers: string[]
  problems: string[]
}

type Order = { round: number; index: number }

function orderOf(id: string): Order {
  const [round, index] = id.split('-').map(Number)
  return { round: round ?? -1, index: index ?? -1 }
}

function before(a: Order, b: Order): boolean {
  return a.round < b.round || (a.round === b.round && a.index < b.index)
}

/**
 * Start a writer child `rounds` times, kill it with SIGKILL at a random moment after its first committed
 * entry, reopen the store and check that every committed entry is there.
 */
export async function simulateKills(dir: string, rounds: number, random: () => number = Math.random): Promise<KillReport> {
  const script = await bundleEntry(resolve(import.meta.dirname, '..', 'history-writer.ts'))
  const report: KillReport = { rounds, committed: 0, lost: 0, corruptOpens: 0, emptyRounds: 0, leftovers: [], problems: [] }
  const committed: string[] = []
  const lost = new Set<string>()
  for (let round = 0; round < rounds; round++) {
    const ids = await runAndKill(script, dir, round, 5 + random() * 150)
    if (ids.exitCode !== null)
      report.problems.push(`round ${round}: the writer exited by itself (${ids.exitCode}): ${ids.stderr.slice(0, 300)}`)
    if (ids.committed.length === 0) report.emptyRounds++
    committed.push(...ids.committed)
    const opened = openFileStore(dir, 'history')
    if (opened.recovered !== null) {
      report.corruptOpens++
      report.problems.push(`round ${round}: the store was unreadable after the kill (${opened.recovered.reason})`)
      continue
    }
    const stored = (opened.store.get<RunRecord[]>('runs') ?? []).map((r) => r.id)
    const present = new Set(stored)
    const oldest = stored[0] === undefined ? null : orderOf(stored[0])
    for (const id of ids.committed.length > 0 ? committed : []) {
      if (present.has(id)) continue
      const droppedByLimit = stored.length === HISTORY_LIMIT && oldest !== null && before(orderOf(id), oldest)
      if (!droppedByLimit && !lost.has(id)) {
        lost.add(id)
        report.problems.push(`round ${round}: committed entry ${id} is missing`)
      }
    }
  }
  report.committed = committed.length
  report.lost = lost.size
  report.leftovers = readdirSync(dir).filter((f) => f !== 'history.json')
  return report
}

function runAndKill(
  script: string,
  dir: string,
  round: number,
  delayMs: number
): Promise<{ committed: string[]; exitCode: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [script, dir, String(round)], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    let armed = false
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      if (!armed) {
        armed = true
        setTimeout(() => child.kill('SIGKILL'), delayMs)
      }
    })
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const backstop = setTimeout(() => child.kill('SIGKILL'), 30_000)
    child.on('close', (code) => {
      clearTimeout(backstop)
      // Only complete lines: a line cut by the kill was not reported.
      const committed = stdout
        .split('\n')
        .slice(0, -1)
        .filter((l) => l !== '')
      done({ committed, exitCode: code, stderr })
    })
  })
}
