type Props = {
  makeDefault: boolean
  onMakeDefault: (value: boolean) => void
  error: string | null
  saving: boolean
  saveLabel: string
  onCancel: () => void
}

/** The end of an endpoint form: the default switch, the form's error, Save and Cancel. */
export function FormFooter({ makeDefault, onMakeDefault, error, saving, saveLabel, onCancel }: Props): React.JSX.Element {
  return (
    <>
      <label className="check">
        <input type="checkbox" checked={makeDefault} onChange={(e) => onMakeDefault(e.currentTarget.checked)} /> Use as the default endpoint
      </label>
      {error && (
        <p className="inline-error" role="alert">
          {error}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={saving}>
          {saving ? 'Saving…' : saveLabel}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </>
  )
}
