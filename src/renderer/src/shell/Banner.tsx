type Props = {
  kind: 'error' | 'warning' | 'info'
  title: string
  onDismiss: () => void
  children: React.ReactNode
}

/** A dismissible message above the workspace. Errors are announced at once, warnings and notices politely. */
export function Banner({ kind, title, onDismiss, children }: Props): React.JSX.Element {
  return (
    <div className={`banner banner-${kind}`} role={kind === 'error' ? 'alert' : 'status'} data-testid={`${kind}-banner`}>
      <div className="banner-body">
        <strong>{title}</strong>
        {children}
      </div>
      <button
        type="button"
        className="banner-close"
        onClick={onDismiss}
        aria-label={`Dismiss ${kind === 'error' ? 'error' : kind === 'warning' ? 'warnings' : 'notice'}`}
      >
        ×
      </button>
    </div>
  )
}
