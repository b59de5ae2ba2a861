import { useCallback, useEffect, useRef, useState } from 'react'
import type { AskSummary } from '../../../shared/ask'
import type { AppError } from '../../../shared/result'
import type { ExportFormat, SessionExport, SessionListing, SessionOpened, SessionSummary } from '../../../shared/session'
import { errorFromCause } from '../common/failure'
import { useApi } from '../api/context'

export type SessionsState = {
  listing: SessionListing | null
  questions: AskSummary[]
  query: string
  setQuery: (query: string) => void
  error: AppError | null
  busy: string | null
  refresh: () => void
  create: () => Promise<void>
  open: (id: string) => Promise<SessionOpened | null>
  rename: (id: string, name: string) => Promise<AppError | null>
  remove: (id: string) => Promise<void>
  exportAs: (id: string, format: ExportFormat) => Promise<SessionExport | null>
  importText: (text: string) => Promise<SessionOpened | null>
}

/** The listing with one session's card replaced by its new state, newest first as main lists them. */
export function withCard(listing: SessionListing, card: SessionSummary): SessionListing {
  if (!listing.sessions.some((s) => s.id === card.id)) return listing
  const sessions = listing.sessions.map((s) => (s.id === card.id ? card : s))
  sessions.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0))
  return { ...listing, sessions }
}

/**
 * Sessions and the current session's questions: listed again on `session:changed` and `history:changed`;
 * an answered question (`question:answered`) and a change of the open tables (`session:updated`) carry
 * what changed, so nothing is asked for again.
 */
export function useSessions(): SessionsState {
  const api = useApi()
  const [listing, setListing] = useState<SessionListing | null>(null)
  const [questions, setQuestions] = useState<AskSummary[]>([])
  const [query, setQuery] = useState('')
  const [error, setError] = useState<AppError | null>(null)
  const [busy, setBusy] = useState<string | null>(null)
  const latest = useRef(0)

  const refresh = useCallback(() => {
    const ticket = ++latest.current
    void Promise.all([api.listSessions({ query }), api.listQuestions()]).then(
      ([sessions, asked]) => {
        if (ticket !== latest.current) return
        if (sessions.ok) setListing(sessions.value)
        else setError(sessions.error)
        if (asked.ok) setQuestions(asked.value)
      },
      (cause: unknown) => setError(errorFromCause('Listing sessions', cause))
    )
  }, [api, query])

  useEffect(() => {
    refresh()
    const offs = [
      api.on('session:changed', refresh),
      api.on('history:changed', refresh),
      api.on('session:updated', (card) => setListing((l) => (l ? withCard(l, card) : l))),
      api.on('question:answered', ({ entry, session }) => {
        setQuestions((q) => [entry, ...q.filter((x) => x.askId !== entry.askId)])
        setListing((l) => (l ? withCard(l, session) : l))
      })
    ]
    return () => offs.forEach((off) => off())
  }, [api, refresh])

  const act = useCallback(
    async <T>(label: string, call: () => Promise<{ ok: true; value: T } | { ok: false; error: AppError }>): Promise<T | null> => {
      setBusy(label)
      setError(null)
      try {
        const result = await call()
        if (!result.ok) {
          setError(result.error)
          return null
        }
        return result.value
      } catch (cause) {
        setError(errorFromCause(label, cause))
        return null
      } finally {
        setBusy(null)
        refresh()
      }
    },
    [refresh]
  )

  return {
    listing,
    questions,
    query,
    setQuery,
    error,
    busy,
    refresh,
    create: useCallback(async () => void (await act('Starting a session', () => api.newSession({}))), [act, api]),
    open: useCallback((id: string) => act('Opening the session', () => api.openSession({ id })), [act, api]),
    rename: useCallback(
      async (id: string, name: string) => {
        const result = await api
          .renameSession({ id, name })
          .catch((cause: unknown) => ({ ok: false as const, error: errorFromCause('Renaming', cause) }))
        refresh()
        return result.ok ? null : result.error
      },
      [api, refresh]
    ),
    remove: useCallback(async (id: string) => void (await act('Deleting the session', () => api.deleteSession({ id }))), [act, api]),
    exportAs: useCallback((id: string, format: ExportFormat) => act('Exporting', () => api.exportSession({ id, format })), [act, api]),
    importText: useCallback((text: string) => act('Importing', () => api.importSession({ text })), [act, api])
  }
}

/** Save an export as a file: a Blob and a temporary link (works in the browser and in Electron). */
export function download(file: SessionExport): void {
  const url = URL.createObjectURL(new Blob([file.text], { type: file.mimeType }))
  const link = document.createElement('a')
  link.href = url
  link.download = file.fileName
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
