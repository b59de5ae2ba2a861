import { Parser } from 'htmlparser2'
import type { CellStyle, MergedRegion, RawGrid } from '../../../../shared/table'
import { fail, ok, type Result } from '../../../../shared/result'
import { decodeText } from './decode'
import { LIMITS } from './grid'

const MAX_COLSPAN = 1000
const MAX_ROWSPAN = 65534
const SKIPPED = new Set(['script', 'style', 'template', 'noscript'])
const BLOCKS = new Set(['p', 'div', 'li', 'ul', 'ol', 'dl', 'dt', 'dd', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'tr', 'td', 'th'])

type HtmlCell = { parts: string[]; colSpan: number; rowSpan: number; header: boolean }
type OpenTable = {
  order: number
  rows: HtmlCell[][]
  row: HtmlCell[] | null
  cell: HtmlCell | null
  caption: string[] | null
  captionText: string
}
type DoneTable = { order: number; rows: HtmlCell[][]; caption: string }

/** Text a reader does not see as part of the cell: scripts, hidden sort keys, citation marks. */
function isHidden(tag: string, attrs: Record<string, string>): boolean {
  if (SKIPPED.has(tag)) return true
  if (/display\s*:\s*none/i.test(attrs.style ?? '')) return true
  const cls = ` ${attrs.class ?? ''} `
  return cls.includes(' sortkey ') || (tag === 'sup' && cls.includes(' reference '))
}

function span(value: string | undefined, max: number): number {
  const n = Number.parseInt(value ?? '1', 10)
  return Number.isFinite(n) && n >= 1 ? Math.min(n, max) : 1
}

function cleanText(parts: string[]): string {
  return parts
    .join('')
    .replace(/ {2,}/g, ' ')
    .replace(/ *\n[\n ]*/g, '\n')
    .trim()
}

/** Lay cells out on a grid the way browsers do: each cell takes the next free slot of its row. */
function layout(table: DoneTable, name: string): RawGrid {
  const warnings: string[] = []
  const occupied: boolean[][] = []
  // Cell texts by row as (column, text) pairs: wide spans leave gaps that would make sparse arrays slow.
  const texts: [number, string][][] = []
  const merges: MergedRegion[] = []
  const styles: Record<string, CellStyle> = {}
  const height = table.rows.length
  let width = 0
  let dropped = false
  table.rows.forEach((cells, r) => {
    occupied[r] ??= []
    const rowTexts: [number, string][] = (texts[r] ??= [])
    let c = 0
    for (const cell of cells) {
      while (occupied[r]?.[c] === true) c++
      const bottom = Math.min(r + cell.rowSpan - 1, height - 1)
      const right = c + cell.colSpan - 1
      // The grid is as tall as the table and as wide as its widest row, so that product is what is bounded.
      if (height * Math.max(width, right + 1) > LIMITS.maxCellsPerGrid) {
        dropped = true
        break
      }
      for (let rr = r; rr <= bottom; rr++) {
        const occ = (occupied[rr] ??= [])
        for (let cc = c; cc <= right; cc++) occ[cc] = true
      }
      const text = cleanText(cell.parts)
      rowTexts.push([c, text])
      if (bottom > r || right > c) merges.push({ top: r, left: c, bottom, right })
      if (cell.header && text !== '') styles[`${r},${c}`] = { bold: true, header: true }
      // Columns in which no cell starts (an over-wide footer colspan) are not kept, as browsers do.
      if (c + 1 > width) width = c + 1
      c = right + 1
    }
  })
  if (dropped) warnings.push('Some cells were left out because the table would be too large.')
  const cells = texts.map((row) => {
    const out = new Array<string>(width).fill('')
    for (const [c, text] of row) if (c < width) out[c] = text
    return out
  })
  for (const m of merges) m.right = Math.min(m.right, width - 1)
  const kept = merges.filter((m) => m.bottom > m.top || m.right > m.left)
  const grid: RawGrid = { name, cells, merges: kept, warnings }
  if (Object.keys(styles).length > 0) grid.styles = styles
  if (table.caption !== '') grid.hints = { title: table.caption }
  return grid
}

