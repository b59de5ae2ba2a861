/**
 * A table as pandas would print it, approximately, plus its header tuples.
 *
 * The rule:
 * - Column labels take one line per level. A label above the bottom level is printed once, at the first
 *   column of the run of columns that share it (pandas' "sparsified" MultiIndex), left-aligned and free to
 *   run over the following columns of that run; bottom-level labels and data cells are right-aligned.
 * - Row labels take one column per level, left-aligned; a level's label is printed only where it differs
 *   from the row above (again sparsified). A table without row labels shows row positions 0, 1, 2, …
 * - Cells are cut to 40 characters (`...`); line breaks inside a cell become spaces; columns are two
 *   spaces apart; `[n rows x m columns]` closes the table as pandas does for long frames.
 * - Rows left out to fit the token budget show as one line `... (k rows omitted) ...`.
 * Under the table, the column header tuples (and the row header tuples of the rows shown) are listed in
 * Python syntax, because programs must name them exactly.
 */

/** The part of a ParsedTable the prompt shows. */
export type ViewTable = { columns: string[][]; index: string[][]; values: string[][] }

export const MAX_CELL_CHARS = 40
const GAP = '  '

export function cellText(text: string): string {
  // Most cells have no line break: skip the regular expression for them (it is most of a long table's reading).
  const flat = (text.includes('\n') || text.includes('\r') ? text.replace(/\s*[\r\n]+\s*/g, ' ') : text).trim()
  return flat.length > MAX_CELL_CHARS ? `${flat.slice(0, MAX_CELL_CHARS - 3)}...` : flat
}

const depthsOf = new WeakMap<ViewTable, { col: number; row: number }>()

/** Depth of the column labels (at least 1) and of the row labels (0 for a plain RangeIndex). */
export function depths(table: ViewTable): { col: number; row: number } {
  // Asked for several times per prompt, and reading every row label of a long table each time adds up.
  const known = depthsOf.get(table)
  if (known !== undefined) return known
  const longest = (tuples: readonly (readonly string[])[]): number => tuples.reduce((m, t) => Math.max(m, t.length), 0)
  const found = {
    col: Math.max(1, longest(table.columns)),
    row: table.index.some((t) => t.some((x) => x !== '')) ? longest(table.index) : 0
  }
  depthsOf.set(table, found)
  return found
}

function level(tuple: readonly string[] | undefined, l: number): string {
  return tuple?.[l] ?? ''
}

function samePrefix(a: readonly string[] | undefined, b: readonly string[] | undefined, through: number): boolean {
  if (a === undefined || b === undefined) return false
  for (let l = 0; l <= through; l += 1) if (level(a, l) !== level(b, l)) return false
  return true
}

/** Widths of the row-label columns and the data columns over the given rows. */
export function columnWidths(table: ViewTable, rows: readonly number[]): { index: number[]; data: number[] } {
  const d = depths(table)
  const data = table.columns.map((t) => cellText(level(t, d.col - 1)).length)
  const index = d.row === 0 ? [Math.max(1, String(Math.max(0, table.values.length - 1)).length)] : new Array<number>(d.row).fill(0)
  for (const r of rows) {
    const values = table.values[r] ?? []
    for (let j = 0; j < data.length; j += 1) data[j] = Math.max(data[j] ?? 0, cellText(values[j] ?? '').length)
    if (d.row > 0) for (let l = 0; l < d.row; l += 1) index[l] = Math.max(index[l] ?? 0, cellText(level(table.index[r], l)).length)
  }
  return { index, data }
}

/** Characters of one data row when printed with these widths (newline included). */
export function rowChars(widths: { index: number[]; data: number[] }): number {
  const indexChars = widths.index.reduce((s, w) => s + w, 0) + GAP.length * Math.max(0, widths.index.length - 1)
  return indexChars + widths.data.reduce((s, w) => s + w + GAP.length, 0) + 1
}

