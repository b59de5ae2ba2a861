import { shortcut } from '../common/platform'

/** File types the importers read, for the browser's file picker. */
export const OPENABLE = '.csv,.tsv,.txt,.xlsx,.xlsm,.xls,.ods,.html,.htm,.json,.sqlite,.db'

const shortcutLabel = shortcut('O')

type Props = {
  /** Name of the file being opened, while it is. */
  opening: string | null
  /** The native dialog in the desktop app, the picker below in the browser. */
  onOpen: () => void
  onFile: (file: File) => void
  pickerRef: React.RefObject<HTMLInputElement | null>
  /** Controls at the right end (the panel toggles). */
  children?: React.ReactNode
}

export function Toolbar({ opening, onOpen, onFile, pickerRef, children }: Props): React.JSX.Element {
  return (
    <header className="toolbar">
      <h1 className="app-name">TableQA Studio</h1>
      <button
        type="button"
        onClick={onOpen}
        disabled={opening !== null}
        aria-keyshortcuts="Control+O Meta+O"
        title={`Open a table (${shortcutLabel})`}
      >
        Open…
      </button>
      <input
        ref={pickerRef}
        type="file"
        accept={OPENABLE}
        hidden
        data-testid="file-input"
        onChange={(event) => {
          const file = event.currentTarget.files?.[0]
          // Clearing lets the same file be picked again after it changed on disk.
          event.currentTarget.value = ''
          if (file) onFile(file)
        }}
      />
      <span className="toolbar-hint" role="status">
        {opening !== null ? `Opening ${opening}…` : `${shortcutLabel} or drop a file anywhere`}
      </span>
      {children}
    </header>
  )
}
