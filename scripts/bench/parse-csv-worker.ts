/**
 * Child process of the structure benchmark: import and structure a generated 200,000 × 20 CSV and print
 * the wall time and this process's peak resident memory as one JSON line.
 */
import { importFile } from '../../src/main/services/tables/import'
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
    for (let j = 1; j < COLS; j++) row.push(j % 5 === 0 ? `"${Math.floor(next() * 1e6).toLocaleString('en-US')}"` : (next() * 1000).toFixed(2))
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
console.log(JSON.stringify({ seconds: Math.round(seconds * 1000) / 1000, importSeconds: Math.round(importSeconds * 1000) / 1000, peakRssMb: Math.round(peakRssMb), rows, imported: imported.ok }))
