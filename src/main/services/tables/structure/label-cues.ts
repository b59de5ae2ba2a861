import { type Grid } from './grid'
import { hasDigit } from './number'
import { rowLabel, type RowRole } from './rows'
import { cueWordSet, opening } from './knowledge/cues'

// How far back a closing label looks for the row it names.
const MAX_REACH = 200

/**
 * Blocks that the wording of row labels marks, for tables whose source lost the indentation:
 *
 * - "other science fields" names "science" a few rows up: it is the last of science's parts, so "science" is
 *   the parent of the rows down to it. So is a row whose words begin with the named ones: "other criminal code
 *   traffic" closes "criminal code traffic offences";
 * - rows labelled "of which: …" (or "of whom", "including") are parts of the row above them;
 * - "not a visible minority" (or "non-X") is the complement of "visible minority" (or of "total visible
 *   minority") a few rows up: the rows between are the parts of "visible minority", the complement is its
 *   sibling; unless a row between is a variant of it ("s&e | s&e-related | non-s&e" are three siblings);
 * - a row whose range the rows after it divide without gaps ("15 or older" over "15 to 24 | … | 65 or older",
 *   "2011 q2 to 2016 q3" over "2011 q2 to 2014 q2 | 2014 q2 to 2016 q3").
 *
 * Returns, per body row (index 0 = row headerRows), the last body row of the block it heads, or -1.
 */
export function labelBlocks(g: Grid, headerRows: number, headerCols: number, roles: RowRole[]): Int32Array {
  const words = rowWords(g, headerRows, headerCols, roles)
  const ends = namedBlocks(roles, words, 'other')
  for (const more of [
    namedBlocks(roles, words, 'complement'),
    repeatedListBlocks(roles, words),
    ofWhichBlocks(g, headerRows, headerCols, roles),
    rangeBlocks(g, headerRows, headerCols, roles)
  ])
    for (let i = 0; i < ends.length; i++) if ((more[i] ?? -1) > (ends[i] ?? -1)) ends[i] = more[i] ?? -1
  return ends
}

/** The words of each data row's label (null for other rows). */
export function rowWords(g: Grid, headerRows: number, headerCols: number, roles: RowRole[]): (string[] | null)[] {
  const words: (string[] | null)[] = new Array<string[] | null>(roles.length).fill(null)
  for (let i = 0; i < roles.length; i++) if (roles[i] === 'data') words[i] = labelWords(rowLabel(g, headerRows + i, headerCols))
  return words
}

/**
 * Blocks named by a later label: "other science fields" closes the block of "science" a few rows up
 * (`other`); "not a visible minority" or "non-X" is the sibling of "visible minority" (or "total visible
 * minority"), whose parts are the rows between (`complement`).
 */
export function namedBlocks(roles: RowRole[], words: (string[] | null)[], kind: 'other' | 'complement'): Int32Array {
  const n = roles.length
  const ends = new Int32Array(n).fill(-1)
  for (let k = 1; k < n; k++) {
    const w = words[k] ?? null
    if (w === null || w.length < 2) continue
    const closing = OTHER.has(w[0] ?? '')
    if (closing !== (kind === 'other')) continue
    const complement = closing ? null : complementOf(w)
    if (!closing && complement === null) continue
    const named = closing ? w.slice(1) : (complement ?? [])
    // The nearest row above that the label names: for "other …", one with exactly the named words
    // ("engineering", further up than "engineering science, mechanics"), or else the nearest whose words it
    // contains or whose words begin with the named ones.
    const find = (hit: (pw: string[]) => boolean): number => {
      for (let p = k - 1; p >= 0 && k - p <= MAX_REACH; p--) {
        // A section or unit row between starts another group: the row named is not in this one.
        if (roles[p] === 'section' || roles[p] === 'unit') return -1
        const pw = words[p] ?? null
        // The same label further up belongs to an earlier group: the head of this one is not above it.
        if (pw !== null && sameWords(pw, w)) return -1
        if (pw === null || pw.length === 0 || OTHER.has(pw[0] ?? '')) continue
        // A complement names a total by what it totals: "non-aboriginal identity population" is the sibling of
        // "total aboriginal identity population", whose parts are the rows between.
        if (TOTAL_WORDS.has(pw[0] ?? '')) {
          if (!closing && hit(pw.slice(1))) return p
          continue
        }
        if (hit(pw)) return p
      }
      return -1
    }
    const exact = closing ? find((pw) => sameWords(named, pw)) : -1
    const p = exact >= 0 ? exact : find((pw) => (closing ? contains(named, pw) || startsWith(pw, named) : sameWords(named, pw)))
    // Right after the row it names, the label has no parts to close ("visible minority | not a visible minority").
    // Nor when a row between is a variant of the named one ("s&e | s&e-related | non-s&e"): three siblings.
    if (p >= 0 && p < k - 1 && (closing || !variantBetween(words, named, p, k))) ends[p] = Math.max(ends[p] ?? -1, closing ? k : k - 1)
  }
  return ends
}

