import { useRef, useState } from 'react'
import type { SessionSummary } from '../../../shared/session'
import { formatRunTime } from '../common/format'
import { useShortcut } from '../common/useShortcut'
import { shortcut } from '../common/platform'
import { download, type SessionsState } from './useSessions'
import './sessions.css'

export const SESSION_SEARCH_ID = 'session-search'

/** Reopening a session changes the open tables under the page: load it again so every panel starts clean. */
function reloadWorkspace(): void {
  window.location.reload()
}

function SessionItem({
  session,
  current,
  sessions
}: {
  session: SessionSummary
  current: boolean
  sessions: SessionsState
}): React.JSX.Element {
  const [renaming, setRenaming] = useState(false)
  const [name, setName] = useState(session.name)
  const [confirming, setConfirming] = useState(false)
  const [renameError, setRenameError] = useState<string | null>(null)
  const busy = sessions.busy !== null

  const saveName = (): void => {
    void sessions.rename(session.id, name).then((error) => {
      setRenameError(error?.message ?? null)
      if (!error) setRenaming(false)
    })
  }
  const exportAs = (format: 'json' | 'markdown'): void => {
    void sessions.exportAs(session.id, format).then((file) => file && download(file))
  }

  return (
    <li className={current ? 'session-item current' : 'session-item'} aria-current={current ? 'true' : undefined}>
      {renaming ? (
        <form
          className="session-rename"
          onSubmit={(e) => {
            e.preventDefault()
            saveName()
          }}
        >
          <input
            aria-label="Session name"
            value={name}
            autoFocus
            onChange={(e) => setName(e.currentTarget.value)}
            onKeyDown={(e) => e.key === 'Escape' && setRenaming(false)}
          />
          <button type="submit">Save</button>
        </form>
      ) : (
        <div className="session-title">
          <strong>{session.name}</strong>
          {current && <span className="badge badge-ok">current</span>}
        </div>
      )}
      {renameError && <p className="inline-error">{renameError}</p>}
      <div className="session-meta small muted">
        <time dateTime={session.updatedAt}>{formatRunTime(session.updatedAt)}</time> · {session.tableNames.length}{' '}
        {session.tableNames.length === 1 ? 'table' : 'tables'} · {session.questionCount}{' '}
        {session.questionCount === 1 ? 'question' : 'questions'} · {session.runCount} {session.runCount === 1 ? 'run' : 'runs'}
      </div>
      {session.tableNames.length > 0 && <div className="session-tables small">{session.tableNames.join(', ')}</div>}
      {session.lastQuestion && <div className="session-last small muted">“{session.lastQuestion}”</div>}
      <div className="session-actions">
        <button
          type="button"
          disabled={busy}
          onClick={() => void sessions.open(session.id).then((opened) => opened && reloadWorkspace())}
          title={current ? 'Open its tables again' : 'Make this the current session'}
        >
          {current ? 'Reopen' : 'Open'}
        </button>
        <button type="button" disabled={busy} onClick={() => setRenaming((r) => !r)}>
          Rename
        </button>
        <button type="button" disabled={busy} onClick={() => exportAs('json')}>
          JSON
        </button>
        <button type="button" disabled={busy} onClick={() => exportAs('markdown')}>
          Markdown
        </button>
        {confirming ? (
          <>
            <button
              type="button"
              className="danger"
              onClick={() => void sessions.remove(session.id).then(() => (current ? reloadWorkspace() : setConfirming(false)))}
            >
              Delete
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Keep
            </button>
          </>
        ) : (
          <button type="button" disabled={busy} onClick={() => setConfirming(true)} aria-label={`Delete ${session.name}`}>
            Delete…
          </button>
        )}
      </div>
    </li>
  )
}

/** Sessions: the current one and the others, searched with Ctrl/Cmd+K, opened, renamed, exported, imported. */
export function SessionsPanel({ sessions, onHide }: { sessions: SessionsState; onHide: () => void }): React.JSX.Element {
  const search = useRef<HTMLInputElement>(null)
  const picker = useRef<HTMLInputElement>(null)
  const [imported, setImported] = useState<string | null>(null)
  useShortcut('k', () => {
    search.current?.focus()
    search.current?.select()
  })
  const listing = sessions.listing

  return (
    <section className="sessions" aria-labelledby="sessions-title">
      <div className="panel-header">
        <h2 id="sessions-title">Sessions</h2>
        <div className="panel-actions">
          <button type="button" disabled={sessions.busy !== null} onClick={() => void sessions.create().then(reloadWorkspace)}>
            New
          </button>
          <button type="button" onClick={() => picker.current?.click()}>
            Import…
          </button>
          <button type="button" className="panel-close" aria-label="Hide sessions and history" title="Hide this panel" onClick={onHide}>
            ×
          </button>
          <input
            ref={picker}
            type="file"
            accept=".json,application/json"
            hidden
            data-testid="session-import"
            onChange={(e) => {
              const file = e.currentTarget.files?.[0]
              e.currentTarget.value = ''
              if (!file) return
              void file
                .text()
                .then((text) =>
                  sessions
                    .importText(text)
                    .then((result) =>
                      setImported(
                        result
                          ? `Imported “${result.session.name}”.${result.warnings.length > 0 ? ` ${result.warnings.join(' ')}` : ''}`
                          : null
                      )
                    )
                )
            }}
          />
        </div>
      </div>
      <input
        id={SESSION_SEARCH_ID}
        ref={search}
        type="search"
        className="session-search"
        aria-label="Search sessions"
        placeholder={`Search sessions (${shortcut('K')})`}
        value={sessions.query}
        onChange={(e) => sessions.setQuery(e.currentTarget.value)}
      />
      {listing && listing.problems.length > 0 && (
        <p className="session-problem small" role="alert">
          {listing.problems.length === 1
            ? 'A session file could not be read'
            : `${listing.problems.length} session files could not be read`}{' '}
          and {listing.problems.length === 1 ? 'was' : 'were'} moved aside:{' '}
          {listing.problems.map((p) => `${p.movedTo} (${p.reason})`).join('; ')}
        </p>
      )}
      {sessions.error && (
        <p className="inline-error" role="alert">
          {sessions.error.message}
        </p>
      )}
      {imported && (
        <p className="small session-imported" role="status">
          {imported}
        </p>
      )}
      {sessions.busy && <p className="small muted">{sessions.busy}…</p>}
      <ul className="session-list" aria-label="Sessions">
        {listing?.sessions.map((s) => (
          <SessionItem key={s.id} session={s} current={s.id === listing.currentId} sessions={sessions} />
        ))}
        {listing && listing.sessions.length === 0 && <li className="muted small">No session matches “{sessions.query}”.</li>}
      </ul>
    </section>
  )
}
