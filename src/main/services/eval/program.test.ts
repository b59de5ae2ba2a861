import { describe, expect, it } from 'vitest'
import { answerStrings, readShaped, readShapedNotes, sqlProgram, wrapProgram, type ShapedNotes } from './program'
import { pandasAvailable, runPython } from '../../../../test/support/python'

function shaped(code: string, table: unknown = null): unknown {
  const r = runPython(wrapProgram(code), table)
  if (!r.ok) throw new Error(r.error.message)
  return readShaped(r.value.value?.json)
}

const TABLE = {
  name: 't',
  columns: [['Nation'], ['Gold']],
  index: [],
  values: [
    ['Norway', '16'],
    ['Germany', '12']
  ]
}

describe.runIf(pandasAvailable())('the evaluation wrapper (CPython with pandas)', () => {
  it('takes the last expression, else the answer variable, as the runner does', () => {
    expect(shaped('x = 6\nx * 7')).toEqual({ kind: 'scalar', value: 42 })
    expect(shaped('answer = "Oslo"\nprint("hi")')).toEqual({ kind: 'scalar', value: 'Oslo' })
    expect(shaped('x = 1')).toEqual({ kind: 'none' })
  })
  it('reads the answer as its question asks for it, as the runner does: a difference as a size', () => {
    const code = 'int(df.Gold[1]) - int(df.Gold[0])'
    const asked = (question?: string): unknown => {
      const r = runPython(wrapProgram(code), TABLE, {}, question)
      if (!r.ok) throw new Error(r.error.message)
      return { answer: readShaped(r.value.value?.json), readings: r.value.readings }
    }
    expect(asked('What is the difference in gold medals between Norway and Germany?')).toEqual({
      answer: { kind: 'scalar', value: 4 },
      readings: ['the question asks for a difference, which is a size: -4 is read as 4']
    })
    expect(asked('How did the gold count change from Norway to Germany?')).toEqual({
      answer: { kind: 'scalar', value: -4 },
      readings: undefined
    })
    expect(asked()).toEqual({ answer: { kind: 'scalar', value: -4 }, readings: undefined })
  })
  it("gives a failed program's error the notes the runner gives, read from the program's own lines", () => {
    const r = runPython(wrapProgram('x = 1\nanswer = df[df["Nation"] > 3]'), TABLE)
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(r.error.message).toMatch(/^TypeError: '>' not supported between instances of 'str' and 'int'/)
    // Nation holds text without numbers: no note names it; a column of numbers compared with text is named.
    expect(r.error.message).not.toMatch(/column 'Nation'/)
    const numbers = runPython(wrapProgram('answer = df[df["Gold"] > "12"]'), TABLE)
    expect(numbers.ok === false && numbers.error.message).toMatch(
      /\(column 'Gold' of df holds numbers: compare it with a number, not text\)$/
    )
  })

  it('shapes DataFrames as tables, Series and lists as lists, numpy scalars and NaN as plain values', () => {
    expect(shaped('df', TABLE)).toEqual({
      kind: 'table',
      rows: [
        ['Norway', 16],
        ['Germany', 12]
      ]
    })
    expect(shaped('df["Gold"]', TABLE)).toEqual({ kind: 'list', items: [16, 12] })
    expect(shaped('df["Gold"].sum()', TABLE)).toEqual({ kind: 'scalar', value: 28 })
    expect(shaped('float("nan")')).toEqual({ kind: 'scalar', value: null })
    expect(shaped('[(1, "a"), (2, "b")]')).toEqual({
      kind: 'table',
      rows: [
        [1, 'a'],
        [2, 'b']
      ]
    })
  })
  it('carries the labels of a labelled answer and the conditions that matched no row, for execution feedback', () => {
    const notes = (code: string): ShapedNotes => {
      const r = runPython(wrapProgram(code), TABLE)
      if (!r.ok) throw new Error(r.error.message)
      return readShapedNotes(r.value.value?.json)
    }
    expect(notes('df.set_index("Nation")["Gold"]')).toEqual({ labels: [['Norway'], ['Germany']], reads: null, unmatched: [] })
    expect(notes('df.loc[[0]]')).toEqual({ labels: [['Nation'], ['Gold']], reads: null, unmatched: [] })
    // A plain column and a table of several rows have no labels; an answer found is never "unmatched". The
    // column's values are still the table's cells: the read of each comes with them.
    expect(notes('df["Gold"]')).toEqual({ labels: null, reads: ['df.loc[0, "Gold"]', 'df.loc[1, "Gold"]'], unmatched: [] })
    expect(notes('df["Gold"] * 2').reads).toBeNull()
    expect(notes('len(df[df["Nation"] == "Norway"])')).toEqual({ labels: null, reads: null, unmatched: [] })
    const zero = notes('len(df[df["Nation"] == "norway "])')
    expect(zero.unmatched).toHaveLength(1)
    expect(zero.unmatched[0]).toMatch(/matched no row/)
    expect(zero.unmatched[0]).toContain("'Norway'")
    // Two selections whose row labels differ give only NaN: said, with the code that subtracts the values.
    const apart = 'a = df[df["Nation"] == "Norway"]["Gold"]\nb = df[df["Nation"] == "Germany"]["Gold"]\na - b'
    expect(shaped(apart, TABLE)).toEqual({ kind: 'list', items: [null, null] })
    expect(notes(apart).unmatched).toEqual([
      'a - b matched no row: the row labels of a (0) are not those of b (1), and pandas pairs values by label, so every value is NaN; combine the values themselves: a.iloc[0] - b.iloc[0]'
    ])
  })
  it('runs SQL candidates through sqldf over the bound tables', () => {
    expect(shaped(sqlProgram('SELECT Nation FROM df WHERE Gold > 13'), TABLE)).toEqual({ kind: 'table', rows: [['Norway']] })
  })
  it('reports program errors as errors', () => {
    const r = runPython(wrapProgram('1 / 0'))
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error.message).toContain('ZeroDivisionError')
  })
  it('takes an answer that is a function for an error, as the runner does', () => {
    const r = runPython(wrapProgram('def answer():\n    return 1'))
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error.message).toContain('TypeError: the answer is a function, not a value')
  })
  it('reads the loaded table where a program reads a file that is not there', () => {
    expect(shaped('import pandas as pd\ndf = pd.read_csv("table.csv")\nanswer = len(df)', TABLE)).toEqual({ kind: 'scalar', value: 2 })
  })
})

describe('reading shaped answers', () => {
  it('accepts only the wrapper JSON shapes', () => {
    expect(readShaped('{"kind":"list","items":[1,"a",null]}')).toEqual({ kind: 'list', items: [1, 'a', null] })
    expect(readShaped('{"kind":"list","items":[{}]}')).toBeNull()
    expect(readShaped({ kind: 'none' })).toBeNull()
    expect(readShaped('not json')).toBeNull()
  })
  it('turns answers into prediction strings as Python str() would', () => {
    expect(
      answerStrings({
        kind: 'table',
        rows: [
          [1, 2.5],
          [true, null]
        ]
      })
    ).toEqual(['1', '2.5', 'True'])
  })
})
