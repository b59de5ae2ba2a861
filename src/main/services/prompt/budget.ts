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
 * Which rows to show, sorted. `costs[i]` is the characters of row i; `budgetChars` what the rows may use;
 * `markerChars` the price of one omission marker (reserved for each gap opened).
 */
export function chooseRows(costs: readonly number[], scores: readonly number[], budgetChars: number, markerChars: number): number[] {
  const n = costs.length
  const total = costs.reduce((s, c) => s + c, 0)
  if (total <= budgetChars) return costs.map((_, i) => i)
  const order: number[] = []
  const related = costs.map((_, i) => i).filter((i) => (scores[i] ?? 0) > 0)
  related.sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0) || a - b)
  order.push(...related)
  for (let lo = 0, hi = n - 1; lo <= hi; lo += 1, hi -= 1) {
    order.push(lo)
    if (hi !== lo) order.push(hi)
  }
  const kept = new Set<number>()
  // Two markers at most per kept row; start with the one for the whole table being cut.
  let used = markerChars
  for (const i of order) {
    if (kept.has(i)) continue
    const price = (costs[i] ?? 0) + markerChars
    if (used + price > budgetChars) continue
    kept.add(i)
    used += price
  }
  return [...kept].sort((a, b) => a - b)
}
