import { describe, expect, it } from 'vitest'
import type { PythonOutput, PythonValue } from '../../../shared/python'
import { answerKey, readAnswer } from './answer'

const output = (value: PythonValue | null, stdout = ''): PythonOutput => ({
  stdout,
  stderr: '',
  value,
  truncated: false,
  durationMs: 1,
  tableKind: 'pandas'
})

const SPEC = {
  data: {
    values: [
      { Year: 2010, Sales: 12 },
      { Year: 2020, Sales: 18 }
    ]
  },
  mark: { type: 'line', tooltip: true, point: true },
  encoding: { x: { field: 'Year', type: 'ordinal' }, y: { field: 'Sales', type: 'quantitative' } }
}

describe('reading a program output as an answer', () => {
  it('reads a chart: its checked spec, a summary as text, and its data as the values that vote', () => {
    const read = readAnswer(
      output({ repr: '<Chart: …>', type: 'Chart', json: { chart: SPEC, summary: 'line of Sales by Year, 2 points' } })
    )
    expect(read.ok).toBe(true)
    if (!read.ok) return
    expect(read.value.text).toBe('Chart: line of Sales by Year, 2 points')
    expect(read.value.chart?.spec).toEqual(SPEC)
    expect(answerKey(read.value)).toBe('2010 | 12 | 2020 | 18')
  })

  it('refuses a chart that loads data from elsewhere, with the reason', () => {
    const read = readAnswer(output({ repr: '<Chart>', type: 'Chart', json: { chart: { ...SPEC, data: { url: 'http://127.0.0.1:9/x' } } } }))
    expect(read.ok).toBe(false)
    if (read.ok) return
    expect(read.error.code).toBe('bad-chart')
    expect(read.error.message).toContain('"url" is not allowed')
  })

  it('does not take a plain dict for a chart', () => {
    const read = readAnswer(output({ repr: '{…}', type: 'dict', json: { chart: SPEC } }))
    expect(read.ok && read.value.chart).toBe(undefined)
  })

  it('keeps the table of a DataFrame answer beside its values', () => {
    const table = { columns: [['Sales']], indexNames: ['Region'], index: [['North'], ['South']], rows: [[45.5], [16]], rowCount: 2 }
    const json = {
      items: [
        { value: 45.5, type: 'number' },
        { value: 16, type: 'number' }
      ],
      cells: [],
      table
    }
    const read = readAnswer(output({ repr: 'Sales\n…', type: 'DataFrame', json }))
    expect(read.ok && read.value.table).toEqual(table)
    expect(read.ok && read.value.text).toBe('45.5, 16')
    // The read of each value, where the runtime gives one per row of a one-column table; kept only then.
    const reads = ['df.loc["North", "Sales"]', 'df.loc["South", "Sales"]']
    const withReads = readAnswer(output({ repr: 'Sales\n…', type: 'Series', json: { ...json, table: { ...table, reads } } }))
    expect(withReads.ok && withReads.value.table).toEqual({ ...table, reads })
    for (const bad of [reads.slice(0, 1), [1, 2], 'df.loc["North", "Sales"]']) {
      const dropped = readAnswer(output({ repr: '…', type: 'Series', json: { ...json, table: { ...table, reads: bad } } }))
      expect(dropped.ok && dropped.value.table).toEqual(table)
    }
  })

  it('drops a malformed table but keeps the answer', () => {
    const json = {
      items: [{ value: 1, type: 'number' }],
      cells: [],
      table: { columns: [['a']], indexNames: [], rows: [[1, 2]], rowCount: 1 }
    }
    const read = readAnswer(output({ repr: '1', type: 'DataFrame', json }))
    expect(read.ok && read.value.text).toBe('1')
    expect(read.ok && read.value.table).toBe(undefined)
  })

  it('shows plain Python records as a table', () => {
    const read = readAnswer(output({ repr: '[…]', type: 'list', json: [{ region: 'North', total: 3 }, { region: 'South' }] }))
    expect(read.ok && read.value.table).toEqual({
      columns: [['region'], ['total']],
      indexNames: [],
      index: [],
      rows: [
        ['North', 3],
        ['South', null]
      ],
      rowCount: 2
    })
  })

  it('leaves a scalar answer as it was', () => {
    const read = readAnswer(output({ repr: '42', type: 'int', json: 42 }))
    expect(read).toEqual({ ok: true, value: { items: [{ value: 42, type: 'number' }], text: '42', cells: [] } })
  })

  it('an answer of zero from a condition that matched no row carries the condition, as a note to check it', () => {
    const said = "df['Town'] == 'NC' matched no row; cells of 'Town' that contain it: 'Raleigh, NC'"
    const zero = readAnswer({ ...output({ repr: '0', type: 'int', json: 0 }), unmatched: [said] })
    expect(zero.ok && zero.value.unmatched).toEqual([said])
    expect(zero.ok && zero.value.note).toBe(`Check this answer: ${said}.`)
    const empty = readAnswer({ ...output({ repr: '[]', type: 'list', json: [] }), unmatched: [said] })
    expect(!empty.ok && empty.error.message).toBe(`The program's answer is empty (list []). ${said}.`)
    const plain = readAnswer(output({ repr: '0', type: 'int', json: 0 }))
    expect(plain.ok && plain.value.unmatched).toBeUndefined()
  })

  it("says how the runtime read the program's words, where it read them otherwise than pandas would", () => {
    const said =
      "filter_rows(df, 'City', '==', 'Los Angeles') matched no row exactly; read as the cells that hold it as words: 'United States, Los Angeles'"
    const read = readAnswer({ ...output({ repr: '14', type: 'int', json: 14 }), readings: [said] })
    expect(read.ok && read.value.note).toBe(`How the runtime read the program and its answer: ${said}.`)
    const plain = readAnswer(output({ repr: '14', type: 'int', json: 14 }))
    expect(plain.ok && plain.value.note).toBeUndefined()
  })
})
