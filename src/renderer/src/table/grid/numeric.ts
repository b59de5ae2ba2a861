/**
 * The numeric view of a cell: the number as read, with the decimals the source printed, and digit groups
 * only where the source wrote them (a year or an id written "2021" stays "2021").
 */

const formats = new Map<string, Intl.NumberFormat>()

function format(decimals: number, grouped: boolean): Intl.NumberFormat {
  const key = `${decimals}:${grouped}`
  let f = formats.get(key)
  if (!f) {
    f = new Intl.NumberFormat('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals, useGrouping: grouped })
    formats.set(key, f)
  }
  return f
}

// A separator between a digit and a group of three: "1,234", "1 234", "1\u00a0234", "1'234".
const GROUPED = /\d[,\s\u00a0\u202f'’]\d{3}(?!\d)/

/** "1 234" → "1,234"; "2021" → "2021"; "(12)" → "-12"; "12.50*" → "12.50"; "7%" → "7%". */
export function numericText(raw: string, value: number): string {
  const decimals = Math.min(/\.(\d+)/.exec(raw)?.[1]?.length ?? 0, 10)
  const text = format(decimals, GROUPED.test(raw)).format(value)
  return raw.includes('%') ? `${text}%` : text
}

/** Sort order of a numeric column: numbers by value, then cells that are not numbers. */
export function compareNumbers(a: number | null | undefined, b: number | null | undefined): number {
  const x = a ?? null
  const y = b ?? null
  if (x !== null && y !== null) return x - y
  if (x !== null) return -1
  if (y !== null) return 1
  return 0
}
