import { describe, expect, it } from 'vitest'
import { columnRange, labelledParents, readSheetLabels, rowRange } from '../../../../../scripts/bench/parse-sheets'

describe('the hand labels of the real-sheet benchmark', () => {
  it('write every body row as "rows:parent", with its parent above it, under the header', () => {
    for (const label of readSheetLabels()) {
      const parents = labelledParents(label.parents)
      const headerEnd = Math.max(0, ...rowRange(label.header))
      expect(parents.size, label.file).toBeGreaterThan(0)
      for (const [row, parent] of parents) {
        expect(row, `${label.file} row ${row}`).toBeGreaterThan(headerEnd)
        if (parent !== null) expect(parent, `${label.file} row ${row}`).toBeLessThan(row)
      }
      expect(columnRange(label.labels).every((c) => c >= 0)).toBe(true)
    }
  })

  it('refuses an entry that is not "rows:parent"', () => {
    expect(() => labelledParents(['3:', '4-5:3', 'Exhibit:'])).toThrow(/rows:parent/)
  })
})