/** A row between `from` and `to` whose words begin with `named` and go on ("s&e-related" after "s&e"). */
function variantBetween(words: (string[] | null)[], named: string[], from: number, to: number): boolean {
  for (let i = from + 1; i < to; i++) {
    const w = words[i] ?? null
    if (w !== null && w.length > named.length && startsWith(w, named)) return true
  }
  return false
}

// "of which: exports", "dont : …", "darunter …", "de los cuales …": a part of the row above.
const PART = opening(['partOf'])
// First words of labels, any language (knowledge/*.json): "other …" names the rest of a group, "not …" or
// "non-…" the complement of a row, "total …" a whole.
const OTHER = cueWordSet('other')
const NEGATION = cueWordSet('negation')
const ARTICLES = cueWordSet('negationArticles')
const TOTAL_WORDS = cueWordSet('total')

/** A row followed by rows labelled "of which …" is the parent of that run. */
export function ofWhichBlocks(g: Grid, headerRows: number, headerCols: number, roles: RowRole[]): Int32Array {
  const ends = new Int32Array(roles.length).fill(-1)
  let head = -1
  for (let i = 0; i < roles.length; i++) {
    if (roles[i] === 'empty') continue
    if (roles[i] !== 'data') {
      head = -1
      continue
    }
    if (PART.test(rowLabel(g, headerRows + i, headerCols))) {
      if (head >= 0) ends[head] = Math.max(ends[head] ?? -1, i)
    } else head = i
  }
  return ends
}

const NUMBER = String.raw`\$?\s*(\d[\d,]*)`
const YEARS = String.raw`(?:\s*(?:years?|yrs)(?:\s+old)?)?`
const BETWEEN = new RegExp(String.raw`^(?:aged?\s+)?${NUMBER}${YEARS}\s*(?:to|-|–)\s*${NUMBER}${YEARS}$`, 'i')
const AND_OVER = new RegExp(String.raw`^(?:aged?\s+)?${NUMBER}${YEARS}\s*(?:(?:or|and)\s+(?:older|over|more|above)|\+)${YEARS}$`, 'i')
const UNDER = new RegExp(String.raw`^(?:aged?\s+)?(?:under|less\s+than|younger\s+than)\s+${NUMBER}${YEARS}$`, 'i')

/** The whole numbers a label spans ("15 to 24", "65 and older", "under $25,000"), or null. */
export function numberRange(label: string): [number, number] | null {
  // Each form has a number: a label without a digit is none of them.
  if (!hasDigit(label)) return null
  const text = label.trim()
  let m = BETWEEN.exec(text)
  if (m !== null) {
    const [lo, hi] = [whole(m[1]), whole(m[2])]
    return lo < hi ? [lo, hi] : null
  }
  m = AND_OVER.exec(text)
  if (m !== null) return [whole(m[1]), Infinity]
  m = UNDER.exec(text)
  if (m !== null) return [-Infinity, whole(m[1]) - 1]
  return null
}

