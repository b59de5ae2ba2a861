import { describe, expect, it } from 'vitest'
import { chartValues, checkAnswerChart, checkChartSpec, MAX_CHART_POINTS } from './chart'

// What `chart(df, kind="line", x="Year", y="Sales", color="Region")` returns in the runtime library.
const LINE = {
  data: {
    values: [
      { Year: 2010, Sales: 12, Region: 'North' },
      { Year: 2020, Sales: null, Region: 'North' }
    ]
  },
  mark: { type: 'line', tooltip: true, point: true },
  encoding: {
    x: { field: 'Year', type: 'ordinal', title: 'Year' },
    y: { field: 'Sales', type: 'quantitative', title: 'Sales' },
    color: { field: 'Region', type: 'nominal', title: 'Region' }
  },
  title: 'Sales by region'
}

const refusal = (spec: unknown): string => {
  const checked = checkChartSpec(spec)
  if (checked.ok) throw new Error('expected a refusal')
  expect(checked.error.code).toBe('bad-chart')
  return checked.error.message
}

describe('chart specifications from programs', () => {
  it('accepts what chart() produces, as an equal but rebuilt object', () => {
    const checked = checkChartSpec(LINE)
    expect(checked).toEqual({ ok: true, value: LINE })
    if (checked.ok) expect(checked.value).not.toBe(LINE)
  })

  it('refuses data from anywhere but inline values', () => {
    expect(refusal({ ...LINE, data: { url: 'https://example.com/x.csv' } })).toContain('"url" is not allowed')
    expect(refusal({ ...LINE, data: { values: [], format: { type: 'csv' } } })).toContain('"format" is not allowed')
    expect(refusal({ ...LINE, data: { name: 'table' } })).toContain('"name" is not allowed')
  })

  it('refuses expressions, parameters, transforms, links, images and configuration', () => {
    expect(refusal({ ...LINE, transform: [{ calculate: 'datum.x * 2', as: 'y' }] })).toContain('"transform" is not allowed')
    expect(refusal({ ...LINE, params: [{ name: 'p', expr: 'alert(1)' }] })).toContain('"params" is not allowed')
    expect(refusal({ ...LINE, config: { locale: {} } })).toContain('"config" is not allowed')
    expect(refusal({ ...LINE, usermeta: { embedOptions: { loader: {} } } })).toContain('"usermeta" is not allowed')
    expect(refusal({ ...LINE, mark: 'image' })).toContain('mark must be one of')
    expect(refusal({ ...LINE, mark: { type: 'line', href: 'https://example.com' } })).toContain('"href" is not allowed')
    expect(refusal({ ...LINE, encoding: { ...LINE.encoding, href: { field: 'Region', type: 'nominal' } } })).toContain(
      '"href" is not allowed'
    )
    expect(refusal({ ...LINE, encoding: { x: { field: 'Year', type: 'ordinal', axis: { labelExpr: 'x' } } } })).toContain(
      '"axis" is not allowed'
    )
    expect(refusal({ ...LINE, title: { text: 'x', href: 'y' } })).toContain('title must be text')
    expect(refusal({ ...LINE, layer: [] })).toContain('"layer" is not allowed')
  })

  it('caps the data and refuses values that are not plain', () => {
    const many = { ...LINE, data: { values: Array.from({ length: MAX_CHART_POINTS + 1 }, (_, i) => ({ Year: i, Sales: i })) } }
    expect(refusal(many)).toContain(`at most ${MAX_CHART_POINTS} are drawn`)
    expect(refusal({ ...LINE, data: { values: [{ Year: 1, Sales: { nested: 1 } }] } })).toContain('data.values[0].Sales must be')
    expect(refusal({ ...LINE, data: { values: [{ Year: Number.NaN }] } })).toContain('not a finite number')
    expect(refusal({ ...LINE, data: { values: [{ Year: 'x'.repeat(501) }] } })).toContain('longer than 500')
    expect(refusal({ ...LINE, encoding: {} })).toContain('neither x nor y')
    expect(refusal(null)).toContain('must be an object')
  })

  it('keeps a field called __proto__ as data', () => {
    const checked = checkChartSpec({ ...LINE, data: { values: JSON.parse('[{"__proto__": 5, "Year": 1}]') as unknown } })
    expect(checked.ok).toBe(true)
    if (!checked.ok) return
    const row = checked.value.data.values[0] ?? {}
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype)
    expect(Object.keys(row)).toEqual(['__proto__', 'Year'])
  })

  it('gives the drawn values in row order, reading escaped field names', () => {
    const checked = checkChartSpec(LINE)
    if (!checked.ok) throw new Error(checked.error.message)
    expect(chartValues(checked.value)).toEqual([2010, 12, 'North', 2020, null, 'North'])
    const dotted = checkChartSpec({
      ...LINE,
      data: { values: [{ 'a.b': 1, Sales: 2 }] },
      encoding: { x: { field: 'a\\.b', type: 'ordinal' } }
    })
    if (!dotted.ok) throw new Error(dotted.error.message)
    expect(chartValues(dotted.value)).toEqual([1])
  })

  it('checks a stored chart answer again', () => {
    expect(checkAnswerChart({ spec: LINE, summary: 'line' }).ok).toBe(true)
    expect(checkAnswerChart({ spec: { ...LINE, data: { url: 'x' } }, summary: 'line' }).ok).toBe(false)
  })
})
