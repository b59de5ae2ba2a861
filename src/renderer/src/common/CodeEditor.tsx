import { useLayoutEffect, useRef } from 'react'
import { dedent, indent, type Edit } from './editing'

/** The editor's element id, for shortcuts that focus it. */
export const CODE_EDITOR_ID = 'code-editor'

type Props = {
  value: string
  onChange: (value: string) => void
  onRun: () => void
  /** Id of the help text that says what the editor is for. */
  describedBy?: string
}

/** A plain textarea that behaves enough like a code editor: Tab indents, Ctrl/Cmd+Enter runs. */
export function CodeEditor({ value, onChange, onRun, describedBy }: Props): React.JSX.Element {
  const area = useRef<HTMLTextAreaElement>(null)
  const pendingSelection = useRef<Edit | null>(null)
  // After Escape, Tab leaves the editor again, so keyboard users are not trapped in it.
  const tabMovesFocus = useRef(false)

  useLayoutEffect(() => {
    const edit = pendingSelection.current
    if (edit && area.current && area.current.value === edit.text) {
      area.current.setSelectionRange(edit.selectionStart, edit.selectionEnd)
    }
    pendingSelection.current = null
  }, [value])

  const onKeyDown = (event: React.KeyboardEvent<HTMLTextAreaElement>): void => {
    const target = event.currentTarget
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault()
      onRun()
      return
    }
    if (event.key === 'Escape') {
      tabMovesFocus.current = true
      return
    }
    if (event.key !== 'Tab' || tabMovesFocus.current || event.ctrlKey || event.altKey || event.metaKey) {
      tabMovesFocus.current = false
      return
    }
    event.preventDefault()
    const edit = (event.shiftKey ? dedent : indent)(target.value, target.selectionStart, target.selectionEnd)
    pendingSelection.current = edit
    onChange(edit.text)
  }

  return (
    <textarea
      ref={area}
      id={CODE_EDITOR_ID}
      className="code-editor"
      aria-label="Python code"
      aria-keyshortcuts="Control+Enter Meta+Enter"
      // Prose, so it cannot be taken for code that is already there.
      placeholder="Type Python code here…"
      aria-describedby={describedBy}
      spellCheck={false}
      autoCapitalize="off"
      autoComplete="off"
      autoCorrect="off"
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      onKeyDown={onKeyDown}
      onBlur={() => {
        tabMovesFocus.current = false
      }}
    />
  )
}
