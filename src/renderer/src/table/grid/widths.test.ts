import { describe, expect, it } from 'vitest'
import { capIndexWidths, fitWidths, HEADER_ICONS, WIDTH_LIMITS, type Measure } from './widths'

// Every character 7 px wide, 8 px in bold; headers are bold.
const measure: Measure = { cell: (text, bold) => text.length * (bold ? 8 : 7), header: (text) => text.length * 8 }

describe('column widths from the cells', () => {
  it('makes a numeric column as wide as its widest number, whatever its header', () => {
    const [w] = fitWidths([{ id: '0', kind: 'numeric', header: 'Total', texts: ['308,745,538', '9,366'] }], measure, 16)
    expect(w).toEqual({ key: '0', newWidth: 11 * 7 + 16 + 2 })
  })

  it('keeps room for the longest word of the header, set in bold, and its icons', () => {
    const [w] = fitWidths([{ id: '1', kind: 'numeric', header: 'Expenditures total', texts: ['7'] }], measure, 16)
    expect(w?.newWidth).toBe(12 * 8 + HEADER_ICONS + 16)
  })

  it('measures bold row labels as bold', () => {
    const [plain, bold] = fitWidths(
      [
        { id: 'i:0', kind: 'index', header: 'a', texts: ['x'.repeat(20)] },
        { id: 'i:1', kind: 'index', header: 'a', texts: ['x'.repeat(20)], bold: true }
      ],
      measure,
      16
    )
    expect(plain?.newWidth).toBe(20 * 7 + 18)
    expect(bold?.newWidth).toBe(20 * 8 + 18)
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

describe('index columns within their share of the grid', () => {
  const levels = (...widths: number[]): { key: string; newWidth: number }[] => widths.map((w, i) => ({ key: `i:${i}`, newWidth: w }))

  it('leaves them alone when they fit', () => {
    expect(capIndexWidths(levels(100, 200), 300)).toEqual(levels(100, 200))
  })

  it('caps the wide levels at one width and keeps the narrow ones', () => {
    const capped = capIndexWidths(levels(70, 220, 220, 200), 400)
    expect(capped).toEqual(levels(70, 110, 110, 110))
    expect(capped.reduce((s, c) => s + c.newWidth, 0)).toBeLessThanOrEqual(400)
  })

  it('never goes below the minimum, even past the budget', () => {
    expect(capIndexWidths(levels(200, 200, 200, 200, 200), 200, 64)).toEqual(levels(64, 64, 64, 64, 64))
  })
})
