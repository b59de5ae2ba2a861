import { describe, expect, it } from 'vitest'
import { a1Address, a1Name, expandRange, parseAnswerFormula } from './formula'

function kinds(entry: unknown): string[] {
  const r = parseAnswerFormula(entry)
  if (!r.ok) throw new Error(r.error.message)
  return r.value.map((f) => f.kind)
}

describe('HiTab answer formulas', () => {
  it('parses arithmetic, ranges, functions, text concatenation and comparisons', () => {
    expect(parseAnswerFormula('=B5/B6')).toEqual({
      ok: true,
      value: [
        {
          kind: 'binary',
          op: '/',
          left: { kind: 'cell', cell: { a1: 'B5', col: 1, row: 4 } },
          right: { kind: 'cell', cell: { a1: 'B6', col: 1, row: 5 } }
        }
      ]
    })
    expect(kinds('=SUM(C5:C8)-SUM(B5:B8)')).toEqual(['binary'])
    expect(kinds('=D9&"%"')).toEqual(['binary'])
    expect(kinds('=IF(F10=MIN(F5:F18),"Quebec","")')).toEqual(['call'])
    expect(kinds('=-(E7-B7)/1000')).toEqual(['binary'])
    expect(kinds('=MAX(B6,C7,D8)')).toEqual(['call'])
  })
  it('reads bare comma lists of references as several values', () => {
    expect(kinds('A24,A28')).toEqual(['cell', 'cell'])
    expect(kinds('A9, A8, A15')).toEqual(['cell', 'cell', 'cell'])
    expect(kinds('B9+C9,B10+C10')).toEqual(['binary', 'binary'])
  })
  it('keeps other text and numbers as literals', () => {
    expect(parseAnswerFormula('Saskatoon')).toEqual({ ok: true, value: [{ kind: 'string', value: 'Saskatoon' }] })
    expect(parseAnswerFormula(116.2)).toEqual({ ok: true, value: [{ kind: 'number', value: 116.2 }] })
  })
  it('refuses broken formulas', () => {
    expect(parseAnswerFormula('=B5/').ok).toBe(false)
    expect(parseAnswerFormula('=FOO(').ok).toBe(false)
  })
  it('converts A1 names both ways and expands ranges row by row', () => {
    expect(a1Address('AB12')).toEqual({ a1: 'AB12', col: 27, row: 11 })
    expect(a1Name(11, 27)).toBe('AB12')
    expect(expandRange(a1Address('B8'), a1Address('C9')).map((c) => c.a1)).toEqual(['B8', 'C8', 'B9', 'C9'])
  })
})
