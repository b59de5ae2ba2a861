import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { RawGrid } from '../../../../shared/table'
import { datasetsDir } from '../../paths'
import { importFileSync } from '../import'
import { splitSideBySide, structureGrid, treePaths } from './index'
import { cleanLabel } from './labels'

describe('cleanLabel', () => {
  it('drops dot leaders, joins words broken at a hyphen and reads other line breaks as spaces', () => {
    expect(cleanLabel('1963-64 .....')).toBe('1963-64')
    expect(cleanLabel('Wages and salaries . . . . .')).toBe('Wages and salaries')
    expect(cleanLabel('Public insti-\n tutions')).toBe('Public institutions')
    expect(cleanLabel('Self-\nEmployed')).toBe('Self-Employed')
    expect(cleanLabel('Percentage of \nwoodland area \n(%)')).toBe('Percentage of woodland area (%)')
    expect(cleanLabel('Occupation\r\ntype')).toBe('Occupation type')
  })

  it('drops footnote markers at the end of a label', () => {
    expect(cleanLabel('Current dollars\\1\\')).toBe('Current dollars')
    expect(cleanLabel('Wheat 1/')).toBe('Wheat')
    expect(cleanLabel('Total 2/ 3/')).toBe('Total')
    expect(cleanLabel('Apr¹')).toBe('Apr')
    expect(cleanLabel('Employment²³ (thousands)')).toBe('Employment (thousands)')
    expect(cleanLabel('Number of Firm Commitments (a)')).toBe('Number of Firm Commitments')
    expect(cleanLabel('Canberra(d)')).toBe('Canberra')
    expect(cleanLabel('Exports (p) (r)')).toBe('Exports')
    expect(cleanLabel('Quebec*')).toBe('Quebec')
    expect(cleanLabel('Total† .....')).toBe('Total')
    expect(cleanLabel('Scotland Total (thousand ha) [note 4]')).toBe('Scotland Total (thousand ha)')
  })

  it('keeps what only looks like a marker: units, plurals, references, fractions and labels that are nothing else', () => {
    for (const label of [
      'Area (km²)',
      'm³',
      'platform(s)',
      'Viewers (m)',
      'Section 501(c)',
      '(a)',
      '*',
      '1/',
      'Ratio 1/2',
      '24/7 service',
      'U.S.',
      'Year 3 2015, 2018 . . . 2024'
    ])
      expect(cleanLabel(label)).toBe(label)
    expect(cleanLabel('  Plain label ')).toBe('Plain label')
  })
})

/** A Digest-style table: labels with leaders and footnotes, a header broken over lines. */
const digest = (): RawGrid => ({
  name: 'digest',
  cells: [
    ['Year', 'Public insti-\n tutions', 'Private\ninstitutions', 'Current dollars\\1\\'],
    ['1963-64 .....', '1,000', '500', '1,200'],
    ['1964-65 .....', '1,100', '520', '1,300'],
    ['Total 2/', '2,100', '1,020', '2,500']
  ],
  merges: [],
  warnings: []
})

describe('labels in header paths', () => {
  it('cleans the labels of column and row paths while the cells keep their source text', () => {
    const grid = digest()
    const source = JSON.stringify(grid.cells)
    const parsed = structureGrid(grid)
    expect(parsed.columns).toEqual([['Public institutions'], ['Private institutions'], ['Current dollars']])
    expect(parsed.index).toEqual([['1963-64'], ['1964-65'], ['Total']])
    expect(treePaths(parsed.topTree)[0]).toEqual(['Public institutions'])
    // The grid's cells, the values and the cells the nodes name are the source's.
    expect(JSON.stringify(grid.cells)).toBe(source)
    expect(parsed.values).toEqual([
      ['1,000', '500', '1,200'],
      ['1,100', '520', '1,300'],
      ['2,100', '1,020', '2,500']
    ])
    const cell = parsed.indexCells[0]
    expect(cell).toEqual({ row: 1, col: 0 })
    expect(grid.cells[cell?.row ?? 0]?.[cell?.col ?? 0]).toBe('1963-64 .....')
  })

  const ott = join(datasetsDir(), 'spreadsheets', 'ons-databaker', 'ott.xls')
  it.skipIf(!existsSync(ott))('reads "Apr¹" in a real ONS sheet as "Apr", and the sheet still shows "Apr¹"', () => {
    const read = importFileSync('ott.xls', new Uint8Array(readFileSync(ott)))
    if (!read.ok) throw new Error(read.error.message)
    const grid = read.value.flatMap(splitSideBySide).find((g) => g.name.endsWith(' › Table 1'))
    if (grid === undefined) throw new Error('no Table 1')
    const parsed = structureGrid(grid)
    const offset = grid.sheetColumn ?? 0
    const source = (k: number): string => {
      const cell = parsed.indexCells[k]
      return cell === null || cell === undefined ? '' : (grid.cells[cell.row]?.[cell.col - offset] ?? '')
    }
    const marked = parsed.index.map((_, k) => k).filter((k) => source(k).includes('Apr¹'))
    expect(marked.length).toBeGreaterThan(0)
    for (const k of marked) expect(parsed.index[k]?.filter((x) => x !== '').at(-1)).toBe('Apr')
    expect(parsed.index.some((t) => t.some((x) => x.includes('¹')))).toBe(false)
  })
})