/** A whole number as a range label writes it ("1,000"). */
function whole(s: string | undefined): number {
  return Number((s ?? '').replace(/,/g, ''))
}

/**
 * A row whose range the rows right after it divide without gaps ("15 or older" then "15 to 24 | 25 to 54 |
 * 55 to 64 | 65 or older") is their parent.
 */
export function rangeBlocks(g: Grid, headerRows: number, headerCols: number, roles: RowRole[]): Int32Array {
  const n = roles.length
  const ends = new Int32Array(n).fill(-1)
  // Whole numbers follow on from the number after the last ("15 to 24 | 25 to 54"); periods from the quarter
  // where the last one ended ("2011 q2 to 2014 q2 | 2014 q2 to 2016 q3").
  const ranges = roles.map((role, i) => {
    if (role !== 'data') return null
    const label = rowLabel(g, headerRows + i, headerCols)
    const numbers = numberRange(label)
    if (numbers !== null) return { lo: numbers[0], hi: numbers[1], step: 1 }
    const period = quarterRange(label)
    return period === null ? null : { lo: period[0], hi: period[1], step: 0 }
  })
  for (let i = 0; i < n; i++) {
    const whole = ranges[i] ?? null
    if (whole === null) continue
    let next = whole.lo
    let k = i + 1
    for (; k < n; k++) {
      const part = ranges[k] ?? null
      if (
        part === null ||
        part.step !== whole.step ||
        part.lo !== next ||
        part.hi > whole.hi ||
        (part.lo === whole.lo && part.hi === whole.hi)
      )
        break
      next = part.hi + whole.step
    }
    if (k - i - 1 >= 2 && next === whole.hi + whole.step) ends[i] = Math.max(ends[i] ?? -1, k - 1)
  }
  return ends
}

const QUARTER_RANGE = /^((?:18|19|20)\d{2})\s*q([1-4])\s*(?:to|-|–)\s*((?:18|19|20)\d{2})\s*q([1-4])$/i

/** The quarters a label spans from and to ("2011 q2 to 2014 q2"), counted from year 0, or null. */
export function quarterRange(label: string): [number, number] | null {
  const m = QUARTER_RANGE.exec(label.trim())
  if (m === null) return null
  const lo = Number(m[1]) * 4 + Number(m[2]) - 1
  const hi = Number(m[3]) * 4 + Number(m[4]) - 1
  return lo < hi ? [lo, hi] : null
}

// Longest list of parts looked for, and the most body rows scanned for repeated lists.
const MAX_PARTS = 40
const MAX_ROWS = 5000

/**
 * The same list of labels after each of several different rows ("18 to 39 | males | females | 40 to 59 |
 * males | females"): each of those rows is the parent of the list that follows it. Lists of two or more
 * labels, repeated right after each other, inside one run of data rows; the heads differ and do not occur in
 * the list.
 */
export function repeatedListBlocks(roles: RowRole[], words: (string[] | null)[]): Int32Array {
  const n = roles.length
  const ends = new Int32Array(n).fill(-1)
  if (n > MAX_ROWS) return ends
  const keys: string[] = words.map((w) => (w === null ? '' : w.join(' ')))
  for (let s = 0; s < n; s++) {
    if (roles[s] !== 'data') continue
    for (let period = 3; period <= MAX_PARTS + 1 && s + 2 * period <= n; period++) {
      const heads = [s]
      let next = s + period
      while (next + period <= n && sameList(keys, roles, s, next, period) && fresh(keys, heads, next, s, period)) {
        heads.push(next)
        next += period
      }
      if (heads.length < 2) continue
      for (const h of heads) ends[h] = Math.max(ends[h] ?? -1, h + period - 1)
      s = next - 1
      break
    }
  }
  return ends
}

