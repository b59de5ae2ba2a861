import { VALUE_KIND, type CellStyle, type RawGrid } from '../../../../shared/table'
import { fail, ok, type Result } from '../../../../shared/result'
import { LIMITS, SheetBuilder, isoDateTime, parseA1, parseRange, readingValue, type TypedValue } from './grid'
import { BUILTIN_FORMATS, generalNumber, readNumber } from './numfmt'
import { attr, walkXml } from './xml'
import { readZip, xmlText, type ZipLimits } from './zip'

type Xf = { format: string; style: CellStyle | undefined }
type Styles = { xfs: Xf[] }
type SheetRef = { name: string; path: string | null; kind: string }

/** OOXML escapes characters XML cannot hold as `_xHHHH_`. */
function unescapeOoxml(s: string): string {
  return s.includes('_x') ? s.replace(/_x([0-9A-Fa-f]{4})_/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))) : s
}

function resolvePath(base: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1)
  const parts = base.split('/').slice(0, -1)
  for (const seg of target.split('/')) {
    if (seg === '..') parts.pop()
    else if (seg !== '.') parts.push(seg)
  }
  return parts.join('/')
}

function relsPathOf(part: string): string {
  const slash = part.lastIndexOf('/')
  return `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`
}

function readRels(xml: string | undefined, base: string): Map<string, { target: string; type: string }> {
  const rels = new Map<string, { target: string; type: string }>()
  if (xml === undefined) return rels
  walkXml(xml, {
    open: (local, a) => {
      if (local !== 'Relationship') return
      const id = a.Id
      const target = a.Target
      if (id !== undefined && target !== undefined && a.TargetMode !== 'External') {
        rels.set(id, { target: resolvePath(base, target), type: a.Type ?? '' })
      }
    }
  })
  return rels
}

/** Shared strings: the text of each `<si>`, runs joined, phonetic guides left out. */
function readSharedStrings(xml: string | undefined): string[] {
  const out: string[] = []
  if (xml === undefined) return out
  let inT = false
  let skip = 0
  let buf: string[] = []
  walkXml(xml, {
    open: (local) => {
      if (local === 'si') buf = []
      else if (local === 'rPh') skip++
      else if (local === 't' && skip === 0) inT = true
    },
    text: (t) => {
      if (inT) buf.push(t)
    },
    close: (local) => {
      if (local === 't') inT = false
      else if (local === 'rPh') skip--
      else if (local === 'si') out.push(unescapeOoxml(buf.join('')))
    }
  })
  return out
}

function isOn(a: Record<string, string>): boolean {
  const v = attr(a, 'val')
  return v === undefined || v === '1' || v === 'true'
}

function readStyles(xml: string | undefined): Styles {
  const formats = new Map<number, string>()
  const fontsBold: boolean[] = []
  const xfs: Xf[] = []
  if (xml === undefined) return { xfs }
  let section = ''
  let current: { numFmtId: number; fontId: number; indent: number } | null = null
  const finish = (): void => {
    if (current === null) return
    const bold = fontsBold[current.fontId] === true
    const style: CellStyle | undefined =
      bold || current.indent > 0
        ? { ...(bold ? { bold: true } : {}), ...(current.indent > 0 ? { indent: current.indent } : {}) }
        : undefined
    xfs.push({ format: formats.get(current.numFmtId) ?? BUILTIN_FORMATS[current.numFmtId] ?? 'General', style })
    current = null
  }
  walkXml(xml, {
    open: (local, a, selfClosing) => {
      if (local === 'fonts' || local === 'cellXfs' || local === 'cellStyleXfs' || local === 'numFmts') section = local
      else if (local === 'numFmt') formats.set(Number(a.numFmtId), a.formatCode ?? 'General')
      else if (local === 'font' && section === 'fonts') fontsBold.push(false)
      else if (local === 'b' && section === 'fonts' && fontsBold.length > 0) fontsBold[fontsBold.length - 1] = isOn(a)
      else if (local === 'xf' && section === 'cellXfs') {
        current = { numFmtId: Number(a.numFmtId ?? 0), fontId: Number(a.fontId ?? 0), indent: 0 }
        if (selfClosing) finish()
      } else if (local === 'alignment' && current !== null) current.indent = Number(a.indent ?? 0) || 0
    },
    close: (local) => {
      if (local === 'xf' && section === 'cellXfs') finish()
      else if (local === 'fonts' || local === 'cellXfs' || local === 'cellStyleXfs' || local === 'numFmts') section = ''
    }
  })
  return { xfs }
}

function readWorkbook(xml: string, rels: Map<string, { target: string; type: string }>): { sheets: SheetRef[]; date1904: boolean } {
  const sheets: SheetRef[] = []
  let date1904 = false
  walkXml(xml, {
    open: (local, a) => {
      if (local === 'workbookPr') date1904 = a.date1904 === '1' || a.date1904 === 'true'
      else if (local === 'sheet') {
        const rel = rels.get(attr(a, 'id') ?? '')
        const kind = rel?.type.split('/').pop() ?? 'worksheet'
        sheets.push({ name: a.name ?? `Sheet${sheets.length + 1}`, path: rel?.target ?? null, kind })
      }
    }
  })
  return { sheets, date1904 }
}

type Cell = { text: string; value?: TypedValue }

const MISSING: TypedValue = { kind: VALUE_KIND.missing }

/**
 * A cell's displayed text and typed value. Strings stay untyped (the text is the value); a number is read through
 * its format (a date, a time, a percentage keep their stored value); an error value is a missing value.
 */
