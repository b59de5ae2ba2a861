/**
 * Fitting tables into a token budget.
 *
 * Tokens are estimated as characters / 3.5 (rounded up): close to what BPE tokenisers of code models give
 * for English text and numbers, and on the safe side for tables (digits and padding split finely).
 * Rows are kept by the rule: every header line always; then the rows most related to the question (most
 * distinct question terms among their cells and labels); then the first and last rows, alternating inwards;
 * each while it fits. Omitted runs of rows are marked in the rendered table.
 */

export const CHARS_PER_TOKEN = 3.5

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN)
}

export function charsFor(tokens: number): number {
  return Math.max(0, Math.floor(tokens * CHARS_PER_TOKEN))
}

const STOPWORDS = new Set(
  'a an and are as at be by did do does for from had has have how in is it its many much of on or than that the their there these this those to was were what when where which who whom whose why with'.split(
    ' '
  )
)

/** Lower-cased words and numbers of a text; numbers lose thousands separators ("30,000" → "30000"). */
export function terms(text: string): Set<string> {
  const out = new Set<string>()
  for (const raw of text
    .toLowerCase()
    .replace(/(\d),(?=\d{3}\b)/g, '$1')
    .match(/[\p{L}\p{N}]+(?:[.'][\p{L}\p{N}]+)*/gu) ?? []) {
    if (raw.length < 2 && !/\d/.test(raw)) continue
    if (STOPWORDS.has(raw)) continue
    out.add(raw)
  }
  return out
}

/** How many distinct question terms a row mentions. */
export function relevance(questionTerms: ReadonlySet<string>, rowText: string): number {
  if (questionTerms.size === 0) return 0
  let score = 0
  for (const t of terms(rowText)) if (questionTerms.has(t)) score += 1
  return score
}

/**
 * Which rows to show, sorted: the `related` rows first (in the order given: most related first), then the
 * first and last rows alternating inwards, each while it fits. `costs[i]` is the characters of row i
 * (`total` their sum, `minCost` the least); `budgetChars` what the rows may use; `markerChars` the price of
 * one omission marker (reserved for each gap opened).
 */
export function chooseRows(
  costs: ArrayLike<number>,
  related: ArrayLike<number>,
  budgetChars: number,
  markerChars: number,
  total: number = sum(costs),
  minCost: number = least(costs)
): number[] {
  const n = costs.length
  if (total <= budgetChars) return Array.from({ length: n }, (_, i) => i)
  const kept = new Set<number>()
  // Two markers at most per kept row; start with the one for the whole table being cut.
  let used = markerChars
  // Once not even the cheapest row fits, the rest of a long table need not be looked at.
  const full = (): boolean => used + minCost + markerChars > budgetChars
  const consider = (i: number): void => {
    if (kept.has(i)) return
    const price = (costs[i] ?? 0) + markerChars
    if (used + price > budgetChars) return
    kept.add(i)
    used += price
  }
  for (let k = 0; k < related.length && !full(); k += 1) consider(related[k] ?? 0)
  for (let lo = 0, hi = n - 1; lo <= hi && !full(); lo += 1, hi -= 1) {
    consider(lo)
    if (hi !== lo) consider(hi)
  }
  return [...kept].sort((a, b) => a - b)
}

function sum(values: ArrayLike<number>): number {
  let total = 0
  for (let i = 0; i < values.length; i += 1) total += values[i] ?? 0
  return total
}

function least(values: ArrayLike<number>): number {
  let min = Infinity
  for (let i = 0; i < values.length; i += 1) min = Math.min(min, values[i] ?? Infinity)
  return min
}
