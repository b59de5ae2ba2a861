/**
 * Column widths from the cells themselves: a numeric column is as wide as its widest number (so no
 * digit is ever cut on the first screen, whichever columns are scrolled into view), a text column as
 * its text up to a limit, an index level up to a limit. Headers wrap, so a long header does not widen
 * a column of short numbers; a header's longest word still fits.
 */

export type WidthColumn = {
  id: string
  kind: 'numeric' | 'text' | 'index'
  /** The header text as shown. */
  header: string
  /** Cell texts as shown (a sample of rows). */
  texts: readonly string[]
}

export const WIDTH_LIMITS = { numericMax: 640, textMax: 320, indexMax: 220, min: 48 } as const

/** Room for the header's sort icon and its filter button (shown on hover), px. */
const HEADER_ICONS = 18

export function fitWidths(
  columns: readonly WidthColumn[],
  measure: (text: string) => number,
  /** Horizontal padding of a cell, both sides, px. */
  padding: number
): { key: string; newWidth: number }[] {
  return columns.map((c) => {
    let content = 0
    // Distinct texts only: a long column of repeated labels costs one measurement each.
    for (const text of new Set(c.texts)) content = Math.max(content, measure(text))
    const max = c.kind === 'numeric' ? WIDTH_LIMITS.numericMax : c.kind === 'index' ? WIDTH_LIMITS.indexMax : WIDTH_LIMITS.textMax
    const word = c.header.split(/\s+/).reduce((w, part) => Math.max(w, measure(part)), 0)
    const header = Math.min(word + HEADER_ICONS, max)
    const width = Math.max(WIDTH_LIMITS.min, header + padding, Math.min(content + padding + 2, max))
    return { key: c.id, newWidth: Math.ceil(width) }
  })
}
