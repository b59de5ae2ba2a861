/** Pure text helpers for the UI: kept apart from components so they can be unit-tested under Node. */

import type { AppInfo } from '../../../shared/api'
import type { ExecutorState, PythonFailure } from '../../../shared/python'
import { assertNever } from '../../../shared/result'

/** Time limit of a scratch run when the settings cannot be read. */
export const RUN_TIMEOUT_MS = 30_000

const numberFormat = new Intl.NumberFormat('en-US')

export function formatCount(n: number): string {
  return numberFormat.format(n)
}

/** Header text for one column tuple: levels joined with " › ", blank levels skipped. */
export function columnHeader(tuple: readonly string[], index: number): string {
  const parts = tuple.map((part) => part.trim()).filter((part) => part !== '')
  return parts.length > 0 ? parts.join(' › ') : `Column ${index + 1}`
}

export function loadingText(loaded: number, total: number): string {
  return `Loading rows ${formatCount(loaded)} / ${formatCount(total)}`
}

export function tableShape(rowCount: number, columnCount: number): string {
  const rows = `${formatCount(rowCount)} ${rowCount === 1 ? 'row' : 'rows'}`
  const columns = `${formatCount(columnCount)} ${columnCount === 1 ? 'column' : 'columns'}`
  return `${rows} × ${columns}`
}

/** "3.14.0" → "3.14": the patch level is noise in a status bar. */
function shortVersion(version: string): string {
  const match = /^(\d+)\.(\d+)/.exec(version)
  return match ? `${match[1]}.${match[2]}` : version
}

export function pythonStatusText(status: ExecutorState): string {
  switch (status.state) {
    case 'starting':
      // The detail may already be a full sentence ("Starting Python…") or just a step ("loading pandas").
      if (status.detail.trim() === '') return 'Starting Python…'
      return /^starting/i.test(status.detail) ? status.detail : `Starting Python… ${status.detail}`
    case 'ready':
      return `Python ${shortVersion(status.pythonVersion)} ready ${status.pandas ? '(pandas)' : '(no pandas: plain Python rows)'}`
    case 'busy':
      return 'Running…'
    case 'error':
      return `Python error: ${status.message}`
    default:
      return assertNever(status)
  }
}

export function appInfoText(info: AppInfo): string {
  const mode = info.mode === 'electron' ? 'Desktop' : 'Browser mode'
  return `${mode} · v${info.version} · data in ${info.dataDir}`
}

/** The headline of a failed run: stops get plain words, everything else its own message. */
export function failureHeadline(error: Pick<PythonFailure, 'code' | 'message'>): string {
  switch (error.code) {
    case 'timeout':
      // The executor's message names the limit that applied ("Stopped after 45 s: …").
      return /^Stopped after /.test(error.message) ? error.message.replace(/\.$/, '') : 'Stopped: the program ran past its time limit'
    case 'interrupted':
      return 'Stopped by you'
    default:
      return error.message
  }
}

export function firstLine(code: string): string {
  const line = code.split('\n').find((l) => l.trim() !== '')
  return line === undefined ? '(empty)' : line.trim()
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`
}

/** Clock time for today's runs, date and time for older ones. */
export function formatRunTime(iso: string, now: Date = new Date()): string {
  const at = new Date(iso)
  if (Number.isNaN(at.getTime())) return iso
  const pad = (n: number): string => String(n).padStart(2, '0')
  const time = `${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`
  const sameDay = at.getFullYear() === now.getFullYear() && at.getMonth() === now.getMonth() && at.getDate() === now.getDate()
  return sameDay ? time : `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${time}`
}

/** The Python names the table had in a run, for the output heading. */
export function tableKindText(kind: 'pandas' | 'rows' | 'none'): string {
  switch (kind) {
    case 'pandas':
      return 'table as df (pandas)'
    case 'rows':
      return 'table as rows and columns (no pandas)'
    case 'none':
      return 'no table'
    default:
      return assertNever(kind)
  }
}

/** Import warnings of every table of a file, each named by its table when the file has several. */
export function importWarnings(tables: readonly { name: string; warnings: string[] }[]): string[] {
  if (tables.length === 1) return [...(tables[0]?.warnings ?? [])]
  return tables.flatMap((t) => t.warnings.map((w) => `${t.name}: ${w}`))
}
