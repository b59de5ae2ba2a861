import { describe, expect, it } from 'vitest'
import { promptTitle } from './generate'

describe('the title a table gets in the prompt', () => {
  it('is the tab name, followed by the lines of a title block when the sheet has one', () => {
    expect(promptTitle('Sales 2020', undefined)).toBe('Sales 2020')
    expect(promptTitle('report.xlsx › Table 1', 'Table 1. Employed persons by occupation\n[Numbers in thousands]')).toBe(
      'report › Table 1: Table 1. Employed persons by occupation / [Numbers in thousands]'
    )
    expect(promptTitle('', 'Crime in the United States')).toBe('Crime in the United States')
  })

  it('cuts a long title block of source notes', () => {
    const notes = Array.from({ length: 20 }, (_, i) => `Source note ${i}: figures are estimates from a sample survey.`).join('\n')
    const title = promptTitle('t', notes)
    expect(title.length).toBe(300)
    expect(title.endsWith('…')).toBe(true)
  })

  it('gives the notes under the table on a line of their own', () => {
    expect(promptTitle('t.xlsx', 'Table 3. Sales', 'Source: survey\n1 Includes taxes.')).toBe(
      't: Table 3. Sales\nNotes: Source: survey / 1 Includes taxes.'
    )
    expect(promptTitle('t.xlsx', undefined, 'x = suppressed')).toBe('t\nNotes: x = suppressed')
  })

  it('leaves out file extensions, which invite a program to read a file that is not there', () => {
    expect(promptTitle('orders.csv', undefined)).toBe('orders')
    expect(promptTitle('1008.json', 'Employed persons')).toBe('1008: Employed persons')
    expect(promptTitle('Book.XLSX › Sheet1 › Table 2', undefined)).toBe('Book › Sheet1 › Table 2')
    // Only at the end of a part of the name.
    expect(promptTitle('v1.csv.notes › Q3', undefined)).toBe('v1.csv.notes › Q3')
    expect(promptTitle('www.example.html', undefined)).toBe('www.example')
  })
})
