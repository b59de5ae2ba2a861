import type { ParsedTable, RawGrid, StructureOptions } from '../../../../shared/table'

/** Guess header rows/columns. Minimal: one header row; replaced by header-tree detection. */
export function detectStructure(grid: RawGrid): StructureOptions {
  return { headerRows: grid.cells.length > 0 ? 1 : 0, headerCols: 0 }
}

/** Build the ParsedTable for a grid under the given options. Minimal flat version. */
export function structureGrid(grid: RawGrid, options: StructureOptions = detectStructure(grid)): ParsedTable {
  const width = Math.max(0, ...grid.cells.map((r) => r.length))
  const header = grid.cells[0] ?? []
  const body = grid.cells.slice(options.headerRows)
  return {
    name: grid.name,
    options,
    columns: Array.from({ length: width }, (_, j) => [header[j] ?? '']),
    index: body.map(() => []),
    values: body.map((r) => Array.from({ length: width }, (_, j) => r[j] ?? '')),
    columnCells: Array.from({ length: width }, (_, j) => ({ row: 0, col: j })),
    indexCells: body.map(() => null),
    rowSource: body.map((_, i) => i + options.headerRows),
    colSource: Array.from({ length: width }, (_, j) => j)
  }
}
