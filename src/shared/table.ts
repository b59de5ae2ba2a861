/**
 * The table model shared by importers, the structure pass, the UI and the Python runtime.
 *
 * Import gives a RawGrid (cell text + merged regions, and the typed values of sources that type their cells).
 * Structure turns a RawGrid into a ParsedTable:
 * the bi-dimensional header tree (top tree over header rows, left tree over header columns) walked in
 * preorder into root-to-leaf tuples, i.e. the column MultiIndex and the row MultiIndex. A flat table is
 * the one-level case: one header row, no header columns.
 */

import type { RowMove } from './corrections'

/** A cell of the source grid, 0-based. */
export type CellRef = { row: number; col: number }

/** A merged region of the source grid, inclusive on all sides, 0-based. */
export type MergedRegion = { top: number; left: number; bottom: number; right: number }

/** Formatting that carries hierarchy, where the source format has it. */
/** `header`: the source marks the cell as a header cell (an HTML `<th>`), whatever its font. */
export type CellStyle = { bold?: boolean; indent?: number; header?: boolean }

/** One imported sheet/table before any header inference. */
export type RawGrid = {
  /** Display name, e.g. the file name or "file.xlsx › Sheet1". */
  name: string
  /** Cell text, row-major; rows may be ragged only before normalisation. */
  cells: string[][]
  merges: MergedRegion[]
  /** Sparse styles keyed by "row,col". */
  styles?: Record<string, CellStyle>
  /** Things the user should know about the import (encoding fallback, ragged rows padded, ...). */
  warnings: string[]
  /**
   * Header layout the source format declares (HiTab and AIT-QA JSON), as declared there. The structure
   * pass may start from it; header detection benchmarks must not read it. Note HiTab's
   * `top_header_rows_num` counts one row more than the rows that hold top-header nodes.
   */
  hints?: {
    headerRows?: number
    headerCols?: number
    title?: string
    /**
     * The source is a table of records (CSV/TSV, a database table): a first column with a header of its
     * own is data, not row labels, unless the layout shows hierarchy (sections, indentation, an empty corner).
     */
    records?: boolean
  }
  /**
   * For a table cut from a sheet that holds several side by side: the sheet column of this grid's column 0.
   * Source references in the structured table name the sheet's columns.
   */
  sheetColumn?: number
  /**
   * Each row's level in the sheet's row outline (Excel's grouped rows: 1 for a row inside one group, 2 inside two,
   * 0 for none), indexed as `cells`; absent when no row is grouped.
   */
  outline?: number[]
  /** Relational schema of a database table (SQLite import); row 0 of `cells` holds the column names. */
  relational?: RelationalInfo
  /**
   * The values behind the text, for sources that type their cells (XLSX, XLS, ODS, SQLite): a number whatever
   * its format shows, a date, a truth value, a database NULL. Absent for text-only sources (CSV, HTML, JSON).
   */
  values?: GridValues
}

/**
 * How a source types a cell: one letter per cell in `StoredColumn.kinds` (the JSON the Python runtime reads),
 * its character code in `GridValues.kinds`.
 */
export const VALUE_KIND = {
  /** Untyped: the text is all there is (a CSV field, a spreadsheet's string cell). Empty, it is a missing value. */
  untyped: '.',
  /** Text the source types as text (a database TEXT value): a string, even when it reads as a number. */
  text: 's',
  /** A number equal to its text read as a decimal once the thousands commas are removed ("1,234.50"). */
  number: 'n',
  /** A number its text does not show exactly (rounded, a percentage, a currency, a negative in brackets): in `numbers`. */
  exactNumber: 'N',
  true: 't',
  false: 'f',
  /** A date and time: milliseconds since 1970-01-01 00:00 in `numbers`, with no time zone (as the sheet shows it). */
  date: 'd',
  /** A time of day: milliseconds since midnight in `numbers`. */
  time: 'h',
  /** Elapsed time: milliseconds in `numbers`. */
  duration: 'e',
  /** No value: a database NULL or a formula's error ("#DIV/0!"), whatever its text says. */
  missing: '0'
} as const

export type ValueKind = (typeof VALUE_KIND)[keyof typeof VALUE_KIND]

/**
 * Typed cells of an imported sheet, dense over its rows and columns (`row * width + col`). They are indexed by the
 * sheet as imported, not by a grid cut from it: the structure pass crops grids (title rows, tables side by side)
 * without them, and its source references (`rowSource`, `colSource`, `CellRef`) name the same sheet cells.
 */
