/**
 * The shapes an answer can take besides its values: a table (a DataFrame or Series, or a list of records
 * from plain Python) and a chart. Both come from a program's output, so both are checked here, at the edge,
 * and capped before they reach history.
 */

import type { AnswerCell, AnswerTable } from '../../../shared/ask'
import { checkChartSpec, type AnswerChart } from '../../../shared/chart'
import type { Result } from '../../../shared/result'
import { ok } from '../../../shared/result'

/** Rows and cells of a table answer kept (the runtime library cuts to the same). */
export const MAX_TABLE_ROWS = 1_000
export const MAX_TABLE_CELLS = 10_000
const MAX_TEXT = 2_000
const MAX_LEVELS = 32

type Obj = Record<string, unknown>

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function answerCell(value: unknown): AnswerCell | undefined {
  if (value === null || typeof value === 'boolean') return value
  if (typeof value === 'number') return Number.isFinite(value) ? value : null
  if (typeof value === 'string') return value.slice(0, MAX_TEXT)
  return undefined
}

function labels(value: unknown, max: number): string[] | null {
  if (!Array.isArray(value) || value.length > max) return null
  const out: string[] = []
  for (const v of value) {
    if (typeof v !== 'string') return null
    out.push(v.slice(0, MAX_TEXT))
  }
  return out
}

function tuples(value: unknown, max: number): string[][] | null {
  if (!Array.isArray(value) || value.length > max) return null
  const out: string[][] = []
  for (const v of value) {
    const t = labels(v, MAX_LEVELS)
    if (t === null) return null
    out.push(t)
  }
  return out
}

/** The runtime library's table (`answer_table`), checked; null when it is absent or malformed. */
export function readTable(raw: unknown): AnswerTable | null {
  if (!isObj(raw)) return null
  const columns = tuples(raw['columns'], MAX_TABLE_CELLS)
  const indexNames = labels(raw['indexNames'], MAX_LEVELS)
  const rawRows = raw['rows']
  const rowCount = raw['rowCount']
  if (columns === null || indexNames === null || !Array.isArray(rawRows) || typeof rowCount !== 'number') return null
  const width = Math.max(1, columns.length)
  const keep = Math.min(rawRows.length, MAX_TABLE_ROWS, Math.floor(MAX_TABLE_CELLS / width))
  const rows: AnswerCell[][] = []
  for (const row of rawRows.slice(0, keep)) {
    if (!Array.isArray(row) || row.length !== columns.length) return null
    const cells = row.map(answerCell)
    if (cells.some((c) => c === undefined)) return null
    rows.push(cells as AnswerCell[])
  }
  const index = indexNames.length === 0 ? [] : tuples(raw['index'], MAX_TABLE_ROWS * 10)
  if (index === null || (indexNames.length > 0 && index.length < rows.length)) return null
  const reads = labels(raw['reads'], MAX_TABLE_ROWS)
  return {
    columns,
    indexNames,
    index: index.slice(0, rows.length),
    rows,
    rowCount: Math.max(rows.length, Math.floor(rowCount)),
    ...(reads !== null && columns.length === 1 && reads.length === rows.length ? { reads } : {})
  }
}

/**
 * Plain Python rows (a list of dicts with the same simple fields) as a table: what a program over `rows`
 * returns where pandas is not available. Null for anything else.
 */
export function recordsTable(json: unknown): AnswerTable | null {
  if (!Array.isArray(json) || json.length < 1 || !json.every(isObj)) return null
  const columns: string[] = []
  for (const row of json.slice(0, MAX_TABLE_ROWS)) for (const key of Object.keys(row)) if (!columns.includes(key)) columns.push(key)
  if (columns.length === 0 || columns.length > 200) return null
  const keep = Math.min(json.length, MAX_TABLE_ROWS, Math.floor(MAX_TABLE_CELLS / columns.length))
  const rows: AnswerCell[][] = []
  for (const row of json.slice(0, keep)) {
    const cells = columns.map((c) => (Object.hasOwn(row, c) ? answerCell(row[c]) : null))
    if (cells.some((c) => c === undefined)) return null
    rows.push(cells as AnswerCell[])
  }
  return { columns: columns.map((c) => [c]), indexNames: [], index: [], rows, rowCount: json.length }
}

/** A chart answer (`{"chart": spec, "summary"}` from the runtime library's `Chart`), checked. */
export function readChart(json: unknown): Result<AnswerChart> | null {
  if (!isObj(json) || !('chart' in json)) return null
  const spec = checkChartSpec(json['chart'])
  if (!spec.ok) return spec
  const summary = typeof json['summary'] === 'string' && json['summary'].trim() !== '' ? json['summary'].slice(0, 300) : 'chart'
  return ok({ spec: spec.value, summary })
}
