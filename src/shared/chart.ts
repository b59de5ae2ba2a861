/**
 * Chart answers: the Vega-Lite subset a program may return (through `chart(...)` in the runtime library),
 * and the check every specification passes before anything draws it. A specification comes from a program
 * a model wrote after reading untrusted cells, so it is rebuilt from an allowlist: inline data only (no
 * URLs, no named datasets), no expressions, signals, transforms, images or links, and size caps. Unknown
 * keys are refused by name rather than dropped, so a program's author learns what is not drawn.
 */

import { fail, ok, type Result } from './result'

/** Most data rows of a chart (as `chart()` allows). */
export const MAX_CHART_POINTS = 5_000
/** Most fields a data row may have. */
export const MAX_CHART_FIELDS = 50
/** Most characters of one text value, field name or title. */
export const MAX_CHART_TEXT = 500
/** Most characters of the whole specification as JSON. */
export const MAX_CHART_JSON = 1_500_000

export const CHART_MARKS = ['line', 'bar', 'point', 'area', 'tick', 'circle', 'square'] as const
export const CHART_CHANNELS = ['x', 'y', 'color', 'xOffset', 'yOffset', 'size', 'shape', 'opacity'] as const
export const CHART_FIELD_TYPES = ['quantitative', 'ordinal', 'nominal', 'temporal'] as const
const AGGREGATES = ['count', 'sum', 'mean', 'average', 'median', 'min', 'max'] as const
const SORTS = ['ascending', 'descending'] as const
const STACKS = ['zero', 'normalize', 'center'] as const

export type ChartMark = (typeof CHART_MARKS)[number]
export type ChartChannelName = (typeof CHART_CHANNELS)[number]
export type ChartFieldType = (typeof CHART_FIELD_TYPES)[number]
export type ChartValue = string | number | boolean | null
export type ChartRow = Record<string, ChartValue>

/** One encoding channel: a field of the data and how to read it. */
export type ChartChannel = {
  field: string
  type: ChartFieldType
  title?: string
  /** null keeps the data's order. */
  sort?: (typeof SORTS)[number] | null
  aggregate?: (typeof AGGREGATES)[number]
  stack?: (typeof STACKS)[number] | boolean | null
}

/** A checked Vega-Lite specification: single view, inline data, no expressions. */
export type ChartSpec = {
  data: { values: ChartRow[] }
  mark: { type: ChartMark; tooltip?: boolean; point?: boolean; filled?: boolean }
  encoding: Partial<Record<ChartChannelName, ChartChannel>>
  title?: string
  description?: string
}

/** A chart answer: the checked specification and one line saying what it shows. */
export type AnswerChart = { spec: ChartSpec; summary: string }

type Obj = Record<string, unknown>

class Refused extends Error {}

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function refuse(message: string): never {
  throw new Refused(message)
}

function onlyKeys(value: Obj, allowed: readonly string[], where: string): void {
  for (const key of Object.keys(value))
    if (!allowed.includes(key)) refuse(`${where}: "${key}" is not allowed (allowed: ${allowed.join(', ')}).`)
}

function text(value: unknown, where: string): string {
  if (typeof value !== 'string') refuse(`${where} must be text.`)
  if (value.length > MAX_CHART_TEXT) refuse(`${where} is longer than ${MAX_CHART_TEXT} characters.`)
  return value
}

function oneOf<T extends string>(value: unknown, options: readonly T[], where: string): T {
  if (typeof value === 'string' && (options as readonly string[]).includes(value)) return value as T
  return refuse(`${where} must be one of ${options.join(', ')}.`)
}

function flag(value: unknown, where: string): boolean {
  if (typeof value !== 'boolean') refuse(`${where} must be true or false.`)
  return value
}

function cell(value: unknown, where: string): ChartValue {
  if (value === null || typeof value === 'boolean') return value
  if (typeof value === 'number') return Number.isFinite(value) ? value : refuse(`${where} is not a finite number.`)
  if (typeof value === 'string') return text(value, where)
  return refuse(`${where} must be a number, text, true/false or null.`)
}

function data(raw: unknown): ChartSpec['data'] {
  if (!isObj(raw)) refuse('The chart needs inline data: {"values": [...]}.')
  onlyKeys(raw, ['values'], 'data (only inline values; no url, name or format)')
  const values = raw['values']
  if (!Array.isArray(values)) refuse('data.values must be a list of rows.')
  if (values.length > MAX_CHART_POINTS) refuse(`The chart has ${values.length} rows of data; at most ${MAX_CHART_POINTS} are drawn.`)
  return {
    values: values.map((row: unknown, i) => {
      if (!isObj(row)) refuse(`data.values[${i}] must be an object of fields.`)
      const keys = Object.keys(row)
      if (keys.length > MAX_CHART_FIELDS) refuse(`data.values[${i}] has more than ${MAX_CHART_FIELDS} fields.`)
      // fromEntries makes own properties, so a field named "__proto__" stays a field.
      return Object.fromEntries(
        keys.map((key) => [text(key, `a field name of data.values[${i}]`), cell(row[key], `data.values[${i}].${key}`)])
      )
    })
  }
}