export type GridValues = {
  width: number
  /** The kind's character code per cell (`VALUE_KIND`), 0 for an untyped cell. */
  kinds: Uint8Array
  /** The value of number, date, time and duration cells (as `numbers` of StoredColumn holds it); NaN elsewhere. */
  numbers: Float64Array
}

/**
 * The typed values of one data column: `kinds` has one letter (`VALUE_KIND`) per data row, `numbers` one entry per
 * cell whose kind carries a number (exactNumber, date, time, duration), in row order. The cell's text stays in
 * `ParsedTable.values`: what the grid shows and the runtime's `raw_frame` gives.
 */
export type StoredColumn = { kinds: string; numbers: number[] }

/** Keys of one database table, column names as in the header row. */
export type RelationalInfo = {
  table: string
  primaryKey: string[]
  foreignKeys: { columns: string[]; refTable: string; refColumns: string[] }[]
}

/** A node of a header tree. The root has empty text and no cell. */
export type HeaderNode = {
  text: string
  cell: CellRef | null
  children: HeaderNode[]
}

/** The part of the structure the user can override in the inspector. */
export type StructureOptions = {
  /**
   * Rows above the table (a spreadsheet's title, unit and source lines, and blank rows between them), part of
   * neither the header nor the body; absent means 0. The header starts at this row.
   */
  titleRows?: number
  /** Number of top header rows (>= 0). */
  headerRows: number
  /** Number of left header columns (>= 0). */
  headerCols: number
  /**
   * The first left header column, when columns before it index the rows without naming them (a row number, a
   * variant repeated on every row, codes): those stay ordinary data columns, and the label columns are
   * `labelsFrom`..`labelsFrom + headerCols - 1`. Absent means 0.
   */
  labelsFrom?: number
  /**
   * Nesting of rows inside the left header: 'auto' (default) makes section rows (label, no data), unit
   * rows ("percent" above the data) and indented labels parents of the rows below; 'none' keeps every
   * row's path to its own header cells.
   */
  leftHierarchy?: 'auto' | 'none'
  /**
   * Rows moved by hand under another row or to the top level, applied in order after the structure pass
   * (`tables/corrections.ts`); the structure pass itself never reads them. Absent: none.
   */
  rowMoves?: RowMove[]
}

/**
 * A structured table: what the Python runtime turns into a pandas DataFrame.
 * `columns[j]` is the top tuple of data column j; `index[i]` the left tuple of data row i
 * (an empty array when the table has no left header, which gives a RangeIndex).
 */
export type ParsedTable = {
  name: string
  options: StructureOptions
  columns: string[][]
  index: string[][]
  /** Raw cell text of the data region, row-major: what the grid shows. */
  values: string[][]
  /**
   * What programs compute on where the source types its cells: per data column its typed values, or null for a
   * column with none (a label column of the flat view, a column of text cells). Absent when no column has any
   * (CSV, HTML, JSON), and the runtime reads the text as it always has.
   */
  stored?: (StoredColumn | null)[]
  /** Source cell of each column tuple's leaf, of each index tuple's leaf. */
  columnCells: (CellRef | null)[]
  indexCells: (CellRef | null)[]
  /** Source row of each data row and source column of each data column. */
  rowSource: number[]
  colSource: number[]
  /** The top tree T over the header rows and the left tree L over the header columns (roots have text ''). */
  topTree: HeaderNode
  leftTree: HeaderNode
  /**
   * Numeric reading of `values` (null where a cell is not a number), row-major. Computed on the first call
   * and kept: structuring a table of millions of cells does not parse every number up front. Being a
   * function, it is not part of the JSON payload sent to the Python runtime, which reads numbers itself.
   */
  numbers: () => (number | null)[][]
  /** What the structure pass noticed and the user may want to know (clipped merges, padded rows, ...). */
  warnings?: string[]
  /**
   * The table's title: the text of its title rows, one line per row, or else the title its source gives (an
   * HTML caption, the title of a HiTab table). Absent when it has neither.
   */
  title?: string
  /** The notes under the table (source lines, footnotes), one line per row. Absent when it has none. */
  notes?: string
}

/**
 * How a table is shown and handed to Python: 'multiindex' keeps both header trees (column MultiIndex and
 * row MultiIndex); 'flatten' joins each column path into one name and turns the left header into ordinary
 * leading columns ("level 1", "level 2", ...).
 */
export type IndexView = 'multiindex' | 'flatten'
