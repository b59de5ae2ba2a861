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
  /** The cells are set in bold (row labels). */
  bold?: boolean
}

/** Widths in px of a text as the grid sets it: in a cell (bold or not) and in a header (always bold). */
export type Measure = { cell: (text: string, bold: boolean) => number; header: (text: string) => number }

export type ColumnWidth = { key: string; newWidth: number }

export const WIDTH_LIMITS = { numericMax: 640, textMax: 320, indexMax: 220, indexMin: 64, min: 48 } as const

/**
 * Room in a header for its sort arrow (a 16 px icon and its margin), px. The filter button takes none:
 * it shows over the header on hover (see the grid styles).
 */
export const HEADER_ICONS = 18

/** Share of the grid's width the pinned index columns may take together, so data columns keep most of it. */
export const INDEX_SHARE = 0.25

export function fitWidths(
  columns: readonly WidthColumn[],
  measure: Measure,
  /** Horizontal padding of a cell, both sides, px. */
  padding: number
): ColumnWidth[] {
  return columns.map((c) => {
    let content = 0
    // Distinct texts only: a long column of repeated labels costs one measurement each.
    for (const text of new Set(c.texts)) content = Math.max(content, measure.cell(text, c.bold === true))
    const max = c.kind === 'numeric' ? WIDTH_LIMITS.numericMax : c.kind === 'index' ? WIDTH_LIMITS.indexMax : WIDTH_LIMITS.textMax
    const word = c.header.split(/\s+/).reduce((w, part) => Math.max(w, measure.header(part)), 0)
    const header = Math.min(word + HEADER_ICONS, max)
    const width = Math.max(WIDTH_LIMITS.min, header + padding, Math.min(content + padding + 2, max))
    return { key: c.id, newWidth: Math.ceil(width) }
  })
}

/**
 * Narrow the index levels when together they would take more than `budget` px: every level is capped at
 * one common width (levels narrower than it keep theirs), never below the minimum. Labels cut this way
 * end in an ellipsis and show in full on hover; the data columns keep the room.
 */
export function capIndexWidths(index: readonly ColumnWidth[], budget: number, min: number = WIDTH_LIMITS.indexMin): ColumnWidth[] {
  const total = index.reduce((sum, c) => sum + c.newWidth, 0)
  if (total <= budget || index.length === 0) return [...index]
  // The common cap: the largest width w with sum(min(width, w)) <= budget.
  const sorted = index.map((c) => c.newWidth).sort((a, b) => a - b)
  let used = 0
  let cap = min
  for (let i = 0; i < sorted.length; i++) {
    const left = sorted.length - i
    const even = (budget - used) / left
    const width = sorted[i] ?? 0
    if (width > even) {
      cap = even
      break
    }
    used += width
    cap = width
  }
  const limit = Math.max(min, Math.floor(cap))
  return index.map((c) => ({ key: c.key, newWidth: Math.min(c.newWidth, limit) }))
}