function readCell(type: string, raw: string, inline: string, xf: Xf | undefined, shared: string[], date1904: boolean): Cell {
  switch (type) {
    case 's':
      return { text: shared[Number(raw)] ?? '' }
    case 'inlineStr':
      return { text: unescapeOoxml(inline) }
    case 'str':
      return { text: unescapeOoxml(raw) }
    case 'e':
      return { text: unescapeOoxml(raw), value: MISSING }
    case 'd': {
      const ms = isoDateTime(raw)
      return ms === null ? { text: unescapeOoxml(raw) } : { text: unescapeOoxml(raw), value: { kind: VALUE_KIND.date, value: ms } }
    }
    case 'b':
      if (raw === '') return { text: '' }
      return raw === '1' || raw === 'true'
        ? { text: 'TRUE', value: { kind: VALUE_KIND.true } }
        : { text: 'FALSE', value: { kind: VALUE_KIND.false } }
    default: {
      if (raw === '') return { text: inline }
      const v = Number(raw)
      if (!Number.isFinite(v)) return { text: raw }
      const reading = xf === undefined ? { text: generalNumber(v), kind: 'number' as const, value: v } : readNumber(v, xf.format, date1904)
      return { text: reading.text, value: readingValue(reading) }
    }
  }
}

function readSheet(xml: string, shared: string[], styles: Styles, date1904: boolean): SheetBuilder {
  const sheet = new SheetBuilder()
  let row = -1
  let col = -1
  let type = ''
  let styleIndex = -1
  let target: 'v' | 't' | null = null
  let skip = 0
  let raw: string[] = []
  let inline: string[] = []
  walkXml(xml, {
    open: (local, a) => {
      switch (local) {
        case 'row':
          row = a.r !== undefined ? Number(a.r) - 1 : row + 1
          col = -1
          if (a.outlineLevel !== undefined) sheet.outline(row, Number(a.outlineLevel))
          break
        case 'c': {
          const ref = a.r !== undefined ? parseA1(a.r) : null
          if (ref !== null) {
            row = ref.row
            col = ref.col
          } else col++
          type = a.t ?? 'n'
          styleIndex = a.s !== undefined ? Number(a.s) : -1
          raw = []
          inline = []
          break
        }
        case 'v':
          target = 'v'
          break
        case 'rPh':
          skip++
          break
        case 't':
          if (skip === 0) target = 't'
          break
        case 'mergeCell': {
          const region = a.ref !== undefined ? parseRange(a.ref) : null
          if (region !== null) sheet.merges.push(region)
          break
        }
      }
    },
    text: (t) => {
      if (target === 'v') raw.push(t)
      else if (target === 't') inline.push(t)
    },
    close: (local) => {
      if (local === 'v' || local === 't') target = null
      else if (local === 'rPh') skip--
      else if (local === 'c') {
        const xf = styleIndex >= 0 ? styles.xfs[styleIndex] : styles.xfs[0]
        const cell = readCell(type, raw.join(''), inline.join(''), xf, shared, date1904)
        sheet.set(row, col, cell.text, xf?.style, cell.value)
      }
    }
  })
  return sheet
}

/** Import every worksheet of an XLSX workbook as one grid each. */
export function importXlsx(name: string, bytes: Uint8Array, limits?: ZipLimits): Result<RawGrid[]> {
  const zip = readZip(name, bytes, (p) => /\.(xml|rels)$/i.test(p) && !/(^|\/)(media|printerSettings)\//.test(p), limits)
  if (!zip.ok) return zip
  const part = (p: string): string | undefined => {
    const b = zip.value.get(p)
    return b === undefined ? undefined : xmlText(b)
  }
  try {
    const rootRels = readRels(part('_rels/.rels'), '')
    const main = [...rootRels.values()].find((r) => r.type.endsWith('/officeDocument'))?.target ?? 'xl/workbook.xml'
    const workbookXml = part(main)
    if (workbookXml === undefined) return fail('bad-input', `${name} is not an Excel workbook: it has no workbook part.`)
    const rels = readRels(part(relsPathOf(main)), main)
    const { sheets, date1904 } = readWorkbook(workbookXml, rels)
    const sharedTarget = [...rels.values()].find((r) => r.type.endsWith('/sharedStrings'))?.target
    const stylesTarget = [...rels.values()].find((r) => r.type.endsWith('/styles'))?.target
    const shared = readSharedStrings(part(sharedTarget ?? 'xl/sharedStrings.xml'))
    const styles = readStyles(part(stylesTarget ?? 'xl/styles.xml'))
    const grids: RawGrid[] = []
    const notes: string[] = []
    for (const ref of sheets) {
      if (grids.length >= LIMITS.maxGrids) {
        notes.push(`Only the first ${LIMITS.maxGrids} of ${sheets.length} sheets were imported.`)
        break
      }
      const xml = ref.path === null ? undefined : part(ref.path)
      if (ref.kind !== 'worksheet' || xml === undefined) {
        notes.push(`Sheet "${ref.name}" was skipped: it is a ${ref.kind === 'worksheet' ? 'missing part' : ref.kind}, not a worksheet.`)
        continue
      }
      const grid = readSheet(xml, shared, styles, date1904).build(`${name} › ${ref.name}`)
      if (grid.cells.length === 0) grid.warnings.push(`Sheet "${ref.name}" is empty.`)
      grids.push(grid)
    }
    if (grids.length === 0) return fail('bad-input', `${name} has no worksheets to import.`, notes.join('\n') || undefined)
    grids[0]?.warnings.push(...notes)
    return ok(grids)
  } catch (e) {
    return fail('bad-input', `${name} is damaged: one of its XML parts cannot be read.`, e instanceof Error ? e.message : String(e))
  }
}
