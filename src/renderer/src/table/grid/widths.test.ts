import { describe, expect, it } from 'vitest'
import { fitWidths, WIDTH_LIMITS } from './widths'

// Every character 7 px wide.
const measure = (text: string): number => text.length * 7

describe('column widths from the cells', () => {
  it('makes a numeric column as wide as its widest number, whatever its header', () => {
    const [w] = fitWidths([{ id: '0', kind: 'numeric', header: 'Total', texts: ['308,745,538', '9,366'] }], measure, 16)
    expect(w).toEqual({ key: '0', newWidth: 11 * 7 + 16 + 2 })
  })

  it('keeps room for the longest word of the header and its icons', () => {
    const [w] = fitWidths([{ id: '1', kind: 'numeric', header: 'Expenditures total', texts: ['7'] }], measure, 16)
    expect(w?.newWidth).toBe(12 * 7 + 18 + 16)
  })

  it('limits text and index columns but never a number below its width', () => {
    const long = 'x'.repeat(200)
    const [text, index, number] = fitWidths(
      [
        { id: 't', kind: 'text', header: 'Name', texts: [long] },
        { id: 'i:0', kind: 'index', header: 'level 1', texts: [long] },
        { id: 'n', kind: 'numeric', header: 'n', texts: ['1'.repeat(60)] }
      ],
      measure,
      16
    )
    expect(text?.newWidth).toBe(WIDTH_LIMITS.textMax)
    expect(index?.newWidth).toBe(WIDTH_LIMITS.indexMax)
    expect(number?.newWidth).toBe(60 * 7 + 16 + 2)
  })
})
