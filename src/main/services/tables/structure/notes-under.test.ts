import { describe, expect, it } from 'vitest'
import type { RawGrid } from '../../../../shared/table'
import { detectStructure, structureGrid } from './index'
import { withoutRules } from './rules/types'

const grid = (cells: string[][], extra: Partial<RawGrid> = {}): RawGrid => ({ name: 't', cells, merges: [], warnings: [], ...extra })
const notesOf = (g: RawGrid): string => structureGrid(g, detectStructure(g)).notes ?? ''

// The foot of an ABS data cube (6306.0, Table 1): the last row of values, a blank row, a copyright line.
const abs = (): string[][] => [
  ['', 'Males', 'Females', 'Persons'],
  ['Full-time', '1,000', '800', '1,800'],
  ['Part-time', '300', '700', '1,000'],
  ['All employees', '1,300', '1,500', '2,800'],
  ['', '', '', ''],
  ['— nil or rounded to zero (including null cells)', '', '', ''],
  ['na not available', '', '', ''],
  ['', '', '', ''],
  ['© Commonwealth of Australia 2019', '', '', '']
]

describe('notes under the table', () => {
  it('note-after-values: a copyright and symbol legends set off below the values are notes, not rows', () => {
    const g = grid(abs())
    expect(notesOf(g)).toBe('— nil or rounded to zero (including null cells)\nna not available\n© Commonwealth of Australia 2019')
    expect(structureGrid(g, detectStructure(g)).index.map((p) => p.join(' > '))).toEqual(['Full-time', 'Part-time', 'All employees'])
    expect(withoutRules(['note-after-values'], () => notesOf(g))).toBe('')
  })

  it('note-after-values: a lone line right under the values may be the last row of the table', () => {
    const g = grid([
      ['Athlete', 'Time', 'Points'],
      ['A. Jones', '10.01', '1,200'],
      ['B. Smith', '10.12', '1,150'],
      ['Wind: -2.6 m/s', '', '']
    ])
    expect(notesOf(g)).toBe('')
  })

  it('note-after-values: a file of records keeps its last record', () => {
    const cells = abs()
    expect(notesOf(grid(cells, { hints: { records: true } }))).not.toContain('Commonwealth')
  })

  it('reads a footnote whose marker sits in a cell of its own ("1 | When downloading data …", "[1] | Includes …")', () => {
    // The foot of ONS's balance of payments Table A: marker in column A, text in column B, wrapped lines.
    const g = grid([
      ['', '', 'CDID', '2019', '2020'],
      ['', 'Current account', 'HBOP', '-30,000', '-21,000'],
      ['', 'Net errors and omissions2', 'HHDH', '2,225', '-21,742'],
      ['', '', '', '', ''],
      ['1', 'When downloading data from the Pink Book dataset users should', '', '', ''],
      ['', 'reverse the sign of series that have an identifier that is prefixed with', '', '', ''],
      ['', 'a minus sign.', '', '', ''],
      ['2', 'This series represents net errors and omissions in the balance of payments', '', '', '']
    ])
    expect(notesOf(g).split('\n')).toHaveLength(4)
    expect(notesOf(g).split('\n')[0]).toBe('1 When downloading data from the Pink Book dataset users should')
  })

  it('keeps a sheet of notes as a table, and rows that go on numbering the table as rows', () => {
    // GSS "accessible" Notes sheet: the notes are the table.
    const notesSheet = grid([
      ['Note number', 'Note text'],
      ['[1]', 'FE = Forestry England, FLS = Forestry and Land Scotland, NRW = Natural Resources Wales.'],
      ['[2]', 'Private sector = All other woodland, including some other publicly owned woodland.'],
      ['[3]', 'Includes woodland formed by natural colonisation (where known).']
    ])
    expect(notesOf(notesSheet)).toBe('')
    // A numbered list whose last rows carry a date only: row 12 goes on numbering rows 1 to 11.
    const numbered = grid([
      ['#', 'Date', 'Attendance'],
      ...Array.from({ length: 11 }, (_, i) => [String(i + 1), `${i + 1} July 2013`, String(20000 + i * 250)]),
      ['12', '12 July 2013', '']
    ])
    expect(notesOf(numbered)).toBe('')
  })
})
