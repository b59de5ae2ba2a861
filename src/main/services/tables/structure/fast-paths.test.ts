import { describe, expect, it } from 'vitest'
import type { ParsedTable, RawGrid } from '../../../../shared/table'
import { normalizeGrid, rawText, trimmed } from './grid'
import { detectStructure, structureGrid } from './index'
import { cellKind, FOOTNOTE_TAIL, isDateLike, isMissingMarker, mayEndInMark, parseNumber, periodShape } from './number'

// The shortcuts of the structure pass give the answers of the code they stand in for.

describe('the footnote test before the footnote expression', () => {
  it('lets through every last character a footnote mark can end with', () => {
    const missed: string[] = []
    for (let code = 0; code <= 0xffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue
      const c = String.fromCharCode(code)
      const matches = FOOTNOTE_TAIL.test(`1${c}`) || FOOTNOTE_TAIL.test(`1 (a${c}`)
      if (matches && !mayEndInMark(`1${c}`)) missed.push(c)
    }
    expect(missed).toEqual([])
  })

  it('still drops the marks', () => {
    expect(['12*', '7†', '7‡', '3.1E', '4F', '40 (a)', '12¹', '12⁴', '9§', '9¶', '9#', '9²'].map(parseNumber)).toEqual([
      12, 7, 7, 3.1, 4, 40, 12, 12, 9, 9, 9, 9
    ])
  })
})

describe('whole numbers read without Number()', () => {
  it('gives what Number() gives, signed zero and long numbers included', () => {
    for (const text of ['0', '-0', '007', '-12', '1,234', '-1,234,567', '123456789012345', '1234567890123456', '99999999999999999'])
      expect(Object.is(parseNumber(text), Number(text.replace(/,/g, '')))).toBe(true)
  })
})

describe('trimmed', () => {
  it('is String.prototype.trim', () => {
    for (const text of ['', 'a', ' a', 'a ', '\u00a0a', 'a\u2003', '\ufeffa', 'é', 'aé', '\ta\n', '  ', 'ab c'])
      expect(trimmed(text)).toBe(text.trim())
  })

  it('reads a cell covered by a merge as empty, with or without merges', () => {
    const g = normalizeGrid({
      name: 't',
      cells: [
        [' a ', 'b'],
        ['c', ' d']
      ],
      merges: [{ top: 0, left: 0, bottom: 0, right: 1 }],
      warnings: []
    })
    expect([rawText(g, 0, 0), rawText(g, 0, 1), rawText(g, 1, 0), rawText(g, 1, 1)]).toEqual(['a', '', 'c', 'd'])
  })
})

describe("detection's grids handed on to structureGrid", () => {
  // The table as data: its numbers read out of the function that parses them.
  const plain = ({ numbers, ...rest }: ParsedTable): unknown => ({ ...rest, numbers: numbers() })
  const table = (): RawGrid => ({
    name: 't',
    cells: [['Table 1. Sales'], [''], ['', '2023', '2024'], ['North', '1', '2'], ['South', '3', '4']],
    merges: [],
    warnings: []
  })

  it('structure the grid as a fresh detection does', () => {
    const grid = table()
    const detected = detectStructure(grid)
    const fresh = plain(structureGrid(table(), detectStructure(table())))
    expect(plain(structureGrid(grid, detected))).toEqual(fresh)
    // Taken once: a second call normalises again and gives the same table.
    expect(plain(structureGrid(grid, detected))).toEqual(fresh)
  })

  it('are not used for a grid whose cells were replaced after detection', () => {
    const grid = table()
    const detected = detectStructure(grid)
    grid.cells = [['Table 1. Sales'], [''], ['', '2023', '2024'], ['East', '5', '6'], ['West', '7', '8']]
    const p = structureGrid(grid, detected)
    expect(p.index.map((t) => t.join(''))).toEqual(['East', 'West'])
  })

  it('are not used for another title block than the one detected', () => {
    const grid = table()
    const detected = detectStructure(grid)
    expect(detected.titleRows).toBe(2)
    const p = structureGrid(grid, { ...detected, titleRows: 0 })
    expect(plain(p)).toEqual(plain(structureGrid(table(), { ...detected, titleRows: 0 })))
  })
})

describe('cellKind', () => {
  // The reading before its shortcut for the common shapes.
  const reference = (t: string): string => {
    if (t.length === 0) return 'empty'
    if (/^-?\d+(?:\.\d+)?$/.test(t)) return 'number'
    const s = t.trim()
    if (s.length === 0) return 'empty'
    if (isMissingMarker(s)) return 'missing'
    return parseNumber(s) === null ? 'text' : 'number'
  }

  it('reads every shape as before', () => {
    const texts = [
      'none',
      'none ',
      ' none',
      'n/a  ',
      'Total',
      ' Total',
      'Canada',
      'Ursula',
      'Exports',
      'EUR 5',
      'US$3',
      'CAD 12',
      'x',
      'F',
      'nil  '
    ]
    texts.push(
      '12',
      '-12',
      '-0',
      '1,234',
      '1,234.5',
      '12,34',
      '.5',
      '12.',
      '1e5',
      '  ',
      '—',
      '(12)',
      '12%',
      '12*',
      'abcde ',
      'Énergie',
      'ñandú'
    )
    for (const a of ['', ' ', 'a', 'A', 'E', 'U', '1', '-', ',', '.', '('])
      for (const b of ['', ' ', 'bcde', '123', ',456', '.5', ')', '%', '*']) texts.push(a + b, `${a}${b}${a}`)
    expect(texts.map(cellKind)).toEqual(texts.map(reference))
  })
})

describe('periodShape', () => {
  it('finds no period in a label without a digit, as the date forms find none', () => {
    for (const label of ['September', 'Sep', 'Q', 'total (a)', 'Dec. [x]', 'May r', 'Année'])
      expect([periodShape(label), isDateLike(label)]).toEqual([null, false])
  })

  it('still reads the periods', () => {
    expect(['Sep-1953', '1971 [x]', 'Dec. 31, 2024', '2016-17 (p)', 'Q3 1948'].map(periodShape)).toEqual([
      'aaa-9999',
      '9999',
      'aaa. 99, 9999',
      '9999-99',
      'a9 9999'
    ])
  })
})
