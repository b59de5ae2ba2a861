/**
 * The cells of a sheet as the importer gives them, before any structure is read: one line per row (1-based, as
 * the sheet shows them) with each written cell's column letter, text, indentation and bold, and the merged
 * ranges. What the sheet labels of the parse bench are read from; it never runs the structure pass.
 */
import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { importFileSync } from '../../src/main/services/tables/import'
import { splitSideBySide } from '../../src/main/services/tables/structure'
import type { RawGrid } from '../../src/shared/table'

/** "A", "B", …, "Z", "AA", … for a 0-based column. */
export function columnLetter(col: number): string {
  let s = ''
  for (let c = col + 1; c > 0; c = Math.floor((c - 1) / 26)) s = String.fromCharCode(65 + ((c - 1) % 26)) + s
  return s
}

/** The grids of a file as the app opens them (tables side by side split), or an error message. */
export function openGrids(path: string): RawGrid[] | string {
  return openBytes(path, new Uint8Array(readFileSync(path)))
}

/** The grids of a file's bytes as the app opens them. */
export function openBytes(path: string, bytes: Uint8Array): RawGrid[] | string {
  const read = importFileSync(basename(path), bytes)
  return read.ok ? read.value.flatMap(splitSideBySide) : read.error.message
}

export type CellDumpOptions = { rows?: [number, number]; maxCols?: number; width?: number }

/** The lines of one grid's dump. */
export function cellLines(grid: RawGrid, options: CellDumpOptions = {}): string[] {
  const [from, to] = options.rows ?? [1, grid.cells.length]
  const maxCols = options.maxCols ?? 12
  const width = options.width ?? 40
  const lines = [`# ${grid.name}: ${grid.cells.length} rows, ${grid.cells.reduce((w, r) => Math.max(w, r.length), 0)} columns`]
  const offset = grid.sheetColumn ?? 0
  for (const m of grid.merges)
    if (Math.max(m.top, m.bottom) + 1 >= from && Math.min(m.top, m.bottom) + 1 <= to)
      lines.push(`merge ${columnLetter(m.left + offset)}${m.top + 1}:${columnLetter(m.right + offset)}${m.bottom + 1}`)
  for (let r = from - 1; r < Math.min(to, grid.cells.length); r++) {
    const row = grid.cells[r] ?? []
    const parts: string[] = []
    let filled = 0
    for (let c = 0; c < row.length; c++) {
      const text = row[c] ?? ''
      if (text.trim() === '') continue
      filled++
      if (parts.length >= maxCols) continue
      const style = grid.styles?.[`${r},${c}`]
      const lead = /^[ \u00a0]*/.exec(text)?.[0].length ?? 0
      const marks = [style?.indent ? `i${style.indent}` : '', lead > 0 ? `s${lead}` : '', style?.bold ? 'b' : '', style?.header ? 'th' : '']
        .filter((x) => x !== '')
        .join(' ')
      const shown = JSON.stringify(text.trim().length > width ? `${text.trim().slice(0, width)}…` : text.trim())
      parts.push(`${columnLetter(c + offset)}${marks === '' ? '' : `[${marks}]`}=${shown}`)
    }
    if (filled === 0) continue
    lines.push(`${String(r + 1).padStart(4)} (${filled}) ${parts.join(' | ')}${filled > parts.length ? ' | …' : ''}`)
  }
  return lines
}
