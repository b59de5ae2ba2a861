import type { RunRecord } from '../../../shared/python'
import type { AskSummary } from '../../../shared/ask'
import type { KeyValueStore } from '../store/store'
import type { SessionStore } from './store'

/**
 * The run history's store, backed by the current session: History keeps working unchanged and shows
 * the runs and questions of whichever session is current.
 */
export function currentSessionStore(sessions: SessionStore): KeyValueStore {
  return {
    get path() {
      return sessions.dir
    },
    get: <T>(key: string): T | undefined => {
      const current = sessions.current()
      if (key === 'runs') return current.runs as T
      if (key === 'questions') return current.questions as T
      return undefined
    },
    set: (key, value) => {
      const id = sessions.current().id
      if (key === 'runs') sessions.update(id, (r) => ({ ...r, runs: value as RunRecord[] }))
      else if (key === 'questions') sessions.update(id, (r) => ({ ...r, questions: value as AskSummary[] }))
    }
  }
}

/** The first start with sessions: what the old history file held becomes the first session's history. */
export function adoptOldHistory(sessions: SessionStore, old: KeyValueStore): void {
  if (old.get<boolean>('movedToSessions') === true) return
  const runs = old.get<RunRecord[]>('runs')
  const questions = old.get<AskSummary[]>('questions')
  const id = sessions.current().id
  if ((Array.isArray(runs) && runs.length > 0) || (Array.isArray(questions) && questions.length > 0)) {
    sessions.update(id, (r) => ({
      ...r,
      runs: [...(Array.isArray(runs) ? runs : []), ...r.runs],
      questions: [...(Array.isArray(questions) ? questions : []), ...r.questions]
    }))
  }
  old.set('movedToSessions', true)
}
