/** Types of sessions: the open tables, questions and Python runs of one piece of work, kept on disk. */

import type { AskSummary } from './ask'
import type { RunRecord } from './python'
import type { IndexView, StructureOptions } from './table'

/** The sample tables shipped in resources/samples, opened from the welcome screen. */
export type SampleName = 'orders-csv' | 'regional-report-xlsx' | 'bookshop-sqlite'
/** Where a session's tables came from, so reopening the session can open them again. */
export type SessionOrigin =
  /** A file opened by its bytes: the bytes are kept in the session's folder under `stored`. */
  | {
      kind: 'file'
      fileName: string
      stored: string
      bytes: number
      /** SHA-256 (hex) of the bytes, so a layout set by hand follows the same file opened again (absent in older sessions). */
      sha256?: string
    }
  /** One of the sample tables shipped with the app. */
  | { kind: 'sample'; sample: SampleName }

/** One table of a session: its name, and the header layout the user chose when it differs from detection. */
export type SessionTable = { name: string; structure?: StructureOptions; view?: IndexView }

/** One opened file or sample and the tables of it still open (one per sheet or database table). */
export type SessionSource = { id: string; origin: SessionOrigin; tables: SessionTable[] }

/** A session as stored in `<dataDir>/sessions/<id>.json`. */
export type SessionRecord = {
  version: 1
  id: string
  name: string
  /** ISO-8601 times. */
  createdAt: string
  updatedAt: string
  sources: SessionSource[]
  /** Answered questions, oldest first. */
  questions: AskSummary[]
  /** Python runs, oldest first. */
  runs: RunRecord[]
}

/** A session as the list shows it. */
export type SessionSummary = {
  id: string
  name: string
  createdAt: string
  updatedAt: string
  tableNames: string[]
  questionCount: number
  runCount: number
  /** The latest question asked, for the list. */
  lastQuestion: string | null
}

/** A session file that could not be read: moved aside so the app still starts. */
export type SessionProblem = { file: string; movedTo: string; reason: string }

export type SessionListing = { sessions: SessionSummary[]; currentId: string; problems: SessionProblem[] }

/** What reopening a session did: its tables are open again (ids are new), with what could not be restored. */
export type SessionOpened = { session: SessionSummary; tableIds: string[]; warnings: string[] }

export type ExportFormat = 'json' | 'markdown'

/** An exported session: the text, and a file name and type for saving it. */
export type SessionExport = { fileName: string; mimeType: string; text: string }