function mark(raw: unknown): ChartSpec['mark'] {
  if (typeof raw === 'string') return { type: oneOf(raw, CHART_MARKS, 'mark') }
  if (!isObj(raw)) refuse('mark must be a mark name or {"type": ...}.')
  onlyKeys(raw, ['type', 'tooltip', 'point', 'filled'], 'mark')
  const out: ChartSpec['mark'] = { type: oneOf(raw['type'], CHART_MARKS, 'mark.type') }
  for (const key of ['tooltip', 'point', 'filled'] as const) if (raw[key] !== undefined) out[key] = flag(raw[key], `mark.${key}`)
  return out
}

function channel(raw: unknown, name: string): ChartChannel {
  const where = `encoding.${name}`
  if (!isObj(raw)) refuse(`${where} must be {"field": ..., "type": ...}.`)
  onlyKeys(raw, ['field', 'type', 'title', 'sort', 'aggregate', 'stack'], where)
  const out: ChartChannel = { field: text(raw['field'], `${where}.field`), type: oneOf(raw['type'], CHART_FIELD_TYPES, `${where}.type`) }
  if (raw['title'] !== undefined) out.title = text(raw['title'], `${where}.title`)
  if (raw['sort'] !== undefined) out.sort = raw['sort'] === null ? null : oneOf(raw['sort'], SORTS, `${where}.sort`)
  if (raw['aggregate'] !== undefined) out.aggregate = oneOf(raw['aggregate'], AGGREGATES, `${where}.aggregate`)
  const stack = raw['stack']
  if (stack !== undefined) out.stack = stack === null || typeof stack === 'boolean' ? stack : oneOf(stack, STACKS, `${where}.stack`)
  return out
}

function encoding(raw: unknown): ChartSpec['encoding'] {
  if (!isObj(raw)) refuse('The chart needs an encoding: {"x": ..., "y": ...}.')
  onlyKeys(raw, CHART_CHANNELS, 'encoding')
  const out: ChartSpec['encoding'] = {}
  for (const name of CHART_CHANNELS) if (raw[name] !== undefined) out[name] = channel(raw[name], name)
  if (out.x === undefined && out.y === undefined) refuse('The chart encodes neither x nor y.')
  return out
}

/**
 * Check a chart specification from a program and rebuild it from what is allowed; refuse anything else
 * with a message naming the first thing that is not allowed.
 */
export function checkChartSpec(raw: unknown): Result<ChartSpec> {
  try {
    if (!isObj(raw)) refuse('A chart specification must be an object.')
    onlyKeys(raw, ['data', 'mark', 'encoding', 'title', 'description'], 'The chart')
    const spec: ChartSpec = { data: data(raw['data']), mark: mark(raw['mark']), encoding: encoding(raw['encoding']) }
    if (raw['title'] !== undefined) spec.title = text(raw['title'], 'title')
    if (raw['description'] !== undefined) spec.description = text(raw['description'], 'description')
    const size = JSON.stringify(spec).length
    if (size > MAX_CHART_JSON)
      refuse(`The chart is ${size.toLocaleString('en-US')} characters of JSON; at most ${MAX_CHART_JSON.toLocaleString('en-US')}.`)
    return ok(spec)
  } catch (error) {
    if (error instanceof Refused) return fail('bad-chart', `The chart cannot be drawn: ${error.message}`)
    throw error
  }
}

/** Check a chart answer (`{spec, summary}`), e.g. one read back from a session file. */
export function checkAnswerChart(raw: unknown): Result<AnswerChart> {
  if (!isObj(raw)) return fail('bad-chart', 'The chart cannot be drawn: it is not an object.')
  const spec = checkChartSpec(raw['spec'])
  if (!spec.ok) return spec
  const summary = typeof raw['summary'] === 'string' ? raw['summary'].slice(0, MAX_CHART_TEXT) : 'chart'
  return ok({ spec: spec.value, summary })
}

/** The chart's data values in row order, for voting and for the answer's text form. */
export function chartValues(spec: ChartSpec): ChartValue[] {
  const fields = Object.values(spec.encoding).map((c) => c.field.replace(/\\(.)/g, '$1'))
  const unique = [...new Set(fields)]
  return spec.data.values.flatMap((row) => unique.map((f) => row[f] ?? null))
}

/**
 * A Vega loader that loads nothing. A checked specification has inline data only; this makes sure no
 * request leaves the page or the process even so (Vega asks the loader for every URL it meets).
 */
export function refusingLoader(): {
  load: (uri: string) => Promise<never>
  sanitize: (uri: string) => Promise<never>
  http: (uri: string) => Promise<never>
  file: (filename: string) => Promise<never>
} {
  const refuse = (): Promise<never> => Promise.reject(new Error('charts load nothing from outside'))
  return { load: refuse, sanitize: refuse, http: refuse, file: refuse }
}

/** Where a chart is drawn: the answer panel follows its container, an exported image has a fixed size. */
export type ChartSize = { width: number | 'container'; height: number }

/**
 * The checked specification as Vega-Lite compiles it, with a size and the app's defaults. The result is
 * still data only: nothing here adds a URL, an expression or a parameter.
 */
export function vegaLiteSpec(spec: ChartSpec, size: ChartSize): Record<string, unknown> {
  return {
    ...spec,
    width: size.width,
    height: size.height,
    autosize: { type: 'fit', contains: 'padding' },
    config: { font: 'sans-serif', view: { stroke: null }, axis: { labelLimit: 160 }, legend: { labelLimit: 200 } }
  }
}
