import { spawn } from 'node:child_process'
import { join, resolve } from 'node:path'
import type { BadFile } from '../../fixtures/bad-files/make'
import { bundleEntry } from './bundle'

export type OpenedTable = { name: string; rows: number; cols: number; warnings: string[] }

/** What opening one file did, as the child process reports it. */
export type OpenOutcome =
  | { ok: true; ms: number; rssGrowthMb: number; tables: OpenedTable[]; found: boolean | null }
  | { ok: false; ms: number; rssGrowthMb: number; code: string; message: string }
  /** The child did not answer in time, crashed or ran out of memory. */
  | { ok: null; ms: number; rssGrowthMb: number; why: string }

/** Builds the child entry once and opens files with it, each in its own process. */
export async function badFileOpener(): Promise<(file: BadFile) => Promise<OpenOutcome>> {
  const script = await bundleEntry(resolve(import.meta.dirname, '..', 'open-file.ts'))
  return (file) => openInChild(script, file)
}

function openInChild(script: string, file: BadFile): Promise<OpenOutcome> {
  const probe = file.expect.kind === 'ok' ? file.expect.contains : undefined
  const limitMs = file.maxMs * 3 + 10_000
  const started = performance.now()
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--max-old-space-size=4096', script, file.path, ...(probe === undefined ? [] : [probe])], {
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), limitMs)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      const ms = performance.now() - started
      const line = stdout.trim().split('\n').pop() ?? ''
      if (code === 0 && line.startsWith('{')) return done(JSON.parse(line) as OpenOutcome)
      const why =
        signal === 'SIGKILL' ? `no answer within ${Math.round(limitMs / 1000)} s` : `exited with ${code ?? signal}: ${stderr.slice(-800)}`
      done({ ok: null, ms, rssGrowthMb: Number.NaN, why })
    })
  })
}

/** What is wrong with an outcome for a file of the corpus; empty when it was handled as required. */
export function judge(file: BadFile, outcome: OpenOutcome): string[] {
  const problems: string[] = []
  if (outcome.ok === null) return [`did not finish: ${outcome.why}`]
  if (outcome.ms > file.maxMs) problems.push(`took ${Math.round(outcome.ms)} ms (bound ${file.maxMs} ms)`)
  if (outcome.rssGrowthMb > file.maxRssMb)
    problems.push(`added ${Math.round(outcome.rssGrowthMb)} MB of resident memory (bound ${file.maxRssMb} MB)`)
  const expect = file.expect
  switch (expect.kind) {
    case 'fail':
      if (outcome.ok) problems.push(`opened (${outcome.tables.length} tables) but must be refused`)
      else {
        if (outcome.code !== expect.code) problems.push(`error code ${outcome.code}, expected ${expect.code}`)
        if (!expect.message.test(outcome.message)) problems.push(`message "${outcome.message}" does not match ${String(expect.message)}`)
        if (!outcome.message.includes(file.name)) problems.push(`message "${outcome.message}" does not name the file`)
      }
      break
    case 'ok':
      if (!outcome.ok) {
        problems.push(`refused (${outcome.code}: ${outcome.message}) but must open`)
        break
      }
      if (expect.tables !== undefined && outcome.tables.length !== expect.tables)
        problems.push(`${outcome.tables.length} tables, expected ${expect.tables}`)
      if (outcome.tables.length === 0) problems.push('no tables')
      if (expect.rows !== undefined && outcome.tables[0]?.rows !== expect.rows)
        problems.push(`${outcome.tables[0]?.rows} rows, expected ${expect.rows}`)
      if (expect.cols !== undefined && outcome.tables[0]?.cols !== expect.cols)
        problems.push(`${outcome.tables[0]?.cols} columns, expected ${expect.cols}`)
      if (expect.contains !== undefined && outcome.found !== true) problems.push(`no cell contains "${expect.contains}"`)
      if (expect.warning !== undefined) {
        const warnings = outcome.tables.flatMap((t) => t.warnings)
        if (!warnings.some((w) => expect.warning?.test(w) === true))
          problems.push(`no warning matches ${String(expect.warning)} (warnings: ${warnings.slice(0, 3).join(' | ')})`)
      }
      break
    case 'either':
      if (!outcome.ok) {
        if (expect.message !== undefined && !expect.message.test(outcome.message))
          problems.push(`message "${outcome.message}" does not match ${String(expect.message)}`)
        if (outcome.code === 'internal') problems.push(`failed with an internal error: ${outcome.message}`)
      } else if (outcome.tables.length === 0) problems.push('no tables')
      break
  }
  return problems
}

/** Run `task` over `items` with at most `limit` at once, keeping the order of results. */
export async function mapLimited<T, R>(items: T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length)
  let next = 0
  const worker = async (): Promise<void> => {
    for (let k = next++; k < items.length; k = next++) results[k] = await task(items[k] as T)
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker))
  return results
}

export const CORPUS_DIR_NAME = 'bad-files'
export { join }
