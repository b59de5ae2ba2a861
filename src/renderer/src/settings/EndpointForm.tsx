import { useState } from 'react'
import type { EndpointView } from '../../../shared/ask'
import type { ApiKind } from '../../../shared/model'
import { FormFooter } from './FormFooter'
import type { EndpointsState } from './useEndpoints'

/** What the form starts from: an endpoint to edit, or a preset for a new one. */
export type FormStart = {
  editing: EndpointView | null
  preset: { name: string; baseUrl: string; model: string; api: ApiKind; needsKey: boolean }
}

type Props = { start: FormStart; endpoints: EndpointsState; onSaved: (saved: EndpointView) => void; onCancel: () => void }

const API_KINDS: { value: ApiKind; label: string }[] = [
  { value: 'chat', label: 'Chat completions (/v1/chat/completions)' },
  { value: 'completions', label: 'Completions (/v1/completions)' },
  { value: 'responses', label: 'Responses (/v1/responses)' }
]

/** Add or edit an endpoint. The key field is write-only: a saved key is never shown back. */
export function EndpointForm({ start, endpoints, onSaved, onCancel }: Props): React.JSX.Element {
  const e = start.editing
  const [name, setName] = useState(e?.name ?? start.preset.name)
  const [baseUrl, setBaseUrl] = useState(e?.baseUrl ?? start.preset.baseUrl)
  const [model, setModel] = useState(e?.model ?? start.preset.model)
  const [api, setApi] = useState<ApiKind>(e?.api ?? start.preset.api)
  const [key, setKey] = useState('')
  const [removeKey, setRemoveKey] = useState(false)
  const [budget, setBudget] = useState(String(e?.promptTokenBudget ?? 6000))
  const [timeout, setTimeoutS] = useState(String(Math.round((e?.timeoutMs ?? 60_000) / 1000)))
  const [makeDefault, setMakeDefault] = useState(e?.isDefault ?? endpoints.configured.length === 0)
  const [error, setError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)

  const submit = (event: React.FormEvent): void => {
    event.preventDefault()
    const tokens = Number(budget)
    const seconds = Number(timeout)
    if (!Number.isInteger(tokens) || tokens < 500) return setError('The prompt token budget must be a whole number of at least 500.')
    if (!Number.isFinite(seconds) || seconds < 1 || seconds > 3600) return setError('The timeout must be between 1 and 3600 seconds.')
    if (start.preset.needsKey && !e?.hasKey && key.trim() === '') return setError('This service needs an API key.')
    setSaving(true)
    setError(null)
    const apiKey = removeKey ? null : key.trim() === '' ? undefined : key.trim()
    const draft = {
      ...(e ? { id: e.id } : {}),
      ...(e?.supportsN === undefined ? {} : { supportsN: e.supportsN }),
      name: name.trim(),
      baseUrl: baseUrl.trim(),
      model: model.trim(),
      api,
      promptTokenBudget: tokens,
      timeoutMs: Math.round(seconds * 1000)
    }
    endpoints.save(draft, apiKey, makeDefault).then(
      (result) => {
        setSaving(false)
        if (!result.ok) return setError(result.error.message)
        setKey('')
        onSaved(result.value)
      },
      () => setSaving(false)
    )
  }

  return (
    <form className="endpoint-form" onSubmit={submit} aria-label={e ? `Edit ${e.name}` : 'New endpoint'}>
      <label>
        Name
        <input value={name} onChange={(ev) => setName(ev.currentTarget.value)} required />
      </label>
      <label>
        Base URL
        <input value={baseUrl} onChange={(ev) => setBaseUrl(ev.currentTarget.value)} placeholder="http://127.0.0.1:8000/v1" required />
      </label>
      <label>
        Model
        <input value={model} onChange={(ev) => setModel(ev.currentTarget.value)} required />
      </label>
      <label>
        API
        <select aria-label="API kind" value={api} onChange={(ev) => setApi(ev.currentTarget.value as ApiKind)}>
          {API_KINDS.map((k) => (
            <option key={k.value} value={k.value}>
              {k.label}
            </option>
          ))}
        </select>
      </label>
      <label>
        API key
        <input
          type="password"
          autoComplete="off"
          value={key}
          disabled={removeKey}
          onChange={(ev) => setKey(ev.currentTarget.value)}
          placeholder={
            e?.hasKey ? 'key saved: type to replace it' : start.preset.needsKey ? 'required' : 'none needed for most local servers'
          }
        />
      </label>
      {e?.hasKey && (
        <label className="check">
          <input type="checkbox" checked={removeKey} onChange={(ev) => setRemoveKey(ev.currentTarget.checked)} /> Remove the saved key
        </label>
      )}
      <div className="form-row">
        <label>
          Prompt tokens
          <input type="number" min={500} step={500} value={budget} onChange={(ev) => setBudget(ev.currentTarget.value)} />
        </label>
        <label>
          Timeout (s)
          <input type="number" min={1} max={3600} value={timeout} onChange={(ev) => setTimeoutS(ev.currentTarget.value)} />
        </label>
      </div>
      <FormFooter
        makeDefault={makeDefault}
        onMakeDefault={setMakeDefault}
        error={error}
        saving={saving}
        saveLabel="Save endpoint"
        onCancel={onCancel}
      />
    </form>
  )
}
