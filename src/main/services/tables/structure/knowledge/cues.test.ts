import { describe, expect, it } from 'vitest'
import type { RawGrid } from '../../../../../shared/table'
import { explainStructure } from '../explain'
import { structureGrid } from '../index'
import { isTotalLabel, isWholeLabel, UNIT_WORDS } from '../rows'
import { LANGUAGES, phrasePattern, readLanguage } from './cues'

type Words = {
  title: string
  unit: string
  a: string
  b: string
  p1: string
  p2: string
  of: string
  sub: string
  total: string
  note: string
}

/**
 * A population table as statistical offices lay it out in each language: a title and a unit line, two
 * sections of parts, an "of which" line, the section's own total, the table's total, and a source line.
 */
function sheet(w: Words): RawGrid {
  const cells = [
    [w.title, '', ''],
    [w.unit, '', ''],
    ['', '2022', '2023'],
    [w.a, '', ''],
    [w.p1, '10', '12'],
    [w.p2, '20', '22'],
    [w.b, '', ''],
    [w.p1, '11', '13'],
    [w.p2, '21', '23'],
    [w.of, '4', '5'],
    [w.sub, '32', '36'],
    [w.total, '62', '70'],
    [w.note, '', '']
  ]
  return { name: 'population', cells, merges: [], warnings: [] }
}

const SHEETS: Record<string, Words> = {
  en: {
    title: 'Table 4. Population by marital status',
    unit: 'In thousands',
    a: 'Men',
    b: 'Women',
    p1: 'Single',
    p2: 'Married',
    of: 'of which: lone parents',
    sub: 'Subtotal',
    total: 'Total',
    note: 'Source: Census of population'
  },
  fr: {
    title: "Tableau 4. Population selon l'état matrimonial",
    unit: 'En milliers',
    a: 'Hommes',
    b: 'Femmes',
    p1: 'Célibataires',
    p2: 'Mariés',
    of: 'dont : familles monoparentales',
    sub: 'Sous-total',
    total: 'Ensemble',
    note: 'Source : Insee, recensement de la population'
  },
  de: {
    title: 'Bevölkerung nach Familienstand',
    unit: 'in Tausend',
    a: 'Männer',
    b: 'Frauen',
    p1: 'Ledig',
    p2: 'Verheiratet',
    of: 'darunter: alleinerziehend',
    sub: 'Zusammen',
    total: 'Insgesamt',
    note: 'Quelle: Statistisches Bundesamt, Mikrozensus'
  },
  es: {
    title: 'Cuadro 4. Población según estado civil',
    unit: 'En miles',
    a: 'Hombres',
    b: 'Mujeres',
    p1: 'Solteros',
    p2: 'Casados',
    of: 'de los cuales: monoparentales',
    sub: 'Subtotal',
    total: 'Total',
    note: 'Fuente: INE, Censo de Población'
  }
}

describe('cue words in English, French, German and Spanish', () => {
  for (const [language, w] of Object.entries(SHEETS)) {
    it(`reads a ${language} table's "of which" line, its totals and its source line`, () => {
      const g = sheet(w)
      const parsed = structureGrid(g)
      expect(parsed.options).toMatchObject({ titleRows: 2, headerRows: 1, headerCols: 1 })
      expect(parsed.title).toBe(`${w.title}\n${w.unit}`)
      expect(parsed.index.map((t) => t.filter((x) => x !== ''))).toEqual([
        [w.a, w.p1],
        [w.a, w.p2],
        [w.b, w.p1],
        [w.b, w.p2],
        [w.b, w.p2, w.of],
        [w.b, w.sub],
        [w.total]
      ])
      // The source line is a note under the table, not a row of it.
      expect(parsed.notes).toBe(w.note)
      const why = explainStructure(g)
      expect(why.notes).toEqual([
        { row: 12, reasons: [{ rule: 'note-remark', text: 'one line under the table opening with a remark word' }] }
      ])
      const row = (r: number): (typeof why.rows)[number] | undefined => why.rows.find((p) => p.row === r)
      expect(row(9)?.reasons[0]).toEqual({ rule: 'block-of-which', text: `nested under '${w.p2}': heads the "of which" rows below it` })
      // The section's total closes it: the table's total after it is at the top level.
      expect(row(10)?.parentRow).toBe(6)
      expect(row(11)).toMatchObject({ parentRow: null, reasons: [{ rule: 'nesting-none' }] })
    })
  }

  it('reads none of it from words that are no cue in any language', () => {
    const g = sheet({
      ...SHEETS.de,
      of: 'xarunter: alleinerziehend',
      sub: 'Xusammen',
      total: 'Xnsgesamt',
      note: 'Xuelle: Mikrozensus'
    } as Words)
    const parsed = structureGrid(g)
    expect(parsed.notes).toBeUndefined()
    expect(parsed.index.slice(4).map((t) => t.filter((x) => x !== ''))).toEqual([
      ['Frauen', 'xarunter: alleinerziehend'],
      ['Frauen', 'Xusammen'],
      ['Frauen', 'Xnsgesamt']
    ])
  })

  it('tells totals, wholes and units by whole words, in any language', () => {
    for (const label of [
      'Total',
      'totals',
      'All ages',
      'Sub-total',
      'Ensemble des ménages',
      'Insgesamt',
      'Summe der Aktiva',
      'Suma',
      'Zwischensumme'
    ])
      expect([label, isTotalLabel(label)]).toEqual([label, true])
    for (const label of ['All other industries', 'Summer', 'Summary', 'Alle übrigen', 'todos los demás', 'Ensembles vocaux'])
      expect([label, isTotalLabel(label)]).toEqual([label, false])
    for (const label of ['U.S. total', 'u.s. totala', 'Deutschland insgesamt', 'France entière, ensemble'])
      expect(isWholeLabel(label)).toBe(true)
    for (const unit of ['in thousands', 'per cent', 'en milliers', 'in Tausend', 'in Mio. EUR', 'en miles', '$ thousands', 'Prozent'])
      expect([unit, UNIT_WORDS.test(unit)]).toEqual([unit, true])
    for (const text of ['numberless', 'Enrolment', 'Mietpreise']) expect([text, UNIT_WORDS.test(text)]).toEqual([text, false])
  })

  it('loads every language file with every kind of cue, and rejects a malformed one', () => {
    expect(LANGUAGES.map((l) => l.language)).toEqual(['en', 'fr', 'de', 'es'])
    for (const l of LANGUAGES)
      for (const kind of ['total', 'partOf', 'units', 'remarks'] as const) expect(l[kind].length).toBeGreaterThan(0)
    expect(() => readLanguage({ language: 'xx', total: ['total'] })).toThrow(/xx: notTotal is not a list of phrases/)
    expect(() => readLanguage({ total: [] })).toThrow(/no language/)
    // A phrase's words are matched literally, any white space between them, to a word boundary.
    expect(new RegExp(`^(?:${phrasePattern('of which')})`, 'iu').test('of  which: exports')).toBe(true)
    expect(new RegExp(`^(?:${phrasePattern('dar.')})`, 'iu').test('dar. Frauen')).toBe(true)
    expect(new RegExp(`^(?:${phrasePattern('sum')})`, 'iu').test('summer')).toBe(false)
  })
})