/** Import every `<table>` of an HTML document; `<th>` cells are marked as header cells, and bold. */
export function importHtml(name: string, bytes: Uint8Array): Result<RawGrid[]> {
  const decoded = decodeText(name, bytes)
  if (!decoded.ok) return decoded
  const stack: OpenTable[] = []
  const done: DoneTable[] = []
  let opened = 0
  let ignoredDepth = 0
  let skipDepth = 0
  const appendToOpenCells = (s: string): void => {
    for (const t of stack) {
      if (t.cell !== null) t.cell.parts.push(s)
      else if (t.caption !== null) t.caption.push(s)
    }
  }
  const parser = new Parser(
    {
      onopentag: (tag, attrs) => {
        if (skipDepth > 0 || isHidden(tag, attrs)) {
          skipDepth++
          return
        }
        if (tag === 'table') {
          if (ignoredDepth > 0 || opened >= LIMITS.maxGrids) {
            ignoredDepth++
            opened++
          } else {
            stack.push({ order: opened++, rows: [], row: null, cell: null, caption: null, captionText: '' })
          }
        }
        const top = stack[stack.length - 1]
        if (BLOCKS.has(tag) || tag === 'br') appendToOpenCells('\n')
        if (top === undefined || ignoredDepth > 0) return
        if (tag === 'tr') {
          top.row = []
          top.rows.push(top.row)
        } else if (tag === 'td' || tag === 'th') {
          if (top.row === null) {
            top.row = []
            top.rows.push(top.row)
          }
          top.cell = {
            parts: [],
            colSpan: span(attrs.colspan, MAX_COLSPAN),
            rowSpan: span(attrs.rowspan, MAX_ROWSPAN),
            header: tag === 'th'
          }
          top.row.push(top.cell)
        } else if (tag === 'caption') top.caption = []
      },
      ontext: (text) => {
        if (skipDepth === 0 && stack.length > 0) appendToOpenCells(text.replace(/\s+/g, ' '))
      },
      onclosetag: (tag) => {
        if (skipDepth > 0) {
          skipDepth--
          return
        }
        if (BLOCKS.has(tag)) appendToOpenCells('\n')
        if (tag === 'table' && ignoredDepth > 0) {
          ignoredDepth--
          return
        }
        const top = stack[stack.length - 1]
        if (top === undefined || ignoredDepth > 0) return
        if (tag === 'td' || tag === 'th') top.cell = null
        else if (tag === 'tr') top.row = null
        else if (tag === 'caption' && top.caption !== null) {
          top.captionText = cleanText(top.caption)
          top.caption = null
        } else if (tag === 'table') {
          stack.pop()
          if (top.rows.some((r) => r.length > 0))
            done.push({ order: top.order, rows: top.rows.filter((r) => r.length > 0), caption: top.captionText })
        }
      }
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true }
  )
  parser.write(decoded.value.text)
  parser.end()
  while (stack.length > 0) {
    const t = stack.pop() as OpenTable
    if (t.rows.some((r) => r.length > 0)) done.push({ order: t.order, rows: t.rows.filter((r) => r.length > 0), caption: t.captionText })
  }
  const tables = done.sort((a, b) => a.order - b.order)
  if (tables.length === 0) return fail('bad-input', `${name} has no <table> with cells to import.`)
  const grids = tables.map((t, k) => layout(t, tables.length === 1 ? name : `${name} › Table ${k + 1}`))
  grids[0]?.warnings.push(...decoded.value.warnings)
  if (opened > LIMITS.maxGrids) grids[0]?.warnings.push(`${name} has ${opened} tables; only the first ${LIMITS.maxGrids} were imported.`)
  return ok(grids)
}
