import { describe, expect, it } from 'vitest'
import { promptTitle } from './generate'

describe('the title a table gets in the prompt', () => {
  it('is the tab name, followed by the lines of a title block when the sheet has one', () => {
    expect(promptTitle('report.xlsx › Table 1', undefined)).toBe('report.xlsx › Table 1')
    expect(promptTitle('report.xlsx › Table 1', 'Table 1. Employed persons by occupation\n[Numbers in thousands]')).toBe(
      'report.xlsx › Table 1: Table 1. Employed persons by occupation / [Numbers in thousands]'
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
      't.xlsx: Table 3. Sales\nNotes: Source: survey / 1 Includes taxes.'
    )
    expect(promptTitle('t.xlsx', undefined, 'x = suppressed')).toBe('t.xlsx\nNotes: x = suppressed')
  })
})
