import { describe, expect, it } from 'vitest'
import type { RawGrid } from '../../../../shared/table'
import { detectStructure } from './index'
import { withoutRules } from './rules/types'

const grid = (cells: string[][]): RawGrid => ({ name: 't', cells, merges: [], warnings: [] })

describe('label columns that hold codes', () => {
  it('labels-code-columns: the code and type written beside each indented label are labels (BLS occupation table)', () => {
    const cells = [
      [
        '2020 National Employment Matrix title',
        'Matrix code',
        'Occupation type',
        'Employment, 2021',
        'Employment, 2031',
        'Change, percent',
        'Openings'
      ],
      ['Total, all occupations', '00-0000', 'Summary', '158,134.7', '166,452.1', '5.3', '19,532.5'],
      ['  Management occupations', '11-0000', 'Summary', '11,685.3', '12,569.2', '7.6', '1,101.8'],
      ['    Top executives', '11-1000', 'Summary', '3,447.8', '3,638.6', '5.5', '321.9'],
      ['      Chief executives', '11-1011', 'Line item', '283.9', '263.3', '-7.3', '17.7'],
      ['      General and operations managers', '11-1021', 'Line item', '3,118.4', '3,328.2', '6.7', '300.4'],
      ['    Advertising and marketing managers', '11-2000', 'Summary', '914.9', '980.4', '7.2', '86.3']
    ]
    expect(detectStructure(grid(cells)).headerCols).toBe(3)
    expect(withoutRules(['labels-code-columns'], () => detectStructure(grid(cells)).headerCols)).toBe(1)
    // Without indentation nothing shows the text columns describe the labels (they may be data, as a country beside a name).
    const flat = cells.map((row) => row.map((c) => c.trim()))
    expect(detectStructure(grid(flat)).headerCols).toBe(1)
  })

  it('labels-under-corner: a column of classification codes under the corner is a label column (ONS ASHE table)', () => {
    const head = [
      ['', '', 'Number', '', 'Annual'],
      ['', '', 'of jobs', '', 'percentage'],
      ['Description', 'Code', '(thousand)', 'Median', 'change']
    ]
    const body = [
      ['Managers, directors and senior officials', '1', '3.9', '12.0', '1.1'],
      ['  Corporate managers and directors', '11', '13.3', '12.0', '0.4'],
      ['  Other managers and proprietors', '12', '34.0', '7.1', '0.9'],
      ['Professional occupations', '2', '1.0', '7.4', '2.2'],
      ['  Science, research, engineering', '21', '6.1', '5.5', '1.0'],
      ['  Health professionals', '22', '2.2', '4.1', '0.7'],
      ['  Teaching and educational professionals', '23', '3.3', '3.9', '1.8'],
      ['Skilled trades occupations', '5', '3.0', '4.4', '0.6'],
      ['  Skilled agricultural trades', '51', '9.9', '8.0', '1.2']
    ]
    expect(detectStructure(grid([...head, ...body])).headerCols).toBe(2)
    // A column of counts in the same place is data: its numbers are not in the order of codes.
    const counts = body.map((row, i) => [row[0] ?? '', String([14, 3, 27, 1, 9, 12, 5, 30, 2][i]), ...row.slice(2)])
    expect(detectStructure(grid([...head, ...counts])).headerCols).toBe(1)
  })
})
