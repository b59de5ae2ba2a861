/**
 * Why a table has the layout it has: for each decision of the structure pass, the rules that took it and
 * their reasons, in words. Rows are the sheet's rows (0-based), as in `HeaderNode.cell`.
 */

/** One rule's part in a decision: its id (see the rule table) and what it found. */
export type StructureReason = { rule: string; text: string }

/** The reasons about one row of the sheet. */
export type RowReasons = { row: number; reasons: StructureReason[] }

/** Where a body row sits in the left tree and why: its role, its parent's row (null: the top level). */
export type RowPlacement = {
  row: number
  /** 'data', 'section', 'unit' or 'note'. */
  role: string
  parentRow: number | null
  /** Why the row has its role. */
  roleReasons: StructureReason[]
  /** Why it sits where it does: the reason its parent heads it, or what closed the groups above it. */
  reasons: StructureReason[]
}

export type StructureWhy = {
  /** Each line of the title block. */
  title: RowReasons[]
  /** Each header row, then the first body row (why the header ends there). */
  headerRows: RowReasons[]
  /** Why the table has its number of label columns. */
  labelColumns: StructureReason[]
  /** Each line of the notes under the table. */
  notes: RowReasons[]
  /** Each body row of the left tree, in order (cut past a few thousand rows). */
  rows: RowPlacement[]
  /** Whether the rows were cut to keep the answer small. */
  rowsTruncated: boolean
}
