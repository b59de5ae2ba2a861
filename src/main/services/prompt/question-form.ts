/**
 * What a question asks for, read from how it is phrased: a lookup of one value, a difference, a ratio
 * or percentage, a count, the top or bottom of a ranking, an aggregate (sum, average), a list, or a choice
 * between alternatives it names ("which …, A or B?"). It picks a
 * worked example of the same form to put after the fixed ones (build.ts), so it only has to be right
 * often, and a wrong guess costs one less fitting example, nothing more.
 *
 * The cues are general rules of English question phrasing, written from grammar and usage; no dataset's
 * questions were read to choose or tune them.
 */

export type QuestionForm = 'lookup' | 'difference' | 'ratio' | 'count' | 'superlative' | 'aggregate' | 'list' | 'choice'
export const QUESTION_FORMS: readonly QuestionForm[] = [
  'lookup',
  'difference',
  'ratio',
  'count',
  'superlative',
  'aggregate',
  'list',
  'choice'
]

export function isQuestionForm(value: unknown): value is QuestionForm {
  return typeof value === 'string' && (QUESTION_FORMS as readonly string[]).includes(value)
}

const COMPARATIVE =
  'more|fewer|less|higher|lower|greater|larger|bigger|smaller|longer|shorter|older|younger|earlier|later|further|farther|heavier|lighter|faster|slower|cheaper|wider|taller'

/** An explicit amount of difference: "how many more", "by how much", "percentage points", "difference", "gap". */
const STRONG_DIFFERENCE = [
  new RegExp(`\\bhow (many|much) (${COMPARATIVE})\\b`),
  /\bby how (much|many)\b/,
  // "by what margin"; a bare "margin" is often a ratio ("profit margin").
  /\bby what (amount|margin)\b/,
  /\bpercentage points?\b/,
  // "difference", "differ", "differed"; "different" ("how many different ...") asks for a count.
  /\bdiffer(s|ed|ence|ences)?\b/,
  /\bgaps?\b/
]

/** Asking for several things: "list ...", "name all ...", "which ... are", "who were the ...", "for each". */
const LIST = [
  /^(please )?(list|enumerate)\b/,
  /\blist (all|every|each|the)\b/,
  /\bname (all|every|each)\b/,
  // "which teams are ...", "in which years were ...": an opening "which" with a plural noun and verb. A
  // singular noun with "were" is a passive ("in which year were the most goals scored"), one answer.
  /^((in|on|at|of|from|for|by|during|with|to) )?which (of the )?[\w'-]*[^s\W]s\b( [\w'-]+){0,3} (are|were)\b/,
  /^who (are|were) (the|all)\b/,
  // Not "what were the total sales", which asks for one value.
  /^what (are|were) (all|the names|the titles)\b/,
  /\bfor (each|every)\b/
]

/**
 * Superlatives that need no article ("who finished fastest"); "most" and "least" except in "at most" and
 * "at least", which bound a count or filter ("at least 20 goals").
 */
const SUPERLATIVE_WORDS =
  /\b(most|least|best|worst|highest|lowest|largest|smallest|biggest|greatest|longest|shortest|oldest|newest|youngest|earliest|latest|fastest|slowest|maximum|minimum|top)\b/
/** Common English words that end in -est and are not superlatives ("the west", "the rest", "the contest"). */
const NOT_SUPERLATIVE = new Set([
  'arrest',
  'behest',
  'bequest',
  'chest',
  'conquest',
  'contest',
  'crest',
  'digest',
  'forest',
  'guest',
  'harvest',
  'inquest',
  'interest',
  'invest',
  'jest',
  'manifest',
  'midwest',
  'nest',
  'northwest',
  'pest',
  'priest',
  'protest',
  'quest',
  'request',
  'rest',
  'southwest',
  'suggest',
  'tempest',
  'test',
  'unrest',
  'vest',
  'west',
  'zest'
])
/**
 * "first" and "last" name a position in an order, except before a period or a name ("the first quarter")
 * and in a run of ordinals ("the first and second prizes"), which names positions rather than asks for one.
 */
const FIRST_LAST =
  /\b(first|last)\b(?! (quarter|half|week|month|year|day|season|term|name|names|time)\b| (and|or) (second|third|fourth|fifth)\b)/

const RATIO = [
  /\bper ?cent(age|ages|s)?\b/,
  /%/,
  /\bratios?\b/,
  /\bproportions?\b/,
  /\bfractions?\b/,
  /\bshares?\b/,
  /\brates?\b/,
  // "three times as many", "how many times larger"; a bare "how many times" counts occasions.
  new RegExp(`\\btimes (as|${COMPARATIVE})\\b`)
]

/** A change or comparison without an explicit amount: "change", "increase by", "more points than". */
const WEAK_DIFFERENCE = [
  /\bchang(e|es|ed)\b/,
  /\b(increase|increased|increases|decrease|decreased|decreases|growth|grow|grew|grown|decline|declined)\b/,
  /\b(rise|rose|risen|fall|fell|fallen|drop|dropped|climb|climbed)( \w+)? by\b/,
  /\bcompared (to|with)\b/,
  /\b(versus|vs)\b/,
  // "more points than", "fewer visitors than"; "more than 30" (no word between) is a threshold, not a comparison.
  /\b(more|fewer|less)\b(?! than\b)[^?]*\bthan\b/
]