/** Rows a+1 .. a+period-1 and b+1 .. b+period-1 are data rows with the same labels, and b is a data row. */
function sameList(keys: string[], roles: RowRole[], a: number, b: number, period: number): boolean {
  if (roles[b] !== 'data' || keys[b] === '') return false
  for (let j = 1; j < period; j++) {
    if (roles[a + j] !== 'data' || roles[b + j] !== 'data') return false
    if (keys[a + j] !== keys[b + j] || keys[a + j] === '') return false
  }
  return true
}

/** The head at `b` differs from the heads before it and from every label of the list. */
function fresh(keys: string[], heads: number[], b: number, a: number, period: number): boolean {
  const key = keys[b] ?? ''
  for (const h of heads) if (keys[h] === key) return false
  for (let j = 1; j < period; j++) if (keys[a + j] === key || keys[a + j] === keys[a]) return false
  return true
}

/**
 * The words a label negates ("dangerous goods" of "non-dangerous goods", "visible minority" of "not a visible
 * minority"), or null when it negates nothing.
 */
export function negatedWords(words: string[]): string[] | null {
  const named = complementOf(words)
  return named !== null && named.length > 0 ? named : null
}

/**
 * A label (its words `a`) names another measure of the same thing as a label with words `b`: the same words
 * but the last, and a different last word ("changes in employment rate" beside "changes in employment
 * shares").
 */
export function variantOf(a: string[], b: string[]): boolean {
  if (a.length < 3 || a.length !== b.length) return false
  const last = a.length - 1
  const x = a[last] ?? ''
  const y = b[last] ?? ''
  if (!/^[a-z]{3,}$/.test(x) || !/^[a-z]{3,}$/.test(y) || sameWord(x, y)) return false
  for (let i = 0; i < last; i++) if (!sameWord(a[i] ?? '', b[i] ?? '')) return false
  return true
}

/** The words of "not a X", "not X", "non-X" or "non X" after the negation, or null. */
function complementOf(w: string[]): string[] | null {
  if (!NEGATION.has(w[0] ?? '')) return null
  return ARTICLES.has(w[1] ?? '') ? w.slice(2) : w.slice(1)
}

// What separates the words of a label: anything but a letter, a digit or "$".
const NOT_WORD = /[^\p{L}\p{N}$]+/u

/** The lower-case words of a label, as the cues compare them. */
export function labelWords(label: string): string[] {
  const lower = label.toLowerCase()
  const words: string[] = []
  let from = -1
  for (let k = 0; k < lower.length; k++) {
    const c = lower.charCodeAt(k)
    // Beyond ASCII, letters and digits of every script count: the expression decides for the whole label.
    if (c > 127) return lower.split(NOT_WORD).filter((t) => t.length > 0)
    const word = (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 36
    if (word && from < 0) from = k
    else if (!word && from >= 0) {
      words.push(lower.slice(from, k))
      from = -1
    }
  }
  if (from >= 0) words.push(lower.slice(from))
  return words
}

/** Equal words, or one with a footnote letter stuck to its end ("engineeringa"). */
function sameWord(a: string, b: string): boolean {
  if (a === b) return true
  if (Math.min(a.length, b.length) < 4 || Math.abs(a.length - b.length) !== 1) return false
  return a.length > b.length ? a.startsWith(b) : b.startsWith(a)
}

export function sameWords(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x, i) => sameWord(x, b[i] ?? ''))
}

/** `part` occurs in `whole` as consecutive words. */
export function contains(whole: string[], part: string[]): boolean {
  for (let s = 0; s + part.length <= whole.length; s++) {
    let ok = true
    for (let j = 0; j < part.length && ok; j++) ok = sameWord(whole[s + j] ?? '', part[j] ?? '')
    if (ok) return true
  }
  return false
}

/** `whole` begins with the words of `part`. */
function startsWith(whole: string[], part: string[]): boolean {
  return part.length <= whole.length && part.every((x, i) => sameWord(whole[i] ?? '', x))
}
