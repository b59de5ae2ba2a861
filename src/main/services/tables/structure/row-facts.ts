/**
 * What the left tree's rules read of each row's label, worked out once per grid and label-column count: the
 * label text (all label cells, and the innermost one), its words, and the cue tests the rules ask of it. The
 * rules of several stages ask for the same rows' labels many times; each reading is a pure function of the
 * grid's cells, which never change once a grid is built, so the answers are those of reading them afresh.
 */
import { rawText, type Grid } from './grid'
import { periodShape } from './number'
import { isTotalLabel, isWholeLabel, rowLabel } from './rows'

/** Facts about the rows of one grid with `headerCols` label columns, each read on first use (by grid row). */
export type RowFacts = {
  /** The text of the row's label cells, joined (`rowLabel`). */
  label: (row: number) => string
  /** The innermost written label cell (`labelText`). */
  inner: (row: number) => string
  /** The lower-case words of `label`. */
  words: (row: number) => string[]
  /** `label` in lower case. */
  lower: (row: number) => string
  /** `inner` in lower case. */
  innerLower: (row: number) => string
  /** The lower-case words of `inner`. */
  innerWords: (row: number) => string[]
  /** The shape of `label` when it names a period ("Sep-1953" → "aaa-9999"), else null. */
  period: (row: number) => string | null
  /** Whether `inner` is a total's label. */
  innerTotal: (row: number) => boolean
  /** Whether `inner` names a whole ("… total", "… overall"). */
  innerWhole: (row: number) => boolean
}

const factsOf = new WeakMap<Grid, Map<number, RowFacts>>()

/** The row facts of `g` read with `headerCols` label columns. */
export function rowFacts(g: Grid, headerCols: number): RowFacts {
  let byCols = factsOf.get(g)
  if (byCols === undefined) factsOf.set(g, (byCols = new Map<number, RowFacts>()))
  let facts = byCols.get(headerCols)
  if (facts === undefined) byCols.set(headerCols, (facts = makeFacts(g, headerCols)))
  return facts
}

/** Text of a row's label cells, the innermost written one. */
export function innerLabel(g: Grid, r: number, headerCols: number): string {
  for (let c = headerCols - 1; c >= 0; c--) {
    const t = rawText(g, r, c)
    if (t.length > 0) return t
  }
  return ''
}

/** The lower-case words of a label, as the cues compare them. */
export function labelWords(label: string): string[] {
  return label
    .toLowerCase()
    .split(/[^\p{L}\p{N}$]+/u)
    .filter((t) => t.length > 0)
}

// A per-row memo: `undefined` until the row is first read.
function memo<T>(rows: number, read: (row: number) => T): (row: number) => T {
  const known: (T | undefined)[] = new Array<T | undefined>(rows)
  const done = new Uint8Array(rows)
  return (row) => {
    if (row < 0 || row >= rows) return read(row)
    if (done[row] === 1) return known[row] as T
    const value = read(row)
    known[row] = value
    done[row] = 1
    return value
  }
}

function makeFacts(g: Grid, headerCols: number): RowFacts {
  const label = memo(g.rows, (r) => rowLabel(g, r, headerCols))
  // With one label column the innermost label is the label.
  const inner = headerCols === 1 ? label : memo(g.rows, (r) => innerLabel(g, r, headerCols))
  return {
    label,
    inner,
    words: memo(g.rows, (r) => labelWords(label(r))),
    lower: memo(g.rows, (r) => label(r).toLowerCase()),
    innerLower: memo(g.rows, (r) => inner(r).toLowerCase()),
    innerWords: memo(g.rows, (r) => labelWords(inner(r))),
    period: memo(g.rows, (r) => periodShape(label(r))),
    innerTotal: memo(g.rows, (r) => isTotalLabel(inner(r))),
    innerWhole: memo(g.rows, (r) => isWholeLabel(inner(r)))
  }
}
