import { describe, expect, it } from 'vitest'
import type { RawGrid } from '../../../../shared/table'
import { structureGrid } from '../../tables/structure'
import { pandasAvailable, runPython } from '../../../../../test/support/python'
import { a1Address } from './formula'
import { evaluateOnTexts } from './evaluate'
import { hitabProgram, textsCell } from './hitab'

// HiTab table 651 (README example): a left tree with a section row, one data column.
const TEXTS = [
  ['shipment type', 'kilometres'],
  ['dangerous goods', ''],
  ['crude petroleum products', '110'],
  ['other dangerous goods', '313'],
  ['non-dangerous goods', '665'],
  ['all shipments', '632']
]
const GRID: RawGrid = { name: '651.json', cells: TEXTS, merges: [], warnings: [] }
const REFS = { B5: '(2, 1)', B6: '(3, 1)' }

function program(formulas: unknown[], refs: Record<string, string> = REFS): string {
  const r = hitabProgram(structureGrid(GRID, { headerRows: 1, headerCols: 1 }), formulas, refs)
  if (!r.ok) throw new Error(r.error.message)
  return r.value.program
}

describe('HiTab oracle programs', () => {
  it('maps A1 names to texts cells through reference_cells_map, else by the row + 3, column + 1 offset', () => {
    expect(textsCell(a1Address('B5'), REFS)).toEqual({ row: 2, col: 1 })
    expect(textsCell(a1Address('B7'), {})).toEqual({ row: 4, col: 1 })
    expect(textsCell(a1Address('A4'), {})).toEqual({ row: 1, col: 0 })
  })
  it('addresses data cells by header paths with lookup, never by grid position', () => {
    const code = program(['=B5/B6'])
    expect(code).toContain('lookup(df, ("dangerous goods", "crude petroleum products"), "kilometres")')
    expect(code).not.toMatch(/iloc|iat|\.values/)
  })
  it('addresses header cells through the header path of a line they label', () => {
    // "non-dangerous goods" closes the section "dangerous goods", so "all shipments" after it is a top-level
    // row; the label is the level its cell sits at.
    expect(program(['A8'], {})).toBe('answer = row(df, ("all shipments", "")).name[0]\n')
  })
  it('fails with the cells it cannot place in the structured table', () => {
    const r = hitabProgram(structureGrid(GRID, { headerRows: 1, headerCols: 1 }), ['=C5'], {})
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error.message).toContain('C5')
  })
  it('evaluates formulas on the raw grid independently of the structure pass', () => {
    expect(evaluateOnTexts(['=B5/B6'], TEXTS, REFS)?.[0]).toBeCloseTo(0.351438, 6)
    expect(evaluateOnTexts(['=SUM(B5:B7)', '=B5&"%"'], TEXTS, {})).toEqual([1088, '110%'])
  })
  it('applies arithmetic on a range to each of its cells, inside functions and out (Excel array arithmetic)', () => {
    expect(evaluateOnTexts(['=SUM(B5:B7+0)', '=MAX(B5:B7*2)', '=SUM(B5:B6-B6:B7)', '=B5:B6/10'], TEXTS, {})).toEqual([
      1088, 1330, -555, 11, 31.3
    ])
    expect(evaluateOnTexts(['=SUM(ABS(-B5:B6))'], TEXTS, {})).toEqual([423])
    const code = program(['=SUM(B5:B7+0)'], {})
    expect(code).toMatch(/^answer = sum\(\[x for x in \[\(to_number\(lookup\(.*\)\) \+ 0\), /)
    expect(() => program(['=SUM(B5:B6+B5:B7)'], {})).toThrow(/2 and 3 cells do not pair up/)
  })
  it.runIf(pandasAvailable())('gives the gold answer when run on the multi-index DataFrame', () => {
    const table = structureGrid(GRID, { headerRows: 1, headerCols: 1 })
    const payload: Record<string, unknown> = { ...table }
    delete payload.numbers
    const run = runPython(program(['=B5/B6']), payload)
    expect(run.ok && run.value.value?.repr).toMatch(/^0\.35143769/)
    const label = runPython(program(['A8'], {}), payload)
    expect(label.ok && label.value.value?.repr).toBe("'all shipments'")
    const sum = runPython(program(['=SUM(B5:B7+0)', '=B5:B6*2'], {}), payload)
    expect(sum.ok && sum.value.value?.repr).toBe('[1088.0, [220.0, 626.0]]')
  })
})
