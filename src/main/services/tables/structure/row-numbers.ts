/** The numbers of a table's body rows as the sums of aggregates.ts read them, parsed once per left tree. */
import { rawText, type Grid } from './grid'
import { parseNumber } from './number'

// Aggregates are looked for in report-sized tables only, and a parent's children within this many rows.
export const MAX_BODY_ROWS = 5000
export const MAX_BLOCK = 400
export const MAX_COLUMNS = 12
// A parent value must have this many rounding units to count as adding up.
export const SIGNIFICANT = 20

/**
 * The numbers of the body rows in the first data columns (as many as the sums look at) and the rounding unit
 * of each (see unitOf), row by row as the sums ask for them, read once per left tree: the blocks and the
 * totals go over the same rows many times. `values` holds NaN where a cell has no number (or its row has not
 * been read), `units` 1. Width 0 beyond report-sized tables, where no sums are looked for. Nothing is
 * allocated until a row is read.
 */
export class RowNumbers {
  readonly width: number
  private store: { values: Float64Array; units: Float64Array; read: Uint8Array } | null = null

  constructor(
    private readonly g: Grid,
    private readonly headerRows: number,
    private readonly headerCols: number,
    readonly rows: number
  ) {
    this.width = rows > MAX_BODY_ROWS ? 0 : Math.max(0, Math.min(g.cols - headerCols, MAX_COLUMNS))
  }

  get values(): Float64Array {
    return this.arrays().values
  }

  get units(): Float64Array {
    return this.arrays().units
  }

  /** Reads body row i, once; returns the offset of its numbers in `values` and `units`. */
  read(i: number): number {
    const { values, units, read } = this.arrays()
    const at = i * this.width
    if (read[i] === 1) return at
    for (let j = 0; j < this.width; j++) {
      const text = rawText(this.g, this.headerRows + i, this.headerCols + j)
      const v = parseNumber(text)
      if (v === null) continue
      values[at + j] = v
      units[at + j] = unitOf(text)
    }
    read[i] = 1
    return at
  }

  private arrays(): { values: Float64Array; units: Float64Array; read: Uint8Array } {
    this.store ??= {
      values: new Float64Array(this.rows * this.width).fill(NaN),
      units: new Float64Array(this.rows * this.width).fill(1),
      read: new Uint8Array(this.rows)
    }
    return this.store
  }
}

/**
 * Column sums, the lowest and highest value, and whether any is negative, of the rows added as parts of a
 * total. A part without a number in a column adds nothing to it, or, with `missingVoids`, makes its sum NaN.
 */
export class Parts {
  readonly sums: Float64Array
  readonly lows: Float64Array
  readonly highs: Float64Array
  readonly negative: Uint8Array
  members = 0

  constructor(
    private readonly numbers: RowNumbers,
    private readonly missingVoids = false
  ) {
    this.sums = new Float64Array(numbers.width)
    this.lows = new Float64Array(numbers.width)
    this.highs = new Float64Array(numbers.width)
    this.negative = new Uint8Array(numbers.width)
    this.clear()
  }

  clear(): void {
    this.sums.fill(0)
    this.lows.fill(Infinity)
    this.highs.fill(-Infinity)
    this.negative.fill(0)
    this.members = 0
  }

  /** Adds body row i. */
  add(i: number): void {
    const at = this.numbers.read(i)
    const values = this.numbers.values
    for (let j = 0; j < this.sums.length; j++) {
      const v = values[at + j] ?? NaN
      if (Number.isNaN(v)) {
        if (this.missingVoids) this.sums[j] = NaN
        continue
      }
      this.sums[j] = (this.sums[j] ?? 0) + v
      if (v < 0) this.negative[j] = 1
      if (v < (this.lows[j] ?? Infinity)) this.lows[j] = v
      if (v > (this.highs[j] ?? -Infinity)) this.highs[j] = v
    }
    this.members++
  }

  /**
   * Body row i, as a total, and the sum agree to the rounding unit in more columns than they disagree, one at
   * least. A column whose total lies among its parts' values (a rate, a median) counts as neither, as in addsUp.
   */
  addUpTo(i: number): boolean {
    const at = this.numbers.read(i)
    const { values, units } = this.numbers
    let match = 0
    let mismatch = 0
    for (let j = 0; j < this.sums.length; j++) {
      const v = values[at + j] ?? NaN
      const low = this.lows[j] ?? Infinity
      const high = this.highs[j] ?? -Infinity
      if (Number.isNaN(v) || low > high) continue
      const unit = units[at + j] ?? 1
      if (Math.abs(v - (this.sums[j] ?? 0)) <= 0.5 * unit * (this.members + 1)) {
        if (Math.abs(v) >= SIGNIFICANT * unit) match++
      } else if (v >= low && v <= high) continue
      else mismatch++
    }
    return match > 0 && match > mismatch
  }
}

/** The rounding unit of a printed number: 1 for "1,234", 0.1 for "12.5%". */
function unitOf(text: string): number {
  // The digits after the first full stop that has any (as /\.(\d+)/ finds them).
  for (let dot = text.indexOf('.'); dot >= 0; dot = text.indexOf('.', dot + 1)) {
    let k = dot + 1
    while (k < text.length && text.charCodeAt(k) >= 48 && text.charCodeAt(k) <= 57) k++
    if (k > dot + 1) return Math.pow(10, -(k - dot - 1))
  }
  return 1
}
