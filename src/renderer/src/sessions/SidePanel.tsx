import { QuestionHistory } from './QuestionHistory'
import { SessionsPanel } from './SessionsPanel'
import { useSessions } from './useSessions'
import './sessions.css'

/** The right-hand column: sessions and the current session's questions, above the run history. */
export function SidePanel({ children, onClose }: { children: React.ReactNode; onClose: () => void }): React.JSX.Element {
  const sessions = useSessions()
  return (
    <div className="side-column" id="side-panel">
      <SessionsPanel sessions={sessions} onHide={onClose} />
      <QuestionHistory questions={sessions.questions} />
      {children}
    </div>
  )
}
