/**
 * The words the structure rules read in labels, per language, as data (`knowledge/<language>.json`): totals,
 * subtotals, "of which", "other", negations, units, remarks, title words, summary statistics and the headers of
 * label columns. Every
 * language is read at once: a French total in an English workbook is still a total, and no table has to be
 * told its language. Adding a language is adding its file to `LANGUAGES`.
 *
 * A phrase matches from a word boundary to a word boundary, its words separated by any white space; a trailing
 * `*` lets its last word go on ("total*" reads "totals" and "totalled"). Matching ignores case.
 */
import de from './de.json'
import en from './en.json'
import es from './es.json'
import fr from './fr.json'

/** One language's cue words. */
export type LanguageCues = {
  language: string
  about: string
  /** Openings of a label that names a total: "Total", "Ensemble", "Insgesamt", "Suma". */
  total: string[]
  /** Openings that read like a total but name a remainder ("all other industries"). */
  notTotal: string[]
  /** Openings of a subtotal's label ("Sub-total", "Sous-total", "Zwischensumme"). */
  subtotal: string[]
  /** Last words of a label that names the whole of the rows it heads ("U.S. total", "Deutschland insgesamt"). */
  wholeEnd: string[]
  /** Openings of a part of the row above ("of which", "dont", "darunter", "de los cuales"). */
  partOf: string[]
  /** A first word that names the rest of a group ("other science fields", "autres services", "sonstige"). */
  other: string[]
  /** A first word that negates the words after it ("not a visible minority", "non-residents"). */
  negation: string[]
  /** Articles a negation may put before the words it negates ("not a …"). */
  negationArticles: string[]
  /** A preposition before a unit ("in thousands", "en milliers", "in Tausend", "en miles"). */
  unitLead: string[]
  /** Units and measures a unit line names. */
  units: string[]
  /** Openings of a remark under or over a table ("Source", "Note", "Quelle", "Fuente"). */
  remarks: string[]
  /** Verbs of a legend line ("* denotes …", "x bedeutet …"). */
  legendVerbs: string[]
  /** Openings of a line that reads like a title or a source ("Table 3", "Tableau", "Tabelle", "Cuadro"). */
  titleWords: string[]
  /** Summary statistics that sum up a whole table when they close it ("mean", "médiane", "Median"). */
  summary: string[]
  /** Openings of the header of the column that names the rows ("Region", "Pays", "Bezeichnung", "Concepto"). */
  labelHeaders: string[]
}

const FIELDS = [
  'total',
  'notTotal',
  'subtotal',
  'wholeEnd',
  'partOf',
  'other',
  'negation',
  'negationArticles',
  'unitLead',
  'units',
  'remarks',
  'legendVerbs',
  'titleWords',
  'summary',
  'labelHeaders'
] as const satisfies readonly (keyof LanguageCues)[]

export type CueKind = (typeof FIELDS)[number]

/** A language file read and checked: every field a list of non-empty phrases. Throws on a malformed file. */
export function readLanguage(data: unknown): LanguageCues {
  if (typeof data !== 'object' || data === null) throw new Error('cue file: not an object')
  const record = data as Record<string, unknown>
  const language = record.language
  if (typeof language !== 'string' || language === '') throw new Error('cue file: no language')
  const out = { language, about: typeof record.about === 'string' ? record.about : '' } as LanguageCues
  for (const field of FIELDS) {
    const list = record[field]
    if (!Array.isArray(list) || !list.every((p): p is string => typeof p === 'string' && p.trim() !== ''))
      throw new Error(`cue file ${language}: ${field} is not a list of phrases`)
    out[field] = list.map((p) => p.trim().toLowerCase())
  }
  return out
}

export const LANGUAGES: readonly LanguageCues[] = [en, fr, de, es].map(readLanguage)

/** The phrases of one kind, every language together, without repeats. */
export function cueWords(kind: CueKind): string[] {
  return [...new Set(LANGUAGES.flatMap((l) => l[kind]))]
}

// A letter or digit: what a word boundary must not have on its other side (JavaScript's \b knows ASCII only).
const WORD_END = String.raw`(?![\p{L}\p{N}])`
const WORD_START = String.raw`(?<![\p{L}\p{N}])`

/** A phrase as a regular expression source: words escaped, any white space between them, a boundary after. */
export function phrasePattern(phrase: string): string {
  const open = phrase.endsWith('*')
  const words = (open ? phrase.slice(0, -1) : phrase)
    .trim()
    .split(/\s+/)
    .map((w) => w.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&'))
  // A phrase that ends in a stop ("dar.") has its boundary already.
  const closed = open || /[^\p{L}\p{N}]$/u.test(phrase)
  return words.join(String.raw`\s+`) + (closed ? '' : WORD_END)
}

/** Alternatives of the phrases of some kinds, longer phrases first ("grand total" before "grand"). */
export function alternatives(kinds: readonly CueKind[]): string {
  return [...new Set(kinds.flatMap(cueWords))]
    .sort((a, b) => b.length - a.length || (a < b ? -1 : 1))
    .map(phrasePattern)
    .join('|')
}

/**
 * A label that opens with a phrase of one of `kinds` (every language together), then `after`; not one that
 * opens with a phrase of `except`.
 */
export function opening(kinds: readonly CueKind[], options: { after?: string; except?: readonly CueKind[] } = {}): RegExp {
  const not = options.except === undefined ? '' : `(?!(?:${alternatives(options.except)}))`
  return new RegExp(`^${not}(?:${alternatives(kinds)})${options.after ?? ''}`, 'iu')
}

/** A label that ends with a phrase of `kind`, then `mark` (a footnote letter glued on: "u.s. totala"). */
export function ending(kind: CueKind, mark = ''): RegExp {
  const phrases = cueWords(kind).map((p) => phrasePattern(`${p.replace(/\*$/, '')}*`))
  return new RegExp(`${WORD_START}(?:${phrases.join('|')})${mark}$`, 'iu')
}

/** The one-word phrases of `kind`, lower case, as `labelWords` splits a label. */
export function cueWordSet(kind: CueKind): ReadonlySet<string> {
  return new Set(
    cueWords(kind)
      .map((p) => p.replace(/\*$/, ''))
      .filter((p) => !/\s/.test(p))
  )
}
