import type { RunRecord } from '../../shared/python'
import type { AskSummary } from '../../shared/ask'
import { OUTPUT_CAP_CHARS } from '../../shared/python'
import type { KeyValueStore } from './store/store'

const KEY = 'runs'
const QUESTIONS = 'questions'
/** History keeps the newest runs; older ones drop off. */
export const HISTORY_LIMIT = 500
/** Output kept per run in history (the live result shows up to OUTPUT_CAP_CHARS). */
const KEPT_OUTPUT = Math.min(20_000, OUTPUT_CAP_CHARS)

export class History {
  constructor(private readonly store: KeyValueStore) {}

  /** Newest first. */
  list(): RunRecord[] {
    const runs = this.store.get<RunRecord[]>(KEY)
    return Array.isArray(runs) ? [...runs].reverse() : []
  }

  add(record: RunRecord): number {
    const runs = this.store.get<RunRecord[]>(KEY) ?? []
    const next = [...runs, compact(record)].slice(-HISTORY_LIMIT)
    this.store.set(KEY, next)
    return next.length
  }

  clear(): void {
    this.store.set(KEY, [])
    this.store.set(QUESTIONS, [])
  }

  /** Answered questions, newest first (kept whole: answer, program, every candidate, endpoint, model, time). */
  questions(): AskSummary[] {
    const asked = this.store.get<AskSummary[]>(QUESTIONS)
    return Array.isArray(asked) ? [...asked].reverse() : []
  }

  addQuestion(summary: AskSummary): number {
    const asked = this.store.get<AskSummary[]>(QUESTIONS) ?? []
    const next = [...asked, summary].slice(-HISTORY_LIMIT)
    this.store.set(QUESTIONS, next)
    return next.length
  }
}

function cut(text: string): string {
  return text.length > KEPT_OUTPUT ? `${text.slice(0, KEPT_OUTPUT)}\n… (cut in history)` : text
}

function compact(record: RunRecord): RunRecord {
  const result = record.result
  if (result.ok) {
    const value = result.value
    // A large value (a whole DataFrame as JSON) stays in the live result; history keeps its repr.
    const small = value.value === null || JSON.stringify(value.value.json ?? null).length <= KEPT_OUTPUT
    const kept = small || value.value === null ? value.value : { repr: value.value.repr, type: value.value.type }
    return { ...record, result: { ok: true, value: { ...value, value: kept, stdout: cut(value.stdout), stderr: cut(value.stderr) } } }
  }
  return {
    ...record,
    result: { ok: false, error: { ...result.error, stdout: cut(result.error.stdout), stderr: cut(result.error.stderr) } }
  }
}
