import { anchorOf, rawText, shownText, type Grid } from './grid'
import { cellKind } from './number'

/**
 * Body rows that repeat a header row: every data cell (columns headerCols on) as written in header row h,
 * which fills two columns or more (a label merged over two counts) and not with numbers only. Long web
 * tables print their header again every few rows or once more at the bottom ("Member | Party | Term" between
 * the terms of a seat), and a sheet that stacks two tables with the same columns writes the header again over
 * the second one. Such a row is not data: counting or summing it would be wrong. Ascending row numbers; empty
 * when there are none.
 *
 * O(body rows × data columns) at worst; a row is compared at the header's written cells first, so that most
 * rows stop at their first cell.
 */
export function repeatedHeaderRows(g: Grid, headerRows: number, headerCols: number): number[] {
  // Per qualifying header row: its cells as written, the columns to compare, written ones first, and which
  // of the columns compared first (`firsts`) is its own.
  const headers: { texts: string[]; order: number[]; first: number }[] = []
  for (let h = 0; h < headerRows; h++) {
    const texts: string[] = []
    const written: number[] = []
    const blank: number[] = []
    let filled = 0
    let words = false
    for (let c = headerCols; c < g.cols; c++) {
      const t = rawText(g, h, c)
      texts.push(t)
      ;(t === '' ? blank : written).push(c)
      // A label merged along the row over two columns fills both; one merged down from a row above, none.
      const shown = t === '' && anchorOf(g, h, c).row === h ? shownText(g, h, c) : t
      if (shown === '') continue
      filled++
      if (!words && cellKind(shown) === 'text') words = true
    }
    if (filled >= 2 && words) headers.push({ texts, order: [...written, ...blank], first: -1 })
  }
  const out: number[] = []
  if (headers.length === 0) return out
  // The columns the header rows are compared at first, each read once per body row for all of them.
  const firsts: number[] = []
  for (const header of headers) {
    const c = header.order[0] ?? 0
    header.first = firsts.indexOf(c)
    if (header.first < 0) header.first = firsts.push(c) - 1
  }
  const seen = new Array<string>(firsts.length)
  for (let r = headerRows; r < g.rows; r++) {
    for (let f = 0; f < firsts.length; f++) seen[f] = rawText(g, r, firsts[f] ?? 0)
    for (const { texts, order, first } of headers) {
      let same = seen[first] === texts[(order[0] ?? 0) - headerCols]
      for (let k = 1; k < order.length && same; k++) {
        const c = order[k] ?? 0
        same = rawText(g, r, c) === texts[c - headerCols]
      }
      if (same) {
        out.push(r)
        break
      }
    }
  }
  return out
}

/**
 * The grid for the left tree with the repeated header rows emptied. A row whose label cells are empty or those
 * of a header row (the corner's "Member" again) is then an empty row. One with a label of its own keeps it and
 * becomes a section row over the rows that follow: "SIC (Division)" over the second of two stacked tables
 * whose first is by "Employment". Rows not listed are shared, not copied.
 */
export function withoutRepeatedHeaders(g: Grid, rows: readonly number[], headerRows: number, headerCols: number): Grid {
  if (rows.length === 0) return g
  const labelsOf = (r: number): string => {
    const texts: string[] = []
    for (let c = 0; c < headerCols; c++) texts.push(rawText(g, r, c))
    return texts.join('\u0000')
  }
  const cornerLabels = new Set<string>()
  for (let h = 0; h < headerRows; h++) cornerLabels.add(labelsOf(h))
  const none = new Array<string>(headerCols).fill('').join('\u0000')
  const cells = g.cells.slice()
  for (const r of rows) {
    const labels = labelsOf(r)
    const from = labels === none || cornerLabels.has(labels) ? 0 : headerCols
    const row = (cells[r] ?? []).slice()
    for (let c = from; c < row.length; c++) row[c] = ''
    cells[r] = row
  }
  return { ...g, cells }
}
