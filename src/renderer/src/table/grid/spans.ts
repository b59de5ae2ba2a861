/**
 * Row spanning of the index columns: a label spans the rows below it while they share its whole path,
 * so "Atlantic" spans its product lines but two "Tea" rows under different regions stay apart.
 */

/** Whether rows a and b show one spanned cell at index level `level`. */
export function sameSpan(a: readonly string[] | undefined, b: readonly string[] | undefined, level: number): boolean {
  if (!a || !b) return false
  const text = a[level]
  if (text === undefined || text === '' || b[level] !== text) return false
  for (let l = 0; l < level; l++) if (a[l] !== b[l]) return false
  return true
}

/** Length of the span starting at each row at `level` (0 for rows covered by a span above them). */
export function rowSpans(index: readonly (readonly string[])[], level: number): number[] {
  const out = new Array<number>(index.length).fill(0)
  let start = 0
  for (let i = 1; i <= index.length; i++) {
    if (i < index.length && sameSpan(index[i - 1], index[i], level)) continue
    out[start] = i - start
    start = i
  }
  return out
}
