/** The numeric view of a cell: the number as read, grouped, with the decimals the source printed. */

const formats = new Map<string, Intl.NumberFormat>()

function format(decimals: number): Intl.NumberFormat {
  const key = String(decimals)
  let f = formats.get(key)
  if (!f) {
    f = new Intl.NumberFormat('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals })
    formats.set(key, f)
  }
  return f
}

/** "1 234" → "1,234"; "(12)" → "-12"; "12.50*" → "12.50"; "7%" → "7%". */
export function numericText(raw: string, value: number): string {
  const decimals = Math.min(/\.(\d+)/.exec(raw)?.[1]?.length ?? 0, 10)
  const text = format(decimals).format(value)
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
