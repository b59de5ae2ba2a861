import type { AnswerCell, AnswerTable } from '../../../shared/ask'

/** Header text of a column tuple: its non-blank levels joined. */
export function columnTitle(tuple: readonly string[], index: number): string {
  const parts = tuple.filter((p) => p.trim() !== '')
  return parts.length > 0 ? parts.join(' › ') : `column ${index + 1}`
}

/** Header text of a row-index level: its name, or which level it is. */
export function indexTitle(name: string, level: number): string {
  return name.trim() === '' ? `level ${level + 1}` : name
}

/**
 * How a numeric column of an answer shows its numbers. Digits are grouped ("12,500") only in a column that
 * holds a number of five digits or more: four-digit numbers read best without a separator (as style
 * guides set them), and a column of years or codes ("1910") must not read as amounts ("1,910").
 */
export function numberFormatter(values: readonly AnswerCell[]): (value: number) => string {
  const grouped = values.some((v) => typeof v === 'number' && Math.abs(v) >= 10_000)
  const format = new Intl.NumberFormat('en-US', { maximumFractionDigits: 10, useGrouping: grouped })
  return (value) => format.format(value)
}

function text(cell: AnswerCell | string | undefined): string {
  return cell === null || cell === undefined ? '' : String(cell)
}

/** Header and rows of a table answer as text cells: the row index first, then the columns. */
export function tableGrid(table: AnswerTable): string[][] {
  const header = [...table.indexNames.map(indexTitle), ...table.columns.map(columnTitle)]
  const rows = table.rows.map((row, i) => [...(table.indexNames.length > 0 ? (table.index[i] ?? []) : []), ...row.map(text)])
  return [header, ...rows]
}

function csvField(value: string): string {
  // A leading =, +, - or @ would make a spreadsheet run the cell as a formula.
  const safe = /^[=+\-@\t\r]/.test(value) && !/^-?\d/.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}

/** RFC 4180 CSV (CRLF line ends), safe to open in a spreadsheet. */
export function toCsv(grid: readonly (readonly string[])[]): string {
  return `${grid.map((row) => row.map(csvField).join(',')).join('\r\n')}\r\n`
}

/** Tab-separated text, as a spreadsheet pastes it. */
export function toTsv(grid: readonly (readonly string[])[]): string {
  return `${grid.map((row) => row.map((c) => c.replace(/[\t\r\n]+/g, ' ')).join('\t')).join('\n')}\n`
}

/** Save text or a data URL as a file (works in the browser and in Electron). */
export function saveFile(name: string, content: Blob | string): void {
  const url = typeof content === 'string' ? content : URL.createObjectURL(content)
  const link = document.createElement('a')
  link.href = url
  link.download = name
  document.body.append(link)
  link.click()
  link.remove()
  if (typeof content !== 'string') setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

/** A file name from the question: its first words, safe on every system. */
export function fileStem(question: string): string {
  const words = question
    .replace(/[^\p{L}\p{N} _-]+/gu, ' ')
    .trim()
    .split(/\s+/)
    .slice(0, 8)
    .join('-')
  return words === '' ? 'answer' : words.slice(0, 60)
}
