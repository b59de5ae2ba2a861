import { randomUUID } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { SessionListing, SessionProblem, SessionRecord, SessionSummary, SessionTable } from '../../../shared/session'
import { TEMP_SUFFIX, writeFileAtomic } from './atomic'
import { redactDeep } from './redact'
import { isSessionId, validateSession, validateTable } from './validate'

const INDEX = 'index.json'
// Layouts set by hand, by file bytes and table: kept apart from the sessions, so closing a table keeps its layout.
// (a name no session id can take: the loader reads `<id>.json` files as sessions)
const LAYOUTS = 'layouts.v1.json'
const MAX_LAYOUTS = 2000
type IndexFile = { version: 1; currentId: string | null; order: string[] }

/**
 * Sessions on disk: `<dir>/<id>.json` per session (written atomically), `<dir>/<id>/` for the bytes of
 * the files its tables came from, and `<dir>/index.json` for the current session and the list order.
 * The session files are the truth: a lost or corrupt index is rebuilt from them. A corrupt session file
 * is moved aside as `<id>.corrupt-<time>.json` and reported; the others still load.
 */
export class SessionStore {
  private readonly sessions = new Map<string, SessionRecord>()
  // What was left out of a session file read without failing it (damaged moves), said when it is reopened.
  private readonly sessionNotes = new Map<string, string[]>()
  private currentId = ''
  readonly problems: SessionProblem[] = []

  constructor(
    readonly dir: string,
    private readonly now: () => Date = () => new Date()
  ) {
    mkdirSync(dir, { recursive: true })
    this.load()
  }

  private load(): void {
    for (const name of readdirSync(this.dir)) {
      const path = join(this.dir, name)
      // Left behind by a process killed mid-write; the target still holds the previous version.
      if (name.endsWith(TEMP_SUFFIX)) {
        rmSync(path, { force: true })
        continue
      }
      if (name === INDEX || !name.endsWith('.json') || name.includes('.corrupt-')) continue
      const id = name.slice(0, -'.json'.length)
      if (!isSessionId(id)) continue
      const read = this.readSession(path)
      if (typeof read === 'string') this.quarantine(path, id, read)
      else if (read.id !== id) this.quarantine(path, id, `the file names session ${read.id}`)
      else this.sessions.set(id, read)
    }
    const index = this.readIndex()
    const current = index?.currentId
    if (current && this.sessions.has(current)) this.currentId = current
    else this.currentId = this.newest()?.id ?? this.create().id
    this.writeIndex()
  }

  private readSession(path: string): SessionRecord | string {
    try {
      const notes: string[] = []
      const checked = validateSession(JSON.parse(readFileSync(path, 'utf8')), notes)
      if (checked.ok && notes.length > 0) this.sessionNotes.set(checked.value.id, notes)
      return checked.ok ? checked.value : checked.error.message
    } catch (error) {
      return error instanceof Error ? error.message : String(error)
    }
  }

  private quarantine(path: string, id: string, reason: string): void {
    const movedTo = join(this.dir, `${id}.corrupt-${this.now().toISOString().replace(/[:.]/g, '-')}.json`)
    renameSync(path, movedTo)
    this.problems.push({ file: path, movedTo, reason })
  }

  private readIndex(): IndexFile | null {
    try {
      const parsed = JSON.parse(readFileSync(join(this.dir, INDEX), 'utf8')) as Partial<IndexFile>
      return typeof parsed === 'object' && parsed !== null
        ? { version: 1, currentId: typeof parsed.currentId === 'string' ? parsed.currentId : null, order: [] }
        : null
    } catch {
      return null
    }
  }

  private writeIndex(): void {
    const index: IndexFile = { version: 1, currentId: this.currentId, order: this.ordered().map((s) => s.id) }
    writeFileAtomic(join(this.dir, INDEX), `${JSON.stringify(index, null, 2)}\n`)
  }