const AGGREGATE = [
  /\b(total|totals|totalled|totaled|sum|average|averages|combined|altogether|together|cumulative)\b/,
  /\bin all\b/,
  // "the mean height", not "what does ... mean".
  /^(?!.*\b(does|do|did)\b.*\bmean\b).*\bmean\b/
]

const COUNT = [/\bhow many\b/, /\bnumber of\b/, /\bcount\b/, /\bhow often\b/]

/** A question that opens with "which" or "who" (after a preposition, or a clause ending in a comma). */
const CHOOSING = /(^|, )((in|on|at|of|from|for|by|during|with|to|among|between) )?(which|who|whom|whose)\b/
/**
 * Alternatives named after a comma or colon at the end: ", women or men?", ": the Nile or the Amazon?". "Or"
 * before a word of degree bounds an amount ("3 or more goals", "aged 65 or over") and names no alternative.
 */
const ALTERNATIVES =
  /[,:;] [^,:;]*\bor\b(?! (more|less|fewer|over|above|under|below|older|younger|later|earlier|higher|lower|so|not)\b)[^,:;]+$/

function normalise(question: string): string {
  return question
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\s+/g, ' ')
    .trim()
}

/** Most words of a name taken in before an "…, or C" ending ("A, B, or C"). */
const ALTERNATIVE_WORDS = 4

/**
 * The alternatives a which/who question names at its end, lower-cased and without a leading article:
 * "which was larger, the Nile or the Amazon?" → ["nile", "amazon"]; "…: 2019, 2020 or 2021?" → three.
 * Empty where the question names none (fewer than two).
 */
export function namedAlternatives(question: string): string[] {
  const q = normalise(question).replace(/[?.!\s]+$/, '')
  if (!CHOOSING.test(q) || !ALTERNATIVES.test(q)) return []
  const segments = q.split(/[,:;]/)
  let first = segments.length - 1
  while (first > 0 && !/\bor\b/.test(segments[first] ?? '')) first -= 1
  // "A, B, or C" ends in a segment that begins with "or": the names before it are segments of their own.
  if (/^\s*or\b/.test(segments[first] ?? ''))
    while (first > 1 && (segments[first - 1] ?? '').trim().split(' ').length <= ALTERNATIVE_WORDS) first -= 1
  const names = segments
    .slice(first)
    .flatMap((s) => s.split(/\bor\b/))
    .map((s) => s.trim().replace(/^(the|a|an) /, ''))
    .filter((s) => s !== '')
  return names.length >= 2 ? names : []
}

function hasSuperlative(q: string): boolean {
  if (SUPERLATIVE_WORDS.test(q.replace(/\bat (most|least)\b/g, ' '))) return true
  if (FIRST_LAST.test(q)) return true
  // Any other "the ...est" ("the hottest", "the wettest") unless it is a common -est word that is no superlative.
  for (const match of q.matchAll(/\b(the|its|their) ([a-z]+est)\b/g)) {
    const word = match[2] ?? ''
    if (word.length >= 5 && !NOT_SUPERLATIVE.has(word)) return true
  }
  return false
}

/**
 * The form of a question. The first rule that matches wins, in this order (each rule's reason):
 * 0. choice ("which … , A or B?", "who …: A or B?"): the answer is one of the alternatives the question
 *    names, whatever comparison ("more", "the largest share", "a bigger gap") picks it.
 * 1. difference, explicit amount ("how many more", "by how much", "percentage points", "difference",
 *    "gap"): these name a subtraction even when the words around them ("share", "most", "how many")
 *    would suggest another form.
 * 2. list ("list", "name all", "which … are/were", "what are the", "for each"): several answers asked
 *    for; before superlative so "list the three largest" stays a list.
 * 3. superlative ("most", "least", "highest", other "the …est", "top", "first/last" as a position): the
 *    answer is picked from a ranking; before ratio and aggregate so "the largest share" and "the most
 *    points in total" are rankings.
 * 4. ratio ("percent", "percentage", "%", "share", "ratio", "proportion", "fraction", "rate", "times as"):
 *    a division, including a percentage change.
 * 5. difference, without an amount ("change", "increase", "grew", "rose by", "compared to", "more … than").
 * 6. aggregate ("total", "sum", "average", "mean", "combined", "together", "in all"): before count, so
 *    "how many points in total" sums.
 * 7. count ("how many", "number of", "count", "how often").
 * 8. lookup: everything else (one value read from the table).
 */
export function questionForm(question: string): QuestionForm {
  const q = normalise(question)
  const any = (patterns: readonly RegExp[]): boolean => patterns.some((p) => p.test(q))
  if (namedAlternatives(q).length > 0) return 'choice'
  if (any(STRONG_DIFFERENCE)) return 'difference'
  if (any(LIST)) return 'list'
  if (hasSuperlative(q)) return 'superlative'
  if (any(RATIO)) return 'ratio'
  if (any(WEAK_DIFFERENCE)) return 'difference'
  if (any(AGGREGATE)) return 'aggregate'
  if (any(COUNT)) return 'count'
  return 'lookup'
}
