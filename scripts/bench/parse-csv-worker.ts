/**
 * Child process of the structure benchmark: import and structure a generated 200,000 × 20 CSV (or, with the
 * argument `xlsx`, the workbook of the same shape with formatted numbers, scripts/bench/generated.ts) and print
 * the wall time and this process's peak resident memory as one JSON line; then, as the inspector does after
 * an override, prepare the table again with other header counts (structure and the executors' JSON) and
 * print that time too (its memory is not in the peak above).
 */
import { importFile } from '../../src/main/services/tables/import'
import { prepareTable } from '../../src/main/services/tables/prepare'
import { structureGrid } from '../../src/main/services/tables/structure'
import { generatedCsv, generatedXlsx } from './generated'

const xlsx = process.argv.includes('xlsx')
const bytes = xlsx ? generatedXlsx() : generatedCsv()
const start = performance.now()
const imported = await importFile(xlsx ? 'bench.xlsx' : 'bench.csv', bytes)
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