  private ordered(): SessionRecord[] {
    return [...this.sessions.values()].sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0))
  }

  private newest(): SessionRecord | undefined {
    return this.ordered()[0]
  }

  private write(record: SessionRecord): SessionRecord {
    const clean = redactDeep(record)
    writeFileAtomic(join(this.dir, `${clean.id}.json`), JSON.stringify(clean))
    this.sessions.set(clean.id, clean)
    return clean
  }

  /** What was left out of this session when its file was read, once: the next write no longer has it. */
  takeNotes(id: string): string[] {
    const notes = this.sessionNotes.get(id) ?? []
    this.sessionNotes.delete(id)
    return notes
  }

  get(id: string): SessionRecord | undefined {
    return this.sessions.get(id)
  }

  current(): SessionRecord {
    const found = this.sessions.get(this.currentId)
    if (found) return found
    // The current session was deleted from under us: start another.
    return this.create()
  }

  setCurrent(id: string): boolean {
    if (!this.sessions.has(id)) return false
    this.currentId = id
    this.writeIndex()
    return true
  }

  /** Start a new empty session and make it current. */
  create(name?: string): SessionRecord {
    const at = this.now().toISOString()
    const record: SessionRecord = {
      version: 1,
      id: randomUUID(),
      name: name?.trim() || defaultName(this.now()),
      createdAt: at,
      updatedAt: at,
      sources: [],
      questions: [],
      runs: []
    }
    this.write(record)
    this.currentId = record.id
    this.writeIndex()
    return record
  }

  /** Change a session; the change is on disk when this returns. */
  update(id: string, change: (record: SessionRecord) => SessionRecord): SessionRecord | undefined {
    const found = this.sessions.get(id)
    if (!found) return undefined
    const next = this.write({ ...change(found), id, updatedAt: this.now().toISOString() })
    this.writeIndex()
    return next
  }

  rename(id: string, name: string): SessionRecord | undefined {
    return this.update(id, (r) => ({ ...r, name: name.trim() || r.name }))
  }

  delete(id: string): boolean {
    if (!this.sessions.has(id)) return false
    rmSync(join(this.dir, `${id}.json`), { force: true })
    rmSync(join(this.dir, id), { recursive: true, force: true })
    this.sessions.delete(id)
    if (this.currentId === id) this.currentId = this.newest()?.id ?? this.create().id
    this.writeIndex()
    return true
  }

  /** Add a whole session (an import) under a fresh id; the caller supplies the bytes of its files. */
  add(record: SessionRecord, files: Map<string, Uint8Array>): SessionRecord {
    const id = randomUUID()
    for (const [stored, bytes] of files) this.saveBytesAs(id, stored, bytes)
    return this.write({ ...record, id })
  }

  /** Keep the bytes of an opened file in the session's folder; returns the stored name. */
  saveBytes(id: string, bytes: Uint8Array): string {
    const stored = `${randomUUID()}.bin`
    this.saveBytesAs(id, stored, bytes)
    return stored
  }

  private saveBytesAs(id: string, stored: string, bytes: Uint8Array): void {
    const folder = join(this.dir, id)
    mkdirSync(folder, { recursive: true })
    writeFileAtomic(join(folder, stored), bytes)
  }

  readBytes(id: string, stored: string): Uint8Array | null {
    const path = join(this.dir, id, stored)
    return existsSync(path) ? new Uint8Array(readFileSync(path)) : null
  }

  dropBytes(id: string, stored: string): void {
    rmSync(join(this.dir, id, stored), { force: true })
  }

  /**
   * The header layout last set by hand for a table of the file with these bytes (by SHA-256), whatever the
   * file was called: `part` is the table's name after the file name (its sheet, "" for a one-table file). In
   * the current session first, then in the others, the most recently changed first.
   */
  savedLayout(sha256: string, part: string): SessionTable | undefined {
    const remembered = this.readLayouts().get(`${sha256}\n${part}`)
    if (remembered) return remembered
    const current = this.current()
    for (const record of [current, ...this.ordered().filter((r) => r.id !== current.id)])
      for (let k = record.sources.length - 1; k >= 0; k--) {
        const source = record.sources[k]
        if (source?.origin.kind !== 'file' || source.origin.sha256 !== sha256) continue
        const { fileName } = source.origin
        const table = source.tables.find((t) => t.structure !== undefined && tablePart(t.name, fileName) === part)
        if (table) return table
      }
    return undefined
  }

  /** Keep the layout set by hand on a table of a file (by its bytes' SHA-256), also after the table is closed. */
  rememberLayout(sha256: string, part: string, table: SessionTable): void {
    const layouts = this.readLayouts()
    const key = `${sha256}\n${part}`
    layouts.delete(key)
    layouts.set(key, table)
    this.layoutNotes.delete(key)
    // The most recent ones: a layout is a few dozen bytes, the file stays small.
    for (const old of layouts.keys()) {
      if (layouts.size <= MAX_LAYOUTS) break
      layouts.delete(old)
    }
    writeFileAtomic(join(this.dir, LAYOUTS), `${JSON.stringify(Object.fromEntries(layouts))}\n`)
  }

  /**
   * What was wrong with the saved layout of a table of these bytes when it was read (damaged moves left
   * out, say), for the notice shown when it is applied; empty when nothing was.
   */
  savedLayoutNotes(sha256: string, part: string): string[] {
    this.readLayouts()
    return this.layoutNotes.get(`${sha256}\n${part}`) ?? []
  }

  private layouts: Map<string, SessionTable> | null = null
  private readonly layoutNotes = new Map<string, string[]>()

  /**
   * The layouts file, each entry checked: an entry that is not a layout is left out, moves that are not valid
   * are left out of theirs (noted for `savedLayoutNotes`). A file that cannot be read at all is moved aside and
   * reported with the sessions' problems; the sessions keep their own layouts.
   */
  private readLayouts(): Map<string, SessionTable> {
    if (this.layouts !== null) return this.layouts
    this.layouts = new Map()
    const path = join(this.dir, LAYOUTS)
    if (!existsSync(path)) return this.layouts
    let data: unknown
    try {
      data = JSON.parse(readFileSync(path, 'utf8'))
    } catch (error) {
      this.quarantineLayouts(path, error instanceof Error ? error.message : String(error))
      return this.layouts
    }
    if (typeof data !== 'object' || data === null || Array.isArray(data)) {
      this.quarantineLayouts(path, 'it does not hold an object of layouts')
      return this.layouts
    }
    for (const [key, value] of Object.entries(data)) {
      const notes: string[] = []
      const checked = validateTable(value, 'The saved layout', notes)
      if (checked.ok && checked.value.structure !== undefined) this.layouts.set(key, checked.value)
      else
        notes.push(
          `The saved layout of this table could not be read and was ignored (${checked.ok ? 'it has no layout' : checked.error.message.replace(/\.$/, '')}).`
        )
      if (notes.length > 0) this.layoutNotes.set(key, notes)
    }
    return this.layouts
  }

  private quarantineLayouts(path: string, reason: string): void {
    const movedTo = join(this.dir, `layouts.v1.corrupt-${this.now().toISOString().replace(/[:.]/g, '-')}.json`)
    try {
      renameSync(path, movedTo)
      this.problems.push({ file: path, movedTo, reason: `saved layouts: ${reason}` })
    } catch {
      // Not even movable: the next layout saved replaces it.
    }
  }

  listing(query = ''): SessionListing {
    const words = query
      .toLowerCase()
      .split(/\s+/)
      .filter((w) => w !== '')
    const sessions = this.ordered()
      .filter((r) => words.length === 0 || words.every((w) => searchText(r).includes(w)))
      .map(summarize)
    return { sessions, currentId: this.current().id, problems: [...this.problems] }
  }
}

export function summarize(record: SessionRecord): SessionSummary {
  const last = record.questions[record.questions.length - 1]
  return {
    id: record.id,
    name: record.name,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    tableNames: record.sources.flatMap((s) => s.tables.map((t) => t.name)),
    questionCount: record.questions.length,
    runCount: record.runs.length,
    lastQuestion: last?.question ?? null
  }
}

function searchText(record: SessionRecord): string {
  const parts = [
    record.name,
    ...record.sources.flatMap((s) => [s.origin.kind === 'file' ? s.origin.fileName : s.origin.sample, ...s.tables.map((t) => t.name)])
  ]
  for (const q of record.questions) parts.push(q.question, q.answer?.text ?? '')
  return parts.join('\n').toLowerCase()
}

function defaultName(at: Date): string {
  return `Session ${at.toISOString().slice(0, 16).replace('T', ' ')}`
}

/** A table's name after the name of its file ("scores.csv › Sheet1" → " › Sheet1"). */
export function tablePart(name: string, fileName: string): string {
  return name.startsWith(fileName) ? name.slice(fileName.length) : name
}
