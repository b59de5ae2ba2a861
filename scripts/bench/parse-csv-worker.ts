/**
 * Child process of the structure benchmark: import and structure a generated 200,000 × 20 CSV and print
 * the wall time and this process's peak resident memory as one JSON line; then, as the inspector does after
 * an override, prepare the table again with other header counts (structure and the executors' JSON) and
 * print that time too (its memory is not in the peak above).
 */
import { importFile } from '../../src/main/services/tables/import'
import { prepareTable } from '../../src/main/services/tables/prepare'
import { structureGrid } from '../../src/main/services/tables/structure'

const ROWS = 200_000
const COLS = 20

function generate(): Uint8Array {
  const lines: string[] = [['region', ...Array.from({ length: COLS - 1 }, (_, j) => `measure ${j + 1}`)].join(',')]
  let seed = 12345
  const next = (): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648
    return seed / 2147483648
  }
  for (let i = 0; i < ROWS; i++) {
    const row = [`region ${i % 97}`]
    for (let j = 1; j < COLS; j++)
      row.push(j % 5 === 0 ? `"${Math.floor(next() * 1e6).toLocaleString('en-US')}"` : (next() * 1000).toFixed(2))
    lines.push(row.join(','))
  }
  return new TextEncoder().encode(lines.join('\n'))
}

const bytes = generate()
const start = performance.now()
const imported = await importFile('bench.csv', bytes)
const importSeconds = (performance.now() - start) / 1000
let rows = 0
if (imported.ok) {
  for (const grid of imported.value) rows += structureGrid(grid).values.length
}
const seconds = (performance.now() - start) / 1000
const peakRssMb = process.resourceUsage().maxRSS / 1024
let restructureSeconds = -1
const grid = imported.ok ? imported.value[0] : undefined
if (grid !== undefined) {
  const again = performance.now()
  prepareTable(grid, { headerRows: 1, headerCols: 0, leftHierarchy: 'none' })
  restructureSeconds = (performance.now() - again) / 1000
}
const round = (x: number): number => Math.round(x * 1000) / 1000
console.log(
  JSON.stringify({
    seconds: round(seconds),
    importSeconds: round(importSeconds),
    peakRssMb: Math.round(peakRssMb),
    rows,
    imported: imported.ok,
    restructureSeconds: round(restructureSeconds)
  })
)
