import { useEffect, useRef, useState } from 'react'
import type { EndpointView } from '../../../shared/ask'
import { useStudio } from '../question/studio'
import { BuiltinForm } from './BuiltinForm'
import { EndpointForm, type FormStart } from './EndpointForm'
import { ExecutorSettings } from './ExecutorSettings'
import { GuidedChoice, PRESETS } from './GuidedSetup'
import './settings.css'

type Check = { id: string; busy: boolean; text: string; ok: boolean | null }

/** Model endpoints: list, add, edit, delete, test, list models, make default; the guided first setup. */
export function EndpointSettings(): React.JSX.Element | null {
  const { settings } = useStudio()
  // Mounted only while open, so every opening starts from the list.
  return settings.open ? <SettingsDialog /> : null
}

function SettingsDialog(): React.JSX.Element {
  const { endpoints, settings } = useStudio()
  const [form, setForm] = useState<FormStart | null>(null)
  const [builtinForm, setBuiltinForm] = useState<EndpointView | null>(null)
  const [check, setCheck] = useState<Check | null>(null)
  const [confirmDelete, setConfirmDelete] = useState<string | null>(null)
  const panel = useRef<HTMLDivElement>(null)
  const { guided, close } = settings

  useEffect(() => {
    panel.current?.focus()
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === 'Escape') close()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [close])

  const { test, models } = endpoints

  const runTest = (e: EndpointView): void => {
    setCheck({ id: e.id, busy: true, text: 'Testing…', ok: null })
    void test(e.id).then((r) =>
      setCheck({ id: e.id, busy: false, ok: r.ok && r.value.modelListed, text: r.ok ? r.value.message : r.error.message })
    )
  }
  const listModels = (e: EndpointView): void => {
    setCheck({ id: e.id, busy: true, text: 'Asking for models…', ok: null })
    void models(e.id).then((r) =>
      setCheck({
        id: e.id,
        busy: false,
        ok: r.ok,
        text: r.ok ? (r.value.length === 0 ? 'The server lists no models.' : `Models: ${r.value.join(', ')}`) : r.error.message
      })
    )
  }
  const saved = (e: EndpointView): void => {
    setForm(null)
    setBuiltinForm(null)
    runTest(e)
  }
  const builtin = endpoints.endpoints.find((e) => e.kind === 'builtin') ?? null
  const showChoice = form === null && builtinForm === null && (endpoints.configured.length === 0 || guided)

  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && close()}>
      <div className="modal endpoint-settings" role="dialog" aria-modal="true" aria-labelledby="endpoints-title" tabIndex={-1} ref={panel}>
        <div className="panel-header">
          <h2 id="endpoints-title">Model endpoints</h2>
          <button type="button" onClick={close} aria-label="Close">
            ✕
          </button>
        </div>
        <p className="muted small">
          The built-in model runs on this computer; or any OpenAI-compatible server: a hosted API with a key, or a local server (vLLM,
          llama.cpp, Ollama, TGI). Keys are stored encrypted and never shown again.
        </p>
        {endpoints.error && (
          <p className="inline-error" role="alert">
            {endpoints.error.message}
          </p>
        )}
        {endpoints.endpoints.length > 0 && (
          <ul className="endpoint-list" aria-label="Endpoints">
            {endpoints.endpoints.map((e) => (
              <li key={e.id} className="endpoint-item">
                <div className="endpoint-line">
                  <strong>{e.name}</strong>
                  {e.isDefault && <span className="badge badge-ok">default</span>}
                  {e.kind === 'builtin' ? (
                    <span className="muted small">
                      {e.builtinState?.state === 'ready'
                        ? `${e.model} · ${e.api === 'chat' ? 'chat template' : 'completion'} · ${e.builtin?.contextSize ?? ''} tokens`
                        : (e.builtinState?.message ?? 'no model yet')}
                    </span>
                  ) : (
                    <>
                      <span className="muted small">
                        {e.model} · {e.api} · {e.baseUrl}
                      </span>
                      <span className="small">{e.hasKey ? 'key saved' : 'no key'}</span>
                    </>
                  )}
                </div>
                <div className="endpoint-actions">
                  <button type="button" onClick={() => runTest(e)} disabled={check?.busy === true}>
                    Test connection
                  </button>
                  <button type="button" onClick={() => listModels(e)} disabled={check?.busy === true}>
                    List models
                  </button>
                  <button
                    type="button"
                    onClick={() => (e.kind === 'builtin' ? setBuiltinForm(e) : setForm({ editing: e, preset: PRESETS.local }))}
                  >
                    {e.kind === 'builtin' ? 'Settings' : 'Edit'}
                  </button>
                  {!e.isDefault && (
                    <button
                      type="button"
                      onClick={() =>
                        void endpoints.save(
                          e.kind === 'builtin'
                            ? { kind: 'builtin', id: e.id, builtin: {} }
                            : {
                                id: e.id,
                                name: e.name,
                                baseUrl: e.baseUrl,
                                model: e.model,
                                api: e.api,
                                ...(e.supportsN === undefined ? {} : { supportsN: e.supportsN })
                              },
                          undefined,
                          true
                        )
                      }
                    >
                      Make default
                    </button>
                  )}
                  {e.kind === 'builtin' ? null : confirmDelete === e.id ? (
                    <>
                      <button
                        type="button"
                        className="danger"
                        onClick={() => void endpoints.remove(e.id).then(() => setConfirmDelete(null))}
                      >
                        Delete {e.name}
                      </button>
                      <button type="button" onClick={() => setConfirmDelete(null)}>
                        Keep
                      </button>
                    </>
                  ) : (
                    <button type="button" onClick={() => setConfirmDelete(e.id)}>
                      Delete
                    </button>
                  )}
                </div>
                {check?.id === e.id && (
                  <p className={check.ok === false ? 'inline-error' : 'endpoint-check'} role="status" data-testid="endpoint-check">
                    {check.ok === true ? '✓ ' : ''}
                    {check.text}
                  </p>
                )}
              </li>
            ))}
          </ul>
        )}
        {builtinForm ? (
          <BuiltinForm
            key={builtinForm.id}
            endpoint={builtinForm}
            endpoints={endpoints}
            onSaved={saved}
            onCancel={() => setBuiltinForm(null)}
          />
        ) : form ? (
          <EndpointForm
            key={form.editing?.id ?? form.preset.name}
            start={form}
            endpoints={endpoints}
            onSaved={saved}
            onCancel={() => setForm(null)}
          />
        ) : showChoice ? (
          <GuidedChoice
            onChoose={(preset) => setForm({ editing: null, preset })}
            {...(builtin === null ? {} : { onBuiltin: () => setBuiltinForm(builtin) })}
          />
        ) : (
          <button type="button" className="primary" onClick={() => setForm({ editing: null, preset: PRESETS.local })}>
            Add endpoint…
          </button>
        )}
        <ExecutorSettings />
      </div>
    </div>
  )
}