/** Prints the header lines and the given rows (sorted positions); gaps become omission markers. */
export function renderFrame(table: ViewTable, rows: readonly number[]): string {
  const d = depths(table)
  const widths = columnWidths(table, rows)
  const data = [...widths.data]
  // An upper label wider than its run of columns widens the run's last column.
  for (let l = 0; l < d.col - 1; l += 1) {
    for (let j = 0; j < table.columns.length;) {
      let end = j + 1
      while (end < table.columns.length && samePrefix(table.columns[end], table.columns[j], l)) end += 1
      const label = cellText(level(table.columns[j], l))
      const span = data.slice(j, end).reduce((s, w) => s + w, 0) + GAP.length * (end - j - 1)
      if (label.length > span) data[end - 1] = (data[end - 1] ?? 0) + label.length - span
      j = end
    }
  }
  const indexWidth = widths.index.reduce((s, w) => s + w, 0) + GAP.length * Math.max(0, widths.index.length - 1)
  const starts: number[] = []
  let x = indexWidth
  for (const w of data) {
    starts.push(x + GAP.length)
    x += GAP.length + w
  }
  const lines: string[] = []
  for (let l = 0; l < d.col; l += 1) {
    const line = new Array<string>(x).fill(' ')
    const put = (at: number, text: string): void => {
      for (let k = 0; k < text.length; k += 1) line[at + k] = text[k] ?? ' '
    }
    for (let j = 0; j < table.columns.length; j += 1) {
      const tuple = table.columns[j]
      const at = starts[j] ?? 0
      const w = data[j] ?? 0
      if (l === d.col - 1) put(at, cellText(level(tuple, l)).padStart(w))
      else if (j === 0 || !samePrefix(table.columns[j - 1], tuple, l)) put(at, cellText(level(tuple, l)))
    }
    lines.push(line.join('').trimEnd())
  }
  let previous: number | null = null
  for (const r of rows) {
    if (previous === null ? r > 0 : r > previous + 1) lines.push(omitted(previous === null ? r : r - previous - 1))
    const values = table.values[r] ?? []
    let line: string
    if (d.row === 0) {
      line = String(r).padEnd(widths.index[0] ?? 1)
    } else {
      const parts: string[] = []
      for (let l = 0; l < d.row; l += 1) {
        const shown = previous === null || previous !== r - 1 || !samePrefix(table.index[previous], table.index[r], l)
        parts.push((shown ? cellText(level(table.index[r], l)) : '').padEnd(widths.index[l] ?? 0))
      }
      line = parts.join(GAP)
    }
    for (let j = 0; j < table.columns.length; j += 1) line += GAP + cellText(values[j] ?? '').padStart(data[j] ?? 0)
    lines.push(line.trimEnd())
    previous = r
  }
  const last = rows.length === 0 ? -1 : (rows[rows.length - 1] ?? -1)
  if (last < table.values.length - 1) lines.push(omitted(table.values.length - 1 - last))
  lines.push('', `[${table.values.length} rows x ${table.columns.length} columns]`)
  return lines.join('\n')
}

export function omitted(count: number): string {
  return `... (${count} row${count === 1 ? '' : 's'} omitted) ...`
}

/** A Python string literal for a label, the way `repr` writes it. */
export function pyString(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'"
  const body = text
    .replace(/\\/g, '\\\\')
    .replace(/\n/g, '\\n')
    .replace(/\t/g, '\\t')
    .replace(quote === "'" ? /'/g : /"/g, `\\${quote}`)
  return `${quote}${body}${quote}`
}

/** A header label as pandas gives it: a plain string for one level, a tuple for several. */
export function pyLabel(tuple: readonly string[], depth: number): string {
  if (depth <= 1) return pyString(tuple[0] ?? '')
  const parts = Array.from({ length: depth }, (_, l) => pyString(tuple[l] ?? ''))
  return `(${parts.join(', ')})`
}

/** The header tuples under the table; row labels only for the rows shown. */
export function headerListing(name: string, table: ViewTable, rows: readonly number[]): string {
  const d = depths(table)
  const out = [`Column headers of ${name}: [${table.columns.map((t) => pyLabel(t, d.col)).join(', ')}]`]
  if (d.row > 0) {
    const shown = rows.map((r) => pyLabel(table.index[r] ?? [], d.row))
    const hidden = table.values.length - rows.length
    out.push(`Row headers of ${name}${hidden > 0 ? ` (rows shown)` : ''}: [${shown.join(', ')}]`)
  }
  return out.join('\n')
}
